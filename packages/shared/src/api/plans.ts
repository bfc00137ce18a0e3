import { z } from 'zod';
import { scamCheckSchema } from '../places/scam-shield';

/** Recurring buys (docs/design.md, "Recurring buys"): plans, their runs, and the debit authorization. */

export const PLAN_FREQUENCIES = ['weekly', 'biweekly', 'monthly'] as const;
export type PlanFrequency = (typeof PLAN_FREQUENCIES)[number];
export const PLAN_STATUSES = ['active', 'paused', 'cancelled'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

/**
 * A run's life: `claimed` (made, its buy and debit on the way), `debiting` (the ACH debit is with the
 * bank), `holding` (settled, waiting out the hold), `paid` (released to the next payout batch),
 * `returned` (the bank returned the debit before the payout), `reversed` (returned after it),
 * `skipped` (missed by more than a day), `failed` (a buy check refused it; nothing was debited).
 */
export const PLAN_RUN_STATUSES = [
  'claimed',
  'debiting',
  'holding',
  'paid',
  'returned',
  'reversed',
  'skipped',
  'failed',
] as const;
export type PlanRunStatus = (typeof PLAN_RUN_STATUSES)[number];

export const PLAN_MESSAGES = {
  frequency: 'Choose weekly, every two weeks or monthly.',
  firstRunOn: 'Enter the first buy date as YYYY-MM-DD.',
  notADate: 'This is not a real date.',
  inThePast: 'The first buy cannot be in the past.',
  authorization: 'Accept the debit authorization to start the plan.',
  amount: 'Enter the amount in dollars, like 50 or 50.25.',
  addressUnconfirmed: 'Confirm this address first: open the link we e-mailed you.',
  addressRemoved: 'This address was removed from your address book. Choose another one.',
  addressNotFound: 'Address not found.',
  noBankAccount: 'Add your bank account in Settings first: the plan debits it.',
  planNotFound: 'Plan not found.',
  pausedByReturn: 'Paused: your bank returned the payment',
} as const;

/**
 * The authorization the customer reads and accepts, word for word the text the server keeps with the
 * plan (with its time, IP and bank account): both sides compute it here from the same facts.
 */
export function debitAuthorizationText(input: {
  amountUsd: string;
  frequency: PlanFrequency;
  accountName: string;
  accountLast4: string;
}): string {
  const every = { weekly: 'every week', biweekly: 'every two weeks', monthly: 'every month' }[
    input.frequency
  ];
  return (
    `I authorize OffZero to debit $${input.amountUsd} ${every} from the account of ` +
    `${input.accountName} ending ${input.accountLast4} by ACH, to buy bitcoin sent to my own wallet, ` +
    `until I cancel the plan. I can pause or cancel it in Settings at any time before a buy date.`
  );
}

const dayText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, PLAN_MESSAGES.firstRunOn);

export const createPlanSchema = z.strictObject({
  /** Dollars, as a number or as typed ("50", "50.25"); read into cents on the server. */
  amountUsd: z.union([z.number().finite(), z.string().max(40)], { error: PLAN_MESSAGES.amount }),
  frequency: z.enum(PLAN_FREQUENCIES, { error: PLAN_MESSAGES.frequency }),
  firstRunOn: dayText,
  payoutAddressId: z.string().max(100),
  authorization: z.object({ accepted: z.literal(true, { error: PLAN_MESSAGES.authorization }) }),
  /** A new customer's answer to the first-buy question, kept with the plan and passed by each run. */
  scamCheck: scamCheckSchema.optional(),
});
export type CreatePlanRequest = z.infer<typeof createPlanSchema>;

export const planParamsSchema = z.object({ id: z.string().max(100) });

export const planRunSchema = z.object({
  id: z.string(),
  runOn: z.string(),
  orderId: z.string().nullable(),
  status: z.enum(PLAN_RUN_STATUSES),
  /** The bank's return code when the debit came back. */
  returnCode: z.string().nullable(),
  /** Why a run failed or was skipped, in the customer's words. */
  note: z.string().nullable(),
});
export type PlanRun = z.infer<typeof planRunSchema>;

export const planSchema = z.object({
  id: z.string(),
  amountUsd: z.number(),
  frequency: z.enum(PLAN_FREQUENCIES),
  nextRunOn: z.string(),
  status: z.enum(PLAN_STATUSES),
  /** Why the plan is paused when the bank paused it (PLAN_MESSAGES.pausedByReturn), else null. */
  statusNote: z.string().nullable(),
  payoutAddressId: z.string(),
  authorization: z.object({ text: z.string(), acceptedAt: z.string() }),
  runs: z.array(planRunSchema),
});
export type Plan = z.infer<typeof planSchema>;

export const planResponseSchema = z.object({ plan: planSchema, message: z.string() });
export const planListSchema = z.object({ plans: z.array(planSchema) });

/** The back office's view: every plan with its customer, and each run's debit, hold and return. */
export const adminPlanRunSchema = planRunSchema.extend({
  amountUsd: z.number(),
  transferId: z.string().nullable(),
  settledAt: z.string().nullable(),
  releaseAt: z.string().nullable(),
  returnedAt: z.string().nullable(),
});
export const adminPlanSchema = planSchema.omit({ runs: true }).extend({
  customerEmail: z.string().nullable(),
  bankAccountLast4: z.string(),
  runs: z.array(adminPlanRunSchema),
});
export type AdminPlan = z.infer<typeof adminPlanSchema>;
export const adminPlanListSchema = z.object({ plans: z.array(adminPlanSchema) });
