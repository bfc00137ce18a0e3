import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_STATES as payoutStates } from '@offzero/shared/api/payouts';
import { orders, payouts, type PayoutRow, type PayoutState } from '../db/schema';
import { AppError } from '../http/errors';
import { newBuyOrderRow } from '../test/new-buy-order-row';
import { useTestDatabase } from '../test/test-app';
import { findPayoutOfOrder } from './payout.repository';
import {
  assertPayoutMove,
  canMovePayout,
  claimPayout,
  movePayout,
  PayoutMoveError,
  recordSettledPayout,
  replaceSettledOutput,
  type NewPayout,
} from './payout-state';

// The only moves a payout makes (docs/design.md, "Payouts claim the order first"); every other pair is refused.
const ALLOWED: [PayoutState, PayoutState][] = [
  ['requested', 'submitted'],
  ['requested', 'cancelled'],
  ['submitted', 'settled'],
  ['submitted', 'failed'],
  ['submitted', 'returned'],
  ['settled', 'returned'],
];
const isAllowed = (from: PayoutState, to: PayoutState) =>
  ALLOWED.some(([allowedFrom, allowedTo]) => allowedFrom === from && allowedTo === to);
const ALL_PAIRS = payoutStates.flatMap((from) => payoutStates.map((to) => [from, to] as const));
const REFUSED = ALL_PAIRS.filter(([from, to]) => !isAllowed(from, to));

describe('payout moves', () => {
  it.each(ALLOWED)('allows %s → %s', (from, to) => {
    expect(canMovePayout(from, to)).toBe(true);
    expect(() => assertPayoutMove(from, to)).not.toThrow();
  });

  it.each(REFUSED)('refuses %s → %s', (from, to) => {
    expect(canMovePayout(from, to)).toBe(false);
    expect(() => assertPayoutMove(from, to)).toThrow(PayoutMoveError);
  });

  it('ends a failed, returned or cancelled payout: paying again is a new row', () => {
    for (const end of ['failed', 'returned', 'cancelled'] as const) {
      expect(payoutStates.filter((to) => canMovePayout(end, to))).toEqual([]);
    }
  });
});

