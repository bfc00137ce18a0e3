/**
 * Who else paid a destination (docs/design.md, transaction monitoring): the orders paying a bitcoin
 * address or a bank account number, found by the destination's own index however many orders there are.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/database';
import { BANK_ACCOUNT_PAYOUT_RAILS } from './monitoring-rules';

/** An order paying a destination (a bitcoin address or a bank account number). */
export interface DestinationPayment {
  userId: string;
  orderId: string;
  at: Date;
}

/** How many other customers' orders paying the same destination a case shows. */
export const SHARED_DESTINATION_SHOWN = 20;

/** The bank-account payout rails as an SQL list (registry ids, quoted all the same; `null` for none). */
const bankAccountRailsSql =
  BANK_ACCOUNT_PAYOUT_RAILS.map((id) => `'${id.replaceAll("'", "''")}'`).join(', ') || 'null';

// Each kind's prefix, as `destinationKey` writes it.
const ADDRESS_KEY = destinationKey({ kind: 'address', value: '' });
const BANK_ACCOUNT_KEY = destinationKey({ kind: 'bank_account', value: '' });

/**
 * The orders paying each destination of `d(key)`, as `destinationKey` spells it: buys by their
 * address, sells to a bank account by its number (spaces removed). Each kind is its own branch, read
 * from its own expression index (orders.ts), so a destination reads its orders, not the whole table.
 */
export function ordersPaying(keys: SQL): SQL {
  const rails = sql.raw(bankAccountRailsSql);
  // The expressions are written as the indexes are, literals inline, so the planner matches them.
  return sql`select d.key, o.user_id, o.id, o.created_at
      from (values ${keys}) as d(key)
      join orders o on o.type = 'buy' and lower(o.wallet_address) = substr(d.key, ${sql.raw(String(ADDRESS_KEY.length + 1))})
      where d.key like ${sql.raw(`'${ADDRESS_KEY}%'`)}
    union all
    select d.key, o.user_id, o.id, o.created_at
      from (values ${keys}) as d(key)
      join orders o on o.type = 'sell' and o.payment_method in (${rails})
        and regexp_replace(o.receiving_details ->> 'account_number', '\\s', '', 'g')
          = substr(d.key, ${sql.raw(String(BANK_ACCOUNT_KEY.length + 1))})
      where d.key like ${sql.raw(`'${BANK_ACCOUNT_KEY}%'`)}`;
}

/** The key of a destination (`destinationOf`) that `findFirstPaymentsTo` answers by. */
export function destinationKey(destination: { kind: 'address' | 'bank_account'; value: string }): string {
  return `${destination.kind}:${destination.value}`;
}

/**
 * For each destination, the first orders paying it, oldest first: each customer's first
 * `SHARED_DESTINATION_SHOWN`, and of those the first twice that many. Enough to find, for any one
 * customer, the first `SHARED_DESTINATION_SHOWN` orders of the others; one scan for a whole batch.
 */
export async function findFirstPaymentsTo(
  db: Database,
  destinationKeys: readonly string[],
): Promise<Map<string, DestinationPayment[]>> {
  const found = new Map<string, DestinationPayment[]>();
  if (destinationKeys.length === 0) return found;
  const keys = sql.join(
    destinationKeys.map((key) => sql`(${key}::text)`),
    sql`, `,
  );
  const result: unknown = await db.execute(sql`
    select key, user_id as "userId", id as "orderId",
           floor(extract(epoch from created_at) * 1000)::float8 as "atMs"
    from (
      select key, user_id, id, created_at,
             row_number() over (partition by key order by created_at, id) as nth
      from (
        select key, user_id, id, created_at,
               row_number() over (partition by key, user_id order by created_at, id) as nth_of_customer
        from (${ordersPaying(keys)}) as paying
      ) as per_customer
      where nth_of_customer <= ${SHARED_DESTINATION_SHOWN}
    ) as firsts
    where nth <= ${2 * SHARED_DESTINATION_SHOWN}
    order by key, nth`);
  const rows = (result as { rows: { key: string; userId: string; orderId: string; atMs: number }[] }).rows;
  for (const row of rows) {
    const list = found.get(row.key) ?? [];
    list.push({ userId: row.userId, orderId: row.orderId, at: new Date(Number(row.atMs)) });
    found.set(row.key, list);
  }
  return found;
}
