import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../db/database';
import { orders } from '../db/schema';
import { windowStarts } from '../limits/trading-limits';
import { useTestDatabase } from '../test/test-app';
import { newBuyOrderRow, TEST_WALLET } from '../test/new-buy-order-row';
import { findTwinAndWindowUse } from './order-twins.repository';

// A save's checks (its double-submission twin, its limit windows) run under the customer's lock on every
// save, so what they read must follow that customer's own orders, never the whole platform's. Without
// statistics on `orders` (the embedded database never gathers them; PostgreSQL does when autovacuum
// analyses the table, and not at all where it is off) the planner joined every pending order of every
// customer into the twin check through the status index: in benchmark runs on PostgreSQL each save
// grew slower as the platform's pending orders grew, from 95 % of the bare route's rate in a run's first
// turn to 34 % in its eighth. The index on (status, user_id, created_at) that replaced it narrows any
// plan through the status to the customer's own rows.
const database = useTestDatabase(['save.reads.ada@example.com', 'save.reads.others@example.com']);
let ada: string;
let others: string;

const OTHERS_PENDING = 20_000;
const ADA_ORDERS = 4;

beforeAll(async () => {
  [ada, others] = database.userIds as [string, string];
  // Another customer's pending buys, all just made: the rows a plan through the status index reads.
  for (let start = 0; start < OTHERS_PENDING; start += 2_000) {
    const batch = Array.from({ length: 2_000 }, (_, i) => newBuyOrderRow(others, BigInt(10_000 + start + i)));
    await database.db.insert(orders).values(batch);
  }
  await database.db
    .insert(orders)
    .values(Array.from({ length: ADA_ORDERS }, (_, i) => newBuyOrderRow(ada, BigInt(20_000 + i))));
});

/** Rows of `orders` this transaction has read so far: index entries and table rows, every index. */
async function ordersRowsRead(tx: Transaction): Promise<number> {
  const result = await tx.execute(sql`
    select coalesce(sum(pg_stat_get_xact_tuples_returned(c.oid)), 0)::int as "read"
    from pg_class c
    where c.oid = 'orders'::regclass
       or c.oid in (select indexrelid from pg_index where indrelid = 'orders'::regclass)`);
  // Both drivers answer with the rows in `rows`; the transaction's type does not say which driver it is.
  return Number((result as { rows: { read: number }[] }).rows[0]?.read);
}

describe("a save's checks read the customer's own orders", () => {
  it('whatever the other customers have pending, run after run (the statement is prepared once)', async () => {
    const since = windowStarts(new Date());
    const readPerCheck: number[] = [];
    await database.db.transaction(async (tx) => {
      // More runs than PostgreSQL's five custom plans, so a generic plan of the statement is measured too.
      for (let run = 0; run < 8; run += 1) {
        const before = await ordersRowsRead(tx);
        const { twin, used } = await findTwinAndWindowUse(
          tx,
          {
            userId: ada,
            type: 'buy',
            amountSats: 100_000n,
            valueCents: BigInt(20_000 + (run % ADA_ORDERS)),
            walletAddress: TEST_WALLET,
            paymentMethod: null,
          },
          since,
        );
        readPerCheck.push((await ordersRowsRead(tx)) - before);
        // The check still finds the twin and adds up the windows: it reads less, not wrongly.
        expect(twin?.userId).toBe(ada);
        expect(used.day).toBe(BigInt(ADA_ORDERS * 20_000 + 6));
      }
    });
    // Ada's four orders, read once for the twin, once for each window's first day, and the twin's row
    // itself: a few dozen at most, where a plan through the status index reads the other 20,000.
    for (const read of readPerCheck) expect(read).toBeLessThan(50);
  });
});