describe('payout rows', () => {
  const database = useTestDatabase(['payout.state@example.com']);
  let userId: string;
  beforeAll(() => {
    [userId] = database.userIds as [string];
  });

  async function newOrderId(): Promise<string> {
    const [order] = await database.db.insert(orders).values(newBuyOrderRow(userId, 10_000n)).returning();
    return order!.id;
  }

  const bitcoinPayout = (orderId: string): NewPayout => ({
    orderId,
    kind: 'btc',
    rail: 'onchain',
    sender: 'batch',
    address: 'tb1qexample',
    amountSats: 100_000n,
    createdBy: 'test',
  });

  /** A payout of a new order in `state`, written directly: the test sets the scene. */
  async function payoutIn(state: PayoutState): Promise<PayoutRow> {
    const orderId = await newOrderId();
    const result = state === 'requested' || state === 'submitted' ? {} : { reference: `ref-${orderId}` };
    const [row] = await database.db
      .insert(payouts)
      .values({ ...bitcoinPayout(orderId), state, ...result })
      .returning();
    return row!;
  }

  const stateOf = async (id: string) =>
    (await database.db.select().from(payouts).where(eq(payouts.id, id)))[0]?.state;

  let nextVout = 0;
  it.each(ALLOWED)('moves a %s payout to %s', async (from, to) => {
    const payout = await payoutIn(from);
    const result = to === 'settled' ? { txid: 'a'.repeat(64), vout: (nextVout += 1) } : undefined;
    const moved = await database.db.transaction((tx) => movePayout(tx, payout, to, result));
    expect(moved.state).toBe(to);
    if (to === 'settled') expect(moved).toMatchObject({ ...result, sentAt: expect.any(Date) });
  });

  it.each(REFUSED)('refuses to move a %s payout to %s and writes nothing', async (from, to) => {
    const payout = await payoutIn(from);
    await expect(
      database.db.transaction((tx) => movePayout(tx, payout, to, { reference: 'never' })),
    ).rejects.toThrow(PayoutMoveError);
    expect(await stateOf(payout.id)).toBe(from);
  });

  it('moves only from the state the caller read: a payout settled meanwhile is not settled again', async () => {
    const payout = await payoutIn('submitted');
    await database.db.transaction((tx) => movePayout(tx, payout, 'settled', { reference: 'first' }));
    await expect(
      database.db.transaction((tx) => movePayout(tx, payout, 'settled', { reference: 'second' })),
    ).rejects.toThrow(/no longer submitted/);
    expect((await database.db.select().from(payouts).where(eq(payouts.id, payout.id)))[0]?.reference).toBe(
      'first',
    );
  });

  it('settles only with a result', async () => {
    const payout = await payoutIn('submitted');
    await expect(database.db.transaction((tx) => movePayout(tx, payout, 'settled'))).rejects.toThrow(
      /needs its result/,
    );
  });

  it('claims one live payout per order and purpose; after a failed one, a new row', async () => {
    const orderId = await newOrderId();
    const first = await database.db.transaction((tx) => claimPayout(tx, bitcoinPayout(orderId)));
    expect(first.state).toBe('submitted');
    await expect(database.db.transaction((tx) => claimPayout(tx, bitcoinPayout(orderId)))).rejects.toThrow(
      AppError,
    );
    // A refund of the same order is another purpose.
    const refund = await database.db.transaction((tx) =>
      recordSettledPayout(
        tx,
        { ...bitcoinPayout(orderId), purpose: 'refund', sender: 'operator' },
        { txid: 'b'.repeat(64), vout: null },
      ),
    );
    expect(refund).toMatchObject({ purpose: 'refund', state: 'settled' });

    await database.db.transaction((tx) => movePayout(tx, first, 'failed'));
    expect(await findPayoutOfOrder(database.db, orderId)).toBeUndefined();
    const again = await database.db.transaction((tx) => claimPayout(tx, bitcoinPayout(orderId), 'requested'));
    expect(again.state).toBe('requested');
    expect((await findPayoutOfOrder(database.db, orderId))?.id).toBe(again.id);
  });

  it('after a returned payout (the money came back), a new row', async () => {
    const orderId = await newOrderId();
    const first = await database.db.transaction((tx) => claimPayout(tx, bitcoinPayout(orderId)));
    await database.db.transaction((tx) => movePayout(tx, first, 'returned'));
    expect(await findPayoutOfOrder(database.db, orderId)).toBeUndefined();
    const again = await database.db.transaction((tx) => claimPayout(tx, bitcoinPayout(orderId), 'requested'));
    expect((await findPayoutOfOrder(database.db, orderId))?.id).toBe(again.id);
  });

  it('refuses a second payout of one transaction output with the 409 staff read', async () => {
    const output = { txid: 'c'.repeat(64), vout: 3 };
    const first = await newOrderId();
    const second = await newOrderId();
    await database.db.transaction((tx) => recordSettledPayout(tx, bitcoinPayout(first), output));
    await expect(
      database.db.transaction((tx) => recordSettledPayout(tx, bitcoinPayout(second), output)),
    ).rejects.toThrow('This transaction output already pays another order. Check the txid and vout.');
  });

  it('lets a fee bump replace only a settled payout’s output', async () => {
    const settled = await payoutIn('settled');
    const bumped = await database.db.transaction((tx) =>
      replaceSettledOutput(tx, settled, { txid: 'd'.repeat(64), vout: 1 }),
    );
    expect(bumped).toMatchObject({ state: 'settled', txid: 'd'.repeat(64), vout: 1 });
    const inFlight = await payoutIn('submitted');
    await expect(
      database.db.transaction((tx) => replaceSettledOutput(tx, inFlight, { txid: 'e'.repeat(64), vout: 0 })),
    ).rejects.toThrow(PayoutMoveError);
  });
});
