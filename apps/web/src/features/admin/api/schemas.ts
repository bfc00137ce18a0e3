import { z } from 'zod';
import { userSchema } from '@offzero/shared/api/accounts';
import { kycStatusSchema } from '@offzero/shared/api/kyc';
import { orderSchema } from '@offzero/shared/api/orders';
import { fullGlobalSettingsSchema } from '@offzero/shared/api/global-settings';
import { userSettingsSchema } from '@offzero/shared/api/user-settings';

// The answers of /api/admin/* (apps/server/src/admin/*.ts), checked like every other answer.

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
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;

export const queueSchema = z.object({
  paymentsToCheck: z.array(adminOrderSchema),
  bitcoinToSend: z.array(adminOrderSchema),
  sellPayoutsDue: z.array(adminOrderSchema),
  flagged: z.array(adminOrderSchema),
});
export type WorkQueue = z.infer<typeof queueSchema>;

export const orderListSchema = z.object({ orders: z.array(adminOrderSchema), total: z.number() });

export const timelineEntrySchema = z.object({
  from: z.string().nullable(),
  to: z.string(),
  actor: z.string(),
  reason: z.string().nullable(),
  details: z.unknown().optional(),
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

export const orderDetailSchema = z.object({
  order: adminOrderSchema,
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
    referralCode: z.string().nullable(),
    referredBy: z.string().nullable(),
  }),
  settings: userSettingsSchema,
  kyc: kycCaseSchema.nullable(),
  orders: z.array(orderSchema),
  referralRewards: z.array(referralRewardSchema),
  referralTotal: z.number(),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

export const messageAnswerSchema = z.object({ message: z.string() });

export const auditTargetTypes = ['order', 'user', 'kyc', 'settings'] as const;
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
