import { z } from 'zod';
import { userSchema } from './accounts';
import { kycStatusSchema } from './kyc';
import { orderSchema } from './orders';
import { bankTransferSchema } from './bank';
import { payoutBatchStatusSchema } from './payout-batches';
import { PAYOUT_PURPOSES, PAYOUT_SENDERS, PAYOUT_STATES } from './payouts';
import { fullGlobalSettingsSchema } from './global-settings';
import { userSettingsSchema } from './user-settings';

/**
 * The back office's API (`/api/admin/*`, apps/server/src/admin): the server declares these as its
 * response schemas and the web app checks its answers with them.
 */

/** An order as the console sees it: the customer's shape plus what only staff see. */
export const adminOrderSchema = orderSchema.extend({
  customerEmail: z.string().nullable(),
  flagNote: z.string().nullable(),
  cancelReason: z.string().nullable(),
  /** Satoshis actually received for a sell, as a decimal string. */
  receivedSats: z.string().nullable(),
  depositIndex: z.number().nullable(),
  paymentConfirmedAt: z.string().nullable(),
  paymentConfirmedBy: z.string().nullable(),
  paypalOrderId: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** When the order last changed: how long it has waited in a queue. */
  updatedAt: z.string(),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;

/** A payout batch as an order names it: which one, and its state. */
export const payoutBatchRefSchema = z.object({ id: z.string(), status: payoutBatchStatusSchema });
export type PayoutBatchRef = z.infer<typeof payoutBatchRefSchema>;

/**
 * A paid buy waiting for its bitcoin. `payoutBatch` is the payout batch that holds it (docs/design.md):
 * such a buy is paid by that batch, never by hand; null when no batch holds it.
 */
export const bitcoinToSendSchema = adminOrderSchema.extend({
  payoutBatch: payoutBatchRefSchema.nullable(),
});
export type BitcoinToSend = z.infer<typeof bitcoinToSendSchema>;

export const queueSchema = z.object({
  paymentsToCheck: z.array(adminOrderSchema),
  bitcoinToSend: z.array(bitcoinToSendSchema),
  sellPayoutsDue: z.array(adminOrderSchema),
  flagged: z.array(adminOrderSchema),
  /** Problems of the system itself that need a person (a sanctions list refresh that failed). */
  alerts: z.array(z.object({ id: z.string(), message: z.string() })),
});
export type WorkQueue = z.infer<typeof queueSchema>;

/** A page of the order desk's search; `nextCursor` (the last order's id on a full page) asks for the next one. */
export const orderListSchema = z.object({
  orders: z.array(adminOrderSchema),
  total: z.number(),
  nextCursor: z.string().nullable().optional(),
});

/** Why an order is held for a person, in the back office's words. */
export const ORDER_FLAG_LABEL: Record<string, string> = {
  late_deposit: 'Late deposit',
  underpaid: 'Underpaid',
  overpaid: 'Overpaid',
  extra_deposit: 'Extra deposit',
  vanished_tx: 'Vanished transaction',
  capture_mismatch: 'Capture mismatch',
  over_limit: 'Over the order limit',
  deposit_reversed: 'Deposit reversed',
  duplicate_reference: 'Duplicate bank reference',
  payment_reversed: 'Payment reversed',
};

/**
 * One step of an order's history, for staff: a move between two states (`moved`), the creation
 * (`created`), or something that changed no state (`event`: a payout started, a flag, a re-pricing),
 * named in `title`. `facts` are the step's details in words, amounts as BTC and USD.
 */
export const timelineEntrySchema = z.object({
  kind: z.enum(['created', 'moved', 'event']),
  title: z.string(),
  from: z.string().nullable(),
  to: z.string(),
  actor: z.string(),
  reason: z.string().nullable(),
  facts: z.array(z.object({ label: z.string(), value: z.string() })),
  at: z.string(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

export const depositSchema = z.object({
  txid: z.string(),
  vout: z.number(),
  amount: z.number(),
  confirmations: z.number(),
  status: z.string(),
  firstSeenAt: z.string(),
});
export type Deposit = z.infer<typeof depositSchema>;

export const orderCustomerSchema = z.object({
  _id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phoneNumber: z.string().nullable(),
});

/**
 * Where a buy's bitcoin goes and whether it may go yet (its payout address-book entry): `due` false
 * with the reason while the customer has not confirmed the address, during its cooldown, or while a
 * required ownership proof is missing. Null for sells and settled buys.
 */
export const payoutDestinationSchema = z.object({
  due: z.boolean(),
  /** The address to pay (an xpub entry's derived address once the buy is due). */
  address: z.string().nullable(),
  /** Why the payout waits; null when due. */
  message: z.string().nullable(),
  entry: z
    .object({
      label: z.string(),
      kind: z.enum(['address', 'xpub']),
      status: z.enum(['unconfirmed', 'confirmed', 'usable']),
      usableAt: z.string().nullable(),
      proven: z.boolean(),
      removed: z.boolean(),
    })
    .nullable(),
});
export type PayoutDestinationView = z.infer<typeof payoutDestinationSchema>;

/** The back office's order actions; each is the last segment of `POST /api/admin/orders/:id/<kind>`. */
export const orderActionKinds = [
  'mark-paid',
  'payout-btc',
  'send-btc',
  'payout-usd',
  'cancel',
  'refund-btc',
  'refund-usd',
  'resolve-flag',
] as const;
export const orderActionKindSchema = z.enum(orderActionKinds);
export type OrderActionKind = z.infer<typeof orderActionKindSchema>;

/**
 * An action the order page offers, as the server's rules judge it now: allowed, or blocked with the
 * reason (the same words the action answers with, 409, if it is tried).
 */
export const orderActionOfferSchema = z.object({
  kind: orderActionKindSchema,
  allowed: z.boolean(),
  reason: z.string().nullable(),
});
export type OrderActionOffer = z.infer<typeof orderActionOfferSchema>;

/**
 * One payout of the order with, for a payout sent through the bank's API, the bank's own word on its
 * transfer (read back when the page opens; `bankUnavailable` when the bank did not answer).
 */
export const orderPayoutSchema = z.object({
  id: z.string(),
  purpose: z.enum(PAYOUT_PURPOSES),
  rail: z.string(),
  sender: z.enum(PAYOUT_SENDERS),
  state: z.enum(PAYOUT_STATES),
  reference: z.string().nullable(),
  txid: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  bankTransfer: bankTransferSchema
    .pick({
      id: true,
      kind: true,
      status: true,
      traceNumber: true,
      returnCode: true,
      createdAt: true,
      settledAt: true,
    })
    .nullable(),
  bankUnavailable: z.boolean(),
});
export type OrderPayoutView = z.infer<typeof orderPayoutSchema>;

export const orderDetailSchema = z.object({
  order: adminOrderSchema,
  /** The actions that concern the order at its stage, in the order the page shows them. */
  actions: z.array(orderActionOfferSchema),
  payoutDestination: payoutDestinationSchema.nullable().optional(),
  /** The payout batch holding this buy (docs/design.md): it is paid by that batch, never by hand. */
  payoutBatch: payoutBatchRefSchema.nullable().optional(),
  /** Every payout of the order, oldest first, with its bank status (docs/design.md, "Instant payouts"). */
  payouts: z.array(orderPayoutSchema).optional(),
  customer: orderCustomerSchema.nullable(),
  timeline: z.array(timelineEntrySchema),
  deposits: z.array(depositSchema),
  confirmationsRequired: z.number(),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

export const orderActionAnswerSchema = z.object({ message: z.string(), order: adminOrderSchema });

export const kycCaseSchema = z.object({
  userId: z.string(),
  email: z.string().nullable(),
  provider: z.string(),
  status: kycStatusSchema,
  legalName: z.string().nullable(),
  dateOfBirth: z.string().nullable(),
  country: z.string().nullable(),
  documentType: z.string().nullable(),
  documentNumber: z.string().nullable(),
  hasDocument: z.boolean(),
  reviewNote: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  submittedAt: z.string().nullable(),
});
export type KycCase = z.infer<typeof kycCaseSchema>;

export const kycCasesSchema = z.object({ cases: z.array(kycCaseSchema) });
export const kycCaseAnswerSchema = z.object({ case: kycCaseSchema });
export const kycDecisionAnswerSchema = z.object({ message: z.string(), case: kycCaseSchema });

export const adminSettingsAnswerSchema = z.object({ settings: fullGlobalSettingsSchema });
export const saveSettingsAnswerSchema = z.object({ message: z.string(), settings: fullGlobalSettingsSchema });

export const customerListItemSchema = userSchema.extend({ disabled: z.boolean(), createdAt: z.string() });
export type CustomerListItem = z.infer<typeof customerListItemSchema>;
export const customerListSchema = z.object({ users: z.array(customerListItemSchema) });

export const referralRewardSchema = z.object({
  _id: z.string(),
  tradingUserId: z.string(),
  orderId: z.string(),
  platformFee: z.number(),
  reward: z.number(),
  createdAt: z.string(),
});

export const customerDetailSchema = z.object({
  user: customerListItemSchema.extend({
    disabledAt: z.string().nullable(),
    restrictedAt: z.string().nullable(),
    restrictedReason: z.string().nullable(),
    referralCode: z.string().nullable(),
    referredBy: z.string().nullable(),
    /** The KYC tier whose trading limits apply (docs/design.md). */
    limitTier: z.number().int(),
  }),
  settings: userSettingsSchema,
  kyc: kycCaseSchema.nullable(),
  orders: z.array(orderSchema),
  referralRewards: z.array(referralRewardSchema),
  referralTotal: z.number(),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

export const messageAnswerSchema = z.object({ message: z.string() });

export const auditTargetTypes = [
  'order',
  'user',
  'kyc',
  'settings',
  'case',
  'tax',
  'payout_batch',
  'jurisdiction',
  'ach_file',
  'bank_credit',
] as const;
export type AuditTargetType = (typeof auditTargetTypes)[number];

export const auditEntrySchema = z.object({
  _id: z.string(),
  at: z.string(),
  admin: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  note: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditListSchema = z.object({ entries: z.array(auditEntrySchema) });

/**
 * The back office's search boxes, trimmed and no longer than the server's queries take them (a blank
 * search lists everything).
 */
const searchText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `Search for at most ${max} characters.` });

/** Orders: a customer's e-mail, phone, id or short number, or an order's id or short number (`customer`). */
export const orderSearchFormSchema = z.object({ customer: searchText(254) });
/** Customers: an e-mail, a phone number, or a customer's or order's id or short number (`q`). */
export const customerSearchFormSchema = z.object({ q: searchText(254) });
/** The audit log's typed filters: the order or customer id, and the admin's e-mail. */
export const auditFilterFormSchema = z.object({ targetId: searchText(100), admin: searchText(254) });

/** A background job that failed every try and was parked (`GET /api/admin/jobs/failed`). */
export const failedJobSchema = z.object({
  id: z.string(),
  name: z.string(),
  error: z.string(),
  failedAt: z.string(),
  attempts: z.number().int(),
});
export const failedJobsSchema = z.object({ jobs: z.array(failedJobSchema) });

/** How an outbox event reaches its recipient. */
export const OUTBOX_CHANNELS = ['email', 'sms', 'realtime'] as const;

/** An outbox delivery parked after its last try (`GET /api/admin/outbox`). */
export const failedOutboxDeliverySchema = z.object({
  id: z.string(),
  eventKey: z.string(),
  channel: z.enum(OUTBOX_CHANNELS),
  recipient: z.string(),
  userId: z.string().nullable(),
  attempts: z.number().int(),
  error: z.string(),
  createdAt: z.string(),
  failedAt: z.string(),
});
export type FailedOutboxDelivery = z.infer<typeof failedOutboxDeliverySchema>;
/** The outbox's backlog: deliveries still to make or retry, and those parked as failed. */
export const outboxStatusSchema = z.object({
  pending: z.number().int(),
  failed: z.array(failedOutboxDeliverySchema),
});

/** A provider webhook parked after its last try (`GET /api/admin/inbox`). */
export const failedWebhookSchema = z.object({
  id: z.string(),
  provider: z.string(),
  attempts: z.number().int(),
  error: z.string(),
  receivedAt: z.string(),
});
/** The inbox's backlog: webhooks still to apply or retry, and those parked as failed. */
export const inboxStatusSchema = z.object({
  pending: z.number().int(),
  failed: z.array(failedWebhookSchema),
});

/** The actions that need a second admin at or above the four-eyes threshold. */
export const FOUR_EYES_ACTIONS = ['order.mark_paid', 'order.payout_usd', 'jurisdiction.edit'] as const;

/** Four eyes (docs/design.md): the first admin's call answers 202 with the request a second admin completes. */
export const fourEyesPendingSchema = z.object({
  message: z.string(),
  approval: z.object({
    id: z.string(),
    action: z.enum(FOUR_EYES_ACTIONS),
    requestedBy: z.string(),
  }),
});
export type FourEyesPending = z.infer<typeof fourEyesPendingSchema>;
