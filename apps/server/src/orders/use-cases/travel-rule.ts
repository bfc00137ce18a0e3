import {
  needsTravelRuleRecord,
  WALLET_OWNERSHIP_MESSAGES,
  type WalletOwnership,
} from '@offzero/shared/api/limits';
import type { Cents } from '@offzero/shared/money/money';
import type { Transaction } from '../../db/database';
import type { OrderRow, UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { findKycRecord } from '../../kyc/kyc.repository';
import { upsertTravelRuleRecord } from '../travel-rule.repository';

/**
 * The Travel Rule step of saving an order (docs/design.md): an order of $3,000 or more must say whose
 * wallet it is, and keeps a record of the customer, the order and that answer. Below the threshold
 * the answer is neither needed nor kept.
 */
export function travelRuleAnswer(
  valueCents: Cents,
  answer: WalletOwnership | undefined,
): WalletOwnership | null {
  if (!needsTravelRuleRecord(valueCents)) return null;
  if (!answer) throw new AppError('BAD_REQUEST', WALLET_OWNERSHIP_MESSAGES.missing);
  return answer;
}

/** Writes (or, for a re-quoted order, replaces) the order's Travel Rule record. */
export async function keepTravelRuleRecord(
  tx: Transaction,
  request: { order: OrderRow; user: UserRow; answer: WalletOwnership },
): Promise<void> {
  const { order, user, answer } = request;
  const kyc = await findKycRecord(tx, user.id);
  const profileName = `${user.firstName} ${user.lastName}`.trim();
  await upsertTravelRuleRecord(tx, {
    orderId: order.id,
    userId: user.id,
    customerName: kyc?.legalName?.trim() || profileName || user.email,
    customerAddress: kyc?.country ?? null,
    paymentIdentifier: sellPayoutIdentifier(order),
    amountSats: order.amountSats,
    valueCents: order.valueCents,
    walletAddress: order.walletAddress ?? '',
    ownWallet: answer.own,
    institution: answer.own ? null : answer.institution,
    orderCreatedAt: order.createdAt,
  });
}

/** A sell's payout account as it was chosen; a buy's payment is named when the customer pays. */
function sellPayoutIdentifier(order: OrderRow): string | null {
  if (order.type !== 'sell' || !order.paymentMethod) return null;
  const details = order.receivingDetails ?? {};
  const parts = [
    details.payment_address,
    details.account_holder,
    details.account_number,
    details.routing_number,
    details.swift,
  ].filter((part): part is string => Boolean(part));
  return [order.paymentMethod, ...parts].join(' ');
}
