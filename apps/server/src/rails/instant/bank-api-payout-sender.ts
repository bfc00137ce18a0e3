import type { BankProvider, BankTransfer } from '../../bank/bank-provider';
import type { OrderRow, PayoutRow } from '../../db/schema';
import type { PayoutSender, PayoutSendResult } from '../rail-handler';

/** Who claims an order's first instant payout: the server, as soon as the deposit is credited. */
export const INSTANT_PAYOUT_ACTOR = 'system:instant-payouts';

/**
 * The bank's idempotency key of a payout (docs/design.md, "Instant payouts"): the order id for the
 * first payout, which the server sends by itself, so a send repeated after a crash (the worker killed
 * between "sent" and "recorded") gets the same transfer back; a payout staff approve after a return is
 * a new movement of money, so its key is the order and that payout.
 */
export function instantPayoutKey(
  order: Pick<OrderRow, 'id'>,
  payout: Pick<PayoutRow, 'id' | 'createdBy'>,
): string {
  return payout.createdBy === INSTANT_PAYOUT_ACTOR ? order.id : `${order.id}:${payout.id}`;
}

/** What the bank's answer means for the payout. */
export function transferOutcome(transfer: BankTransfer): PayoutSendResult {
  if (transfer.status === 'settled') return { outcome: 'settled', reference: transfer.id };
  if (transfer.status === 'rejected' || transfer.status === 'returned') {
    // Refused after we handed it over, or sent back: a return (docs/design.md, "Instant payouts").
    return {
      outcome: 'returned',
      reference: transfer.id,
      reason: `the bank ${transfer.status} it (${transfer.returnCode ?? 'no code'})`,
    };
  }
  return { outcome: 'submitted', reference: transfer.id };
}

/** The transfer of a payout, created (or, with the same key, found again) at the bank. */
export async function sendInstantTransfer(
  bank: Pick<BankProvider, 'createTransfer' | 'lookUpRoutingNumber'>,
  payout: PayoutRow,
  order: OrderRow,
): Promise<BankTransfer> {
  const details = order.receivingDetails ?? {};
  const routingNumber = details.routing_number ?? '';
  const reach = await bank.lookUpRoutingNumber(routingNumber);
  return bank.createTransfer({
    kind: reach && !reach.rtp && reach.fednow ? 'fednow' : 'rtp',
    amountCents: order.valueCents,
    idempotencyKey: instantPayoutKey(order, payout),
    counterparty: {
      accountNumber: details.account_number ?? '',
      routingNumber,
      name: details.account_holder ?? '',
    },
    description: `OffZero sell ${order.id.slice(0, 8)}`,
  });
}

/**
 * Sends a sell's dollars through the bank's API on RTP (or FedNow when the customer's bank is only on
 * that), to the bank details kept with the order. Its intent is committed before (payouts/), and the
 * same key always answers the same transfer, so calling it again for the same payout moves no money.
 */
export const bankApiPayoutSender: PayoutSender = {
  mode: 'automatic',
  async send(deps, payout, order) {
    if (!deps.bank) throw new Error('the bank-api sender needs the bank');
    return transferOutcome(await sendInstantTransfer(deps.bank, payout, order));
  },
};
