import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { destinationKey, ordersPaying } from './destination-payments.repository';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/**
 * The database's plan for the query with reading a whole table priced out of reach: an index that can
 * answer it is then used, and only a query no index answers still reads the table.
 */
async function planOf(query: SQL): Promise<string> {
  return t.database.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    const result: unknown = await tx.execute(sql`explain ${query}`);
    return (result as { rows: Record<string, string>[] }).rows.map((row) => Object.values(row)[0]).join('\n');
  });
}

const keysOf = (...keys: string[]) =>
  sql.join(
    keys.map((key) => sql`(${key}::text)`),
    sql`, `,
  );

describe('who else paid a destination', () => {
  it('looks an address and a bank account number each up in its own index, not the whole orders table', async () => {
    const address = await planOf(
      ordersPaying(
        keysOf(destinationKey({ kind: 'address', value: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx' })),
      ),
    );
    expect(address).toMatch(/orders_buy_destination_idx[\s\S]*?Index Cond: \(lower\(wallet_address\) =/);
    const account = await planOf(
      ordersPaying(keysOf(destinationKey({ kind: 'bank_account', value: '444433332222' }))),
    );
    expect(account).toMatch(/orders_sell_bank_account_idx[\s\S]*?Index Cond: \(regexp_replace\(/);
    for (const plan of [address, account]) expect(plan).not.toMatch(/Seq Scan on orders/);
  });
});
