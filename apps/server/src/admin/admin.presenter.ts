import { centsToUsdNumber } from '@offzero/shared/money/money';
import type { OrderLightningPayout } from '@offzero/shared/api/order-lightning';
import type { AdminActionRow, DepositRow, KycRecordRow, OrderRow, UserRow } from '../db/schema';
import { toOrderResponse } from '../orders/order.presenter';
import { toUserResponse } from '../users/user.presenter';
import type { ReferralRewardRow } from './admin-customers.repository';

// The back office's answers (packages/shared/src/api/admin.ts), built from database rows.

/** An order row for the console: the client shape plus what only staff see. */
export function toAdminOrder(order: OrderRow, email: string | null, lightningPayout?: OrderLightningPayout) {
  return {
    ...toOrderResponse(order, undefined, lightningPayout),
    customerEmail: email,
    flagNote: order.flagNote,
    cancelReason: order.cancelReason,
    receivedSats: order.receivedSats?.toString() ?? null,
    depositIndex: order.depositIndex,
    paymentConfirmedAt: order.paymentConfirmedAt?.toISOString() ?? null,
    paymentConfirmedBy: order.paymentConfirmedBy,
    paypalOrderId: order.paypalOrderId,
    completedAt: order.completedAt?.toISOString() ?? null,
    /** When the order last changed: how long it has waited in a queue. */
    updatedAt: order.updatedAt.toISOString(),
  };
}

export const toAdminOrders = (rows: { order: OrderRow; email: string }[]) =>
  rows.map((row) => toAdminOrder(row.order, row.email));

export function toDepositEntry(deposit: DepositRow) {
  return {
    txid: deposit.txid,
    vout: deposit.vout,
    amount: Number(deposit.valueSats) / 1e8,
    confirmations: deposit.confirmations,
    status: deposit.status,
    firstSeenAt: deposit.firstSeenAt.toISOString(),
  };
}

export function toKycCase(record: KycRecordRow, email: string | null) {
  return {
    userId: record.userId,
    email,
    provider: record.provider,
    status: record.status,
    legalName: record.legalName,
    dateOfBirth: record.dateOfBirth,
    country: record.country,
    documentType: record.documentType,
    documentNumber: record.documentNumber,
    hasDocument: record.documentImage !== null,
    reviewNote: record.reviewNote,
    decidedBy: record.decidedBy,
    decidedAt: record.decidedAt?.toISOString() ?? null,
    submittedAt: record.submittedAt?.toISOString() ?? null,
  };
}

export function toCustomerListItem(user: UserRow, isAdmin: boolean) {
  return {
    ...toUserResponse(user, isAdmin),
    disabled: user.disabledAt !== null,
    createdAt: user.createdAt.toISOString(),
  };
}

export function toCustomerDetailUser(user: UserRow, isAdmin: boolean) {
  return {
    ...toUserResponse(user, isAdmin),
    disabled: user.disabledAt !== null,
    disabledAt: user.disabledAt?.toISOString() ?? null,
    restrictedAt: user.restrictedAt?.toISOString() ?? null,
    restrictedReason: user.restrictedReason,
    referralCode: user.referralCode,
    referredBy: user.referredByUserId,
    limitTier: user.limitTier,
    createdAt: user.createdAt.toISOString(),
  };
}

export function toReferralRewardEntry(reward: ReferralRewardRow) {
  return {
    _id: reward.id,
    tradingUserId: reward.tradingUserId,
    orderId: reward.orderId,
    platformFee: centsToUsdNumber(reward.platformFeeCents),
    reward: centsToUsdNumber(reward.rewardCents),
    createdAt: reward.createdAt.toISOString(),
  };
}

export function toAuditEntry(row: AdminActionRow) {
  return {
    _id: row.id,
    at: row.createdAt.toISOString(),
    admin: row.adminEmail,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    before: row.before,
    after: row.after,
    note: row.note,
  };
}
