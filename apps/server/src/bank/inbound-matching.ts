import { formatUsd } from '@offzero/shared/money/money';
import type { Transaction } from '../db/database';
import type { OrderRow } from '../db/schema';
import { confirmPayment } from '../admin/admin-orders.repository';
import { namesMatch } from '../cases/name-similarity';
import { moveOrder } from '../orders/order-state';
import type { InboundCredit } from './bank-provider';
import {
  findFundingAccount,
  findVerifiedName,
  insertBankCredit,
  lockUnpaidBankBuys,
  recordBankCreditEvent,
  setOrderBankTxn,
  type BankAccountNumberRow,
  type BankCreditRow,
} from './bank-credits.repository';

/** How an inbound credit ended: it paid an order, it waits for a person, or it was seen before. */
export type InboundOutcome =
  | { outcome: 'matched'; credit: BankCreditRow; order: OrderRow }
  | { outcome: 'unmatched'; credit: BankCreditRow }
  | { outcome: 'duplicate' };

/** Who confirms a payment the bank reported (in `paymentConfirmedBy` and the timeline's actor). */
export const BANK_CONFIRMER = 'bank';

/**
 * Applies money that arrived on a customer's account number (docs/design.md, "Bank provider"), inside
 * the inbox transaction that marks the bank's delivery processed:
 * - the same trace number stored before credits nothing (`duplicate`);
 * - it pays the oldest unpaid ACH/wire buy of that customer — only the customer whose account number
 *   received it — of exactly that amount (pending, or processing while it waits for the transfer),
 *   when the sender's name is the customer's verified name and the order carries no flag: the order is
 *   marked paid, as the back office's "Mark payment received" does, with the trace as `bankTxn`;
 * - anything else waits in the work queue ("Unmatched bank credits") with the reason.
 */
export async function applyInboundCredit(
  tx: Transaction,
  credit: InboundCredit,
  now: Date,
): Promise<InboundOutcome> {
  const account = await findFundingAccount(tx, { bankAccountNumberId: credit.accountNumberId });
  const base = {
    traceNumber: credit.traceNumber,
    bankTransferId: credit.transferId,
    rail: credit.rail,
    bankAccountNumberId: credit.accountNumberId,
    userId: account?.userId ?? null,
    amountCents: credit.amountCents,
    originatorName: credit.originatorName,
    receivedAt: credit.receivedAt,
  };
  const decision = account
    ? await chooseOrder(tx, account, credit)
    : { reason: 'No customer has this account number.' };
  if ('reason' in decision) {
    const stored = await insertBankCredit(tx, { ...base, status: 'unmatched', reason: decision.reason });
    return stored ? { outcome: 'unmatched', credit: stored } : { outcome: 'duplicate' };
  }
  const stored = await insertBankCredit(tx, {
    ...base,
    status: 'matched',
    orderId: decision.order.id,
    resolvedBy: BANK_CONFIRMER,
    resolvedAt: now,
  });
  if (!stored) return { outcome: 'duplicate' };
  const order = await payOrder(
    tx,
    decision.order,
    stored,
    account!,
    { confirmedBy: BANK_CONFIRMER, actor: 'bank' },
    now,
  );
  return { outcome: 'matched', credit: stored, order };
}

async function chooseOrder(
  tx: Transaction,
  account: BankAccountNumberRow,
  credit: InboundCredit,
): Promise<{ order: OrderRow } | { reason: string }> {
  const unpaid = await lockUnpaidBankBuys(tx, account.userId);
  const order = unpaid.find((candidate) => candidate.valueCents === credit.amountCents);
  if (!order) {
    return {
      reason:
        unpaid.length === 0
          ? 'The customer has no unpaid ACH or wire buy.'
          : `No unpaid buy of exactly $${formatUsd(credit.amountCents)} (unpaid: ${unpaid
              .map((candidate) => `$${formatUsd(candidate.valueCents)}`)
              .join(', ')}).`,
    };
  }
  const kycName = await findVerifiedName(tx, account.userId);
  if (!kycName || !namesMatch(kycName, credit.originatorName))
    return { reason: `The sender "${credit.originatorName}" is not the customer's verified name.` };
  if (order.flag) return { reason: `The order that matches is held for review (${order.flag}).` };
  return { order };
}

/**
 * Marks a buy paid by a bank credit: a pending buy first moves to processing (the customer never
 * pressed "I have paid"), with the customer's own account number as the receiving details; then the
 * payment is confirmed with the credit's trace number as the bank reference, and the step is written
 * in the order's timeline. Used by the automatic match and by an operator's match alike.
 */
export async function payOrder(
  tx: Transaction,
  order: OrderRow,
  credit: BankCreditRow,
  account: BankAccountNumberRow,
  by: { confirmedBy: string; actor: string },
  now: Date,
): Promise<OrderRow> {
  const method = order.paymentMethod ?? (credit.rail === 'wire' ? 'wire' : 'ach');
  const { actor } = by;
  let current = order;
  if (order.status === 'pending') {
    current = await moveOrder(tx, {
      orderId: order.id,
      from: ['pending'],
      to: 'processing',
      actor,
      reason: `bank credit ${credit.traceNumber} received`,
      patch: {
        paymentMethod: method,
        receivingDetails: fundingDetails(account),
        paymentSubmittedAt: now,
        bankTxn: credit.traceNumber,
      },
    });
  }
  await recordBankCreditEvent(tx, current, credit, actor);
  const confirmed = await confirmPayment(tx, current.id, by.confirmedBy);
  if (!confirmed) throw new Error('the order changed while its bank credit was applied');
  return confirmed.bankTxn === credit.traceNumber
    ? confirmed
    : setOrderBankTxn(tx, confirmed.id, credit.traceNumber);
}

/** The receiving details a customer's ACH or wire buy shows: their own account number at our bank. */
export function fundingDetails(account: BankAccountNumberRow): Record<string, string> {
  return {
    account_holder: account.accountHolder,
    account_number: account.accountNumber,
    routing_number: account.routingNumber,
    bank_name: account.bankName,
  };
}
