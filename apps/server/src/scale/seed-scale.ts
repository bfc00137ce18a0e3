/**
 * Fills a database with a year of a busy service (docs/performance.md, "At scale"): N customers and
 * M orders of every type, status and rail, with what hangs off them. The database generates the rows
 * itself (`insert … select` over `generate_series`, values from a seeded hash), so 1,000,000 orders
 * take minutes, and the same seed gives the same rows. Runs on PostgreSQL and on the embedded database.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/database';
import { casesAndPlansStatements, customerStatements, type SeedShape } from './seed-customers';
import {
  creditAndTravelRuleStatements,
  depositStatement,
  orderStatement,
  payoutStatement,
  timelineStatement,
} from './seed-orders';
import { seededId } from './seed-sql';
import { withIndexesDeferred } from './deferred-indexes';

export type { SeedShape };
export { seedEmailDomain } from './seed-customers';

/** Orders written per round of statements: big enough to be fast, small enough to show progress. */
const ORDERS_PER_ROUND = 50_000;

/** The tables the orders' rounds fill, whose secondary indexes are built once after them. */
export const ORDER_TABLES = [
  'orders',
  'order_events',
  'payouts',
  'deposits',
  'bank_inbound_credits',
  'travel_rule_records',
] as const;

async function run(db: Database, text: string): Promise<void> {
  await db.execute(sql.raw(text));
}

/**
 * Writes the seed's rows. A round of orders is written in one transaction with the per-row triggers off
 * (`session_replication_role = replica`: the foreign-key checks and the trigger that keeps
 * `order_value_days`): the statements point only at rows the seed wrote before, and the round's day
 * sums are added in one statement, the same totals the trigger would have kept. Needs a superuser, as
 * a seed of a scratch database has.
 */
export async function seedScale(
  db: Database,
  shape: SeedShape,
  progress: (message: string) => void = () => undefined,
): Promise<void> {
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  for (const statement of customerStatements(shape)) await run(db, statement);
  // Statistics after each bulk insert that later statements join to, so the joins are planned for the
  // rows that are there (a freshly filled table reads as empty and gets a nested loop over all of it).
  await run(db, 'analyze users, kyc_records, bank_account_numbers');
  progress(`${shape.customers} customers with KYC, settings, payout addresses, W-9s (${elapsed()})`);
  for (const statement of casesAndPlansStatements(shape)) await run(db, statement);
  progress(`cases, plans and their runs (${elapsed()})`);
  const built = await withIndexesDeferred(
    db,
    ORDER_TABLES,
    () => seedOrders(db, shape, (message) => progress(`${message} (${elapsed()})`)),
    (message) => progress(`${message} (${elapsed()})`),
  );
  progress(`${built} indexes of the orders' tables built (${elapsed()})`);
  // As a year-old database is: vacuumed (the visibility map set, so index-only scans skip the table,
  // and each row's commit recorded, so the first reads do not write) and analyzed (a million new rows
  // would otherwise be planned as an empty table). Left to autovacuum, both would happen in the middle
  // of whatever is measured next.
  await run(db, 'vacuum (analyze)');
  progress(`vacuumed and analyzed (${elapsed()})`);
}

/** The orders, a round of them per transaction, with what hangs off each. */
async function seedOrders(db: Database, shape: SeedShape, progress: (message: string) => void) {
  for (let from = 1; from <= shape.orders; from += ORDERS_PER_ROUND) {
    const to = Math.min(shape.orders, from + ORDERS_PER_ROUND - 1);
    await db.transaction(async (tx) => {
      const txDb = tx as unknown as Database;
      await run(txDb, 'set local session_replication_role = replica');
      for (const statement of [
        orderStatement(shape, from, to),
        'analyze orders',
        valueDaysStatement(shape.seed, from, to),
        timelineStatement(shape.seed, from, to),
        payoutStatement(shape.seed, from, to),
        depositStatement(shape.seed, from, to),
        ...creditAndTravelRuleStatements(shape.seed, from, to),
      ]) {
        await run(txDb, statement);
      }
    });
    progress(`orders ${from}–${to} with their timelines, payouts, deposits, credits`);
  }
}

/** The range's counted orders (not expired or cancelled) added to each customer's day sums. */
function valueDaysStatement(seed: number, from: number, to: number): string {
  return `insert into order_value_days (user_id, day, value_cents)
    select o.user_id, (o.created_at at time zone 'UTC')::date, sum(o.value_cents)
    from generate_series(${from}, ${to}) as j join orders o on o.id = ${seededId(seed, 'o', 'j')}
    where o.status not in ('expired', 'cancelled')
    group by 1, 2
    on conflict (user_id, day) do update set value_cents = order_value_days.value_cents + excluded.value_cents`;
}
