import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { asc, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../config/server-paths';
import { readMigrationJournal } from '../db/pending-migrations';
import * as schema from '../db/schema';
import { newBuyOrderRow } from '../test/new-buy-order-row';

// The migration that gives payouts their own states folds the old rows in: `sending` → `submitted`,
// `sent` → `settled`, a rail and sender for each, and every returned sell's coins (btc_refunds) as a
// payout of purpose `refund`. Run on a database at the migration before it, with rows of the old shape.
const journal = readMigrationJournal();
const target = journal.findIndex((entry) => entry.tag.endsWith('_payout_states'));
const sqlOf = (tag: string) => readFileSync(path.join(migrationsFolder, `${tag}.sql`), 'utf8');

describe('payout states migration', () => {
  let client: PGlite;
  const db = () => drizzle({ client, schema });
  const ids = { buyDemo: '', buyManual: '', buyBatch: '', buyInFlight: '', sellZelle: '', sellWire: '' };
  const payoutIds = { demo: crypto.randomUUID(), inFlight: crypto.randomUUID() };
  const refundId = crypto.randomUUID();

  beforeAll(async () => {
    expect(target).toBeGreaterThan(0);
    client = await PGlite.create();
    for (const entry of journal.slice(0, target)) await client.exec(sqlOf(entry.tag));

    const [user] = await db().insert(schema.users).values({ email: 'migrate@example.com' }).returning();
    // Written in SQL with the columns orders had then: the schema of today may have more.
    const order = async (overrides: Parameters<typeof newBuyOrderRow>[2]) => {
      const row = newBuyOrderRow(user!.id, 10_000n, overrides);
      const inserted = await client.query<{ id: string }>(
        `insert into orders (user_id, type, amount_sats, value_cents, price_cents, platform_fee_cents,
           network_fee_cents, bank_fee_cents, quote_expires_at, wallet_address, payment_method)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning id`,
        [
          row.userId,
          row.type,
          row.amountSats,
          row.valueCents,
          row.priceCents,
          row.platformFeeCents,
          row.networkFeeCents,
          row.bankFeeCents,
          row.quoteExpiresAt,
          row.walletAddress,
          row.paymentMethod,
        ],
      );
      return inserted.rows[0]!.id;
    };
    ids.buyDemo = await order({});
    ids.buyManual = await order({});
    ids.buyBatch = await order({});
    ids.buyInFlight = await order({});
    ids.sellZelle = await order({ type: 'sell', paymentMethod: 'zelle', walletAddress: null });
    ids.sellWire = await order({ type: 'sell', paymentMethod: 'wire', walletAddress: null });
    const batchId = crypto.randomUUID();

    await client.query(
      `insert into payouts (id, order_id, kind, state, address, amount_sats, txid, vout, reference, batch_id, created_by)
       values
         ($1, $3, 'btc', 'sent', 'tb1qdemo', 100000, '${'1'.repeat(64)}', 0, null, null, 'admin:a'),
         (gen_random_uuid(), $4, 'btc', 'sent', 'tb1qmanual', 100000, '${'2'.repeat(64)}', 1, null, null, 'admin:a'),
         (gen_random_uuid(), $5, 'btc', 'sent', 'tb1qbatch', 100000, '${'3'.repeat(64)}', 2, null, $9, 'admin:a'),
         ($2, $6, 'btc', 'sending', 'tb1qflight', 100000, null, null, null, null, 'admin:a'),
         (gen_random_uuid(), $7, 'usd', 'sent', null, null, null, null, 'ZELLE-1', null, 'admin:a'),
         (gen_random_uuid(), $8, 'usd', 'sent', null, null, null, null, 'WIRE-1', null, 'admin:a')`,
      [
        payoutIds.demo,
        payoutIds.inFlight,
        ids.buyDemo,
        ids.buyManual,
        ids.buyBatch,
        ids.buyInFlight,
        ids.sellZelle,
        ids.sellWire,
        batchId,
      ],
    );
    // Demo-chain sends (settled, and one still in flight) put their payout in the timeline.
    for (const [orderId, payoutId] of [
      [ids.buyDemo, payoutIds.demo],
      [ids.buyInFlight, payoutIds.inFlight],
    ] as const) {
      await db()
        .insert(schema.orderEvents)
        .values({
          orderId,
          fromStatus: 'processing',
          toStatus: 'processing',
          actor: 'admin:a',
          reason: 'bitcoin payout in flight',
          details: { event: 'payout_started', payoutId, address: 'tb1q' },
        });
    }
    await client.query(
      `insert into btc_refunds (id, order_id, address, txid, refunded_by, created_at)
       values ($1, $2, 'tb1qreturn', '${'4'.repeat(64)}', 'admin:b', '2026-01-02T03:04:05Z')`,
      [refundId, ids.sellWire],
    );

    await client.exec(sqlOf(journal[target]!.tag));
  });

  afterAll(async () => {
    await client?.close();
  });

  it('moves every payout to its new state, with its rail, sender and purpose', async () => {
    const rows = await db().select().from(schema.payouts).orderBy(asc(schema.payouts.createdAt));
    const byOrder = (orderId: string, purpose = 'payout') =>
      rows.find((row) => row.orderId === orderId && row.purpose === purpose);
    expect(rows).toHaveLength(7);
    expect(byOrder(ids.buyDemo)).toMatchObject({ state: 'settled', rail: 'onchain', sender: 'demo-chain' });
    expect(byOrder(ids.buyManual)).toMatchObject({ state: 'settled', rail: 'onchain', sender: 'operator' });
    expect(byOrder(ids.buyBatch)).toMatchObject({ state: 'settled', rail: 'onchain', sender: 'batch' });
    expect(byOrder(ids.buyInFlight)).toMatchObject({
      state: 'submitted',
      rail: 'onchain',
      sender: 'demo-chain',
      txid: null,
    });
    expect(byOrder(ids.sellZelle)).toMatchObject({ state: 'settled', rail: 'zelle', sender: 'operator' });
    expect(byOrder(ids.sellWire)).toMatchObject({ state: 'settled', rail: 'wire', reference: 'WIRE-1' });
  });

  it('keeps every returned sell’s coins as a settled refund payout, and drops the old table', async () => {
    const rows = await db().select().from(schema.payouts);
    expect(rows.find((row) => row.purpose === 'refund')).toEqual(
      expect.objectContaining({
        id: refundId,
        orderId: ids.sellWire,
        kind: 'btc',
        state: 'settled',
        rail: 'onchain',
        sender: 'operator',
        address: 'tb1qreturn',
        txid: '4'.repeat(64),
        vout: null,
        createdBy: 'admin:b',
        createdAt: new Date('2026-01-02T03:04:05Z'),
        sentAt: new Date('2026-01-02T03:04:05Z'),
      }),
    );
    const tables = await db().execute<{ name: string | null }>(
      sql`select to_regclass('btc_refunds') as name`,
    );
    expect(tables.rows[0]?.name).toBeNull();
  });
});
