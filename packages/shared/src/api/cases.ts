import { z } from 'zod';

/**
 * Monitoring cases (docs/design.md, `/api/admin/cases`): what the monitoring rules opened, for staff
 * only. The customer's API never mentions them.
 */

export const CASE_RULES = [
  'structuring',
  'velocity',
  'large_first_trade',
  'name_mismatch',
  'shared_destination',
  'sanctions_hit',
  'scam_suspected',
  /** The bank refused or returned a sell's payout: staff check the account before paying again. */
  'payout_returned',
  /** A bank debit came back after its bitcoin was paid out (docs/design.md, "Recurring buys"). */
  'payment_reversed',
] as const;
export const caseRuleSchema = z.enum(CASE_RULES);
export type CaseRule = z.infer<typeof caseRuleSchema>;

export const CASE_STATUSES = ['open', 'reviewing', 'closed'] as const;
export const caseStatusSchema = z.enum(CASE_STATUSES);
export type CaseStatus = z.infer<typeof caseStatusSchema>;

/** How a case was closed: nothing to report, or a Suspicious Activity Report filed with FinCEN. */
export const CASE_OUTCOMES = ['no_action', 'sar_filed'] as const;
export const caseOutcomeSchema = z.enum(CASE_OUTCOMES);
export type CaseOutcome = z.infer<typeof caseOutcomeSchema>;

export const CASE_MESSAGES = {
  outcomeNeeded: 'Choose an outcome to close the case: "no action" or "SAR filed".',
  outcomeOnlyWhenClosing: 'An outcome is given only when closing the case.',
  sarDetailsNeeded: 'A filed SAR needs the date it was filed and its reference.',
  sarDetailsOnlyWithSar: 'The SAR date and reference go with the "SAR filed" outcome only.',
  sarDateInFuture: 'The SAR filing date cannot be in the future.',
  closed: 'This case is closed and cannot change.',
  notFound: 'Case not found.',
} as const;

export const caseSchema = z.object({
  id: z.string(),
  userId: z.string(),
  customerEmail: z.string().nullable(),
  rule: caseRuleSchema,
  status: caseStatusSchema,
  openedAt: z.string(),
  updatedAt: z.string(),
  /** What matched: order ids, amounts in USD, times and the matched values (account numbers masked). */
  evidence: z.record(z.string(), z.unknown()),
  outcome: caseOutcomeSchema.nullable(),
  closedAt: z.string().nullable(),
  sarFiledAt: z.string().nullable(),
  sarReference: z.string().nullable(),
});
export type MonitoringCase = z.infer<typeof caseSchema>;

export const caseNoteSchema = z.object({
  id: z.string(),
  at: z.string(),
  admin: z.string(),
  note: z.string(),
});
export type CaseNote = z.infer<typeof caseNoteSchema>;

/** One step of a case's life: opened by a rule, then every review, note and closing by staff. */
export const caseHistoryEntrySchema = z.object({
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  fromStatus: caseStatusSchema.nullable(),
  toStatus: caseStatusSchema,
  note: z.string().nullable(),
});
export type CaseHistoryEntry = z.infer<typeof caseHistoryEntrySchema>;

export const caseListSchema = z.object({ cases: z.array(caseSchema) });
export const caseDetailSchema = z.object({
  case: caseSchema.extend({ notes: z.array(caseNoteSchema), history: z.array(caseHistoryEntrySchema) }),
});
export type CaseDetail = z.infer<typeof caseDetailSchema>['case'];

export const caseFiltersSchema = z.strictObject({
  userId: z.string().trim().max(100).optional(),
  status: caseStatusSchema.optional(),
  rule: caseRuleSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});

/**
 * `POST /api/admin/cases/:id`: move the case (or keep its status) with a note. Closing needs an
 * outcome; "SAR filed" needs the filing day (YYYY-MM-DD, not in the future: checked by the server's
 * clock) and the report's reference.
 */
export const caseUpdateSchema = z
  .strictObject({
    status: caseStatusSchema,
    note: z
      .string()
      .trim()
      .min(3, { error: 'Write a note of at least 3 characters.' })
      .max(2000, { error: 'Keep the note under 2000 characters.' }),
    outcome: caseOutcomeSchema.optional(),
    sarFiledAt: z.iso.date({ error: 'Give the SAR filing date as YYYY-MM-DD.' }).optional(),
    sarReference: z
      .string()
      .trim()
      .min(1, { error: 'Give the SAR reference.' })
      .max(100, { error: 'Keep the SAR reference under 100 characters.' })
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (body.status === 'closed' && !body.outcome) {
      ctx.addIssue({ code: 'custom', path: ['outcome'], message: CASE_MESSAGES.outcomeNeeded });
    }
    if (body.status !== 'closed' && body.outcome) {
      ctx.addIssue({ code: 'custom', path: ['outcome'], message: CASE_MESSAGES.outcomeOnlyWhenClosing });
    }
    const sar = body.outcome === 'sar_filed';
    if (sar && (!body.sarFiledAt || !body.sarReference)) {
      ctx.addIssue({
        code: 'custom',
        path: [body.sarFiledAt ? 'sarReference' : 'sarFiledAt'],
        message: CASE_MESSAGES.sarDetailsNeeded,
      });
    }
    if (!sar && (body.sarFiledAt || body.sarReference)) {
      ctx.addIssue({ code: 'custom', path: ['sarFiledAt'], message: CASE_MESSAGES.sarDetailsOnlyWithSar });
    }
  });
export type CaseUpdateRequest = z.infer<typeof caseUpdateSchema>;
export const caseUpdateAnswerSchema = z.object({ message: z.string(), case: caseSchema });
