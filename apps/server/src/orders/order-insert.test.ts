import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../test/test-app';
import { orderEvents, orders } from '../db/schema';
import { insertOrderCreated, type NewOrder } from './order-save.repository';
import { newBuyOrderRow } from '../test/new-buy-order-row';

// The order insert is built once and run again with new values (http/fast-paths/built-once.ts): every kind of value
// must reach its column as the query builder would have written it, on both databases.
const database = useTestDatabase(['insert.once@example.com']);
let userId: string;

beforeAll(() => {
  [userId] = database.userIds as [string];
});

const buy = (valueCents: bigint): NewOrder =>
  newBuyOrderRow(userId, valueCents, {
    amountSats: 2_100_000_000_000_000n,
    quoteExpiresAt: new Date('2026-11-23T10:00:00.123Z'),
  });

describe('insertOrderCreated', () => {
  it('writes the order and its "order created" event, the same way on every call', async () => {
    const first = await database.db.transaction((tx) => insertOrderCreated(tx, buy(10_000n), 'user:first'));
    const second = await database.db.transaction((tx) => insertOrderCreated(tx, buy(10_001n), 'user:second'));

    for (const [order, valueCents, actor] of [
      [first, 10_000n, 'user:first'],
      [second, 10_001n, 'user:second'],
    ] as const) {
      expect(order).toMatchObject({
        status: 'pending',
        pair: 'BTC-USD',
        valueCents,
        amountSats: 2_100_000_000_000_000n,
        quoteExpiresAt: new Date('2026-11-23T10:00:00.123Z'),
        receivingDetails: null,
        depositIndex: null,
      });
      const [stored] = await database.db.select().from(orders).where(eq(orders.id, order.id));
      expect(stored).toEqual(order);
      const events = await database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
      expect(events).toMatchObject([
        { fromStatus: null, toStatus: 'pending', actor, reason: 'order created' },
      ]);
    }
    // A missing JSON value is SQL NULL, not the JSON value null.
    const withoutDetails = await database.db
      .select({ id: orders.id })
      .from(orders)
      .where(sql`${orders.receivingDetails} is null`);
    expect(withoutDetails).toHaveLength(2);
  });

  it('writes a sell’s receiving details as JSON and its deposit index', async () => {
    const details = { method: 'zelle', email: 'me@example.com' };
    const sell = await database.db.transaction((tx) =>
      insertOrderCreated(
        tx,
        {
          ...buy(20_000n),
          type: 'sell',
          walletAddress: 'tb1qdeposit',
          depositIndex: 7,
          paymentMethod: 'zelle',
          receivingDetails: details,
        },
        'user:seller',
      ),
    );
    const [stored] = await database.db.select().from(orders).where(eq(orders.id, sell.id));
    expect(stored).toMatchObject({
      type: 'sell',
      depositIndex: 7,
      paymentMethod: 'zelle',
      receivingDetails: details,
    });
  });

  it('writes nothing when the transaction fails after it', async () => {
    const failing = database.db.transaction(async (tx) => {
      await insertOrderCreated(tx, buy(30_000n), 'user:rolled-back');
      throw new Error('refused after the insert');
    });
    await expect(failing).rejects.toThrow('refused after the insert');
    const left = await database.db.select().from(orders).where(eq(orders.valueCents, 30_000n));
    const events = await database.db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.actor, 'user:rolled-back'));
    expect(left).toEqual([]);
    expect(events).toEqual([]);
  });
});

describe('a statement built once', () => {
  it('is a named prepared statement on PostgreSQL, which the connection keeps for the next call', async () => {
    const prepared = () =>
      database.db.transaction(async (tx) => {
        await insertOrderCreated(tx, buy(30_000n), 'user:prepared');
        // Same transaction, same connection: the statements this connection keeps, and how often each ran.
        const kept: unknown = await tx.execute(
          sql`select name, generic_plans + custom_plans as calls from pg_prepared_statements where name like 'offzero_built_once_%'`,
        );
        return (kept as { rows: { name: string; calls: string }[] }).rows;
      });
    if (database.kind === 'embedded') {
      // The embedded database keeps every statement it runs again by its text (http/fast-paths/embedded-named-statements.ts).
      for (const value of [30_000n, 30_001n]) {
        await database.db.transaction((tx) => insertOrderCreated(tx, buy(value), 'user:prepared'));
      }
      const kept: unknown = await database.db.execute(
        sql`select statement from pg_prepared_statements where name like 'offzero_kept_%'`,
      );
      const texts = (kept as { rows: { statement: string }[] }).rows.map((row) => row.statement);
      expect(texts.some((text) => text.startsWith('with') && text.includes('insert into "orders"'))).toBe(
        true,
      );
      return;
    }
    const first = await prepared();
    expect(first.length).toBeGreaterThan(0);
    expect(Number(first[0]!.calls)).toBeGreaterThanOrEqual(1);
  });
});
