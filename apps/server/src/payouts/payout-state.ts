import { and, eq } from 'drizzle-orm';
import type { Transaction } from '../db/database';
import { isUniqueViolation } from '../db/postgres-errors';
import { payouts, type PayoutRow, type PayoutState } from '../db/schema';
import { AppError } from '../http/errors';

/**
 * The one writer of `payouts.state` (like `orders/order-state.ts` for orders; docs/design.md,
 * "Payouts claim the order first"). A payout is claimed (`requested`, or `submitted` when its sender
 * runs at once) in the transaction that checks the order may be paid, and that claim commits before
 * any money moves; the result is recorded afterwards. A failed payout stays failed: paying again is a
 * new row, never a move back.
 */
export const PAYOUT_MOVES: Readonly<Record<PayoutState, readonly PayoutState[]>> = {
  requested: ['submitted', 'cancelled'],
  // A bank's refusal after the money was handed over (an instant transfer to a closed account) is a
  // return, not a failure: the rail held it (docs/design.md, "Payouts").
  submitted: ['settled', 'failed', 'returned'],
  settled: ['returned'],
  failed: [],
  returned: [],
  cancelled: [],
};

/** The states a payout may be created in: a claim, before the money moves. */
export const PAYOUT_CLAIM_STATES = ['requested', 'submitted'] as const;
export type PayoutClaimState = (typeof PAYOUT_CLAIM_STATES)[number];

export function canMovePayout(from: PayoutState, to: PayoutState): boolean {
  return PAYOUT_MOVES[from].includes(to);
}

/** A move the rules refuse: a bug in the caller, never a customer's or operator's doing. */
export class PayoutMoveError extends Error {
  constructor(
    readonly from: PayoutState,
    readonly to: PayoutState,
  ) {
    super(`a payout cannot move from ${from} to ${to}`);
    this.name = 'PayoutMoveError';
  }
}

export function assertPayoutMove(from: PayoutState, to: PayoutState): void {
  if (!canMovePayout(from, to)) throw new PayoutMoveError(from, to);
}

export type NewPayout = Pick<
  typeof payouts.$inferInsert,
  'orderId' | 'kind' | 'rail' | 'sender' | 'address' | 'amountSats' | 'createdBy' | 'batchId' | 'reference'
> & { purpose?: PayoutRow['purpose'] };

/** What a settled payout paid with: the transaction output, or the bank reference. */
export type PayoutResult = { txid: string; vout: number | null } | { reference: string };

const OUTPUT_ALREADY_USED = 'This transaction output already pays another order. Check the txid and vout.';

/** The unique indexes answer as before: 409, the output (or the order) is paid already. */
async function orConflict<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', OUTPUT_ALREADY_USED);
    throw error;
  }
}

/** Claims a payout: the intent row, committed by the caller before any money moves. */
export async function claimPayout(
  tx: Transaction,
  values: NewPayout,
  state: PayoutClaimState = 'submitted',
): Promise<PayoutRow> {
  return orConflict(async () => {
    const [payout] = await tx
      .insert(payouts)
      .values({ ...values, state })
      .returning();
    if (!payout) throw new Error('payout insert returned nothing');
    return payout;
  });
}

/**
 * Moves a payout from the state the caller read to `to`, with the result when it settles. The row must
 * still be in that state (the caller holds the order's lock), else nothing is written and it throws.
 */
export async function movePayout(
  tx: Transaction,
  payout: Pick<PayoutRow, 'id' | 'state'>,
  to: PayoutState,
  result?: PayoutResult,
): Promise<PayoutRow> {
  assertPayoutMove(payout.state, to);
  if (to === 'settled' && !result) throw new Error('a settled payout needs its result');
  return orConflict(async () => {
    const [moved] = await tx
      .update(payouts)
      .set({ state: to, ...resultColumns(result), ...(to === 'settled' ? { sentAt: new Date() } : {}) })
      .where(and(eq(payouts.id, payout.id), eq(payouts.state, payout.state)))
      .returning();
    if (!moved) throw new Error(`payout ${payout.id} is no longer ${payout.state}`);
    return moved;
  });
}

/**
 * The rail's reference of a payout in flight (the bank's transfer id), recorded once the sender has it;
 * the state stays `submitted` until the rail says how it ended.
 */
export async function notePayoutReference(
  tx: Transaction,
  payout: Pick<PayoutRow, 'id'>,
  reference: string,
): Promise<PayoutRow> {
  const [noted] = await tx
    .update(payouts)
    .set({ reference })
    .where(and(eq(payouts.id, payout.id), eq(payouts.state, 'submitted')))
    .returning();
  if (!noted) throw new Error(`payout ${payout.id} is no longer submitted`);
  return noted;
}

/** A payout made outside the server (staff paid and record it): claimed and settled at once. */
export async function recordSettledPayout(
  tx: Transaction,
  values: NewPayout,
  result: PayoutResult,
): Promise<PayoutRow> {
  const claimed = await claimPayout(tx, values, 'submitted');
  return movePayout(tx, claimed, 'settled', result);
}

/**
 * A fee bump paid a settled payout again in a new transaction (same amount, same address): the result
 * follows the new output, the payout stays settled.
 */
export async function replaceSettledOutput(
  tx: Transaction,
  payout: Pick<PayoutRow, 'id' | 'state'>,
  output: { txid: string; vout: number },
): Promise<PayoutRow> {
  if (payout.state !== 'settled') throw new PayoutMoveError(payout.state, 'settled');
  return orConflict(async () => {
    const [updated] = await tx
      .update(payouts)
      .set({ txid: output.txid, vout: output.vout, sentAt: new Date() })
      .where(and(eq(payouts.id, payout.id), eq(payouts.state, 'settled')))
      .returning();
    if (!updated) throw new Error(`payout ${payout.id} is no longer settled`);
    return updated;
  });
}

/**
 * The network refused a batch's transaction, so none of its intents sent anything: they are taken back
 * (deleted, not failed), and signing the batch again claims them anew.
 */
export async function takeBackBatchClaims(tx: Transaction, batchId: string): Promise<void> {
  await tx.delete(payouts).where(and(eq(payouts.batchId, batchId), eq(payouts.state, 'submitted')));
}

function resultColumns(result: PayoutResult | undefined) {
  if (!result) return {};
  if ('reference' in result) return { reference: result.reference };
  return { txid: result.txid, vout: result.vout };
}
