import { and, desc, eq, gt } from 'drizzle-orm';
import { builtOnce, param } from '../http/fast-paths/built-once';
import type { Database, Transaction } from '../db/database';
import { priceSnapshots, type PriceSnapshotRow } from '../db/schema';
import type { PriceSnapshot } from './price-service';

/** Every price the server served is stored, so any process can check a quote against it later. */
export async function insertPriceSnapshot(db: Database, snapshot: PriceSnapshot): Promise<PriceSnapshotRow> {
  const [row] = await db
    .insert(priceSnapshots)
    .values({
      sellPriceCents: snapshot.sellPriceCents,
      buyPriceCents: snapshot.buyPriceCents,
      networkFeeSats: snapshot.networkFeeSats,
      source: snapshot.source,
      fetchedAt: snapshot.fetchedAt,
    })
    .returning();
  if (!row) throw new Error('price snapshot insert returned nothing');
  return row;
}

/**
 * The snapshots served since `since` whose rate on `side` is exactly `priceCents`, newest first:
 * `sell` is the platform's sell price (customers buy at it), `buy` its buy price (customers sell at it).
 * Read by every save quoted from an earlier price than the one served now, so built once
 * (http/fast-paths/built-once.ts).
 */
export async function findServedSnapshotsAt(
  db: Database | Transaction,
  side: 'sell' | 'buy',
  priceCents: bigint,
  since: Date,
): Promise<PriceSnapshotRow[]> {
  return servedSnapshotsAt[side](db, { priceCents, since });
}

function servedSnapshotsSelect(db: Database | Transaction, side: 'sell' | 'buy') {
  const column = side === 'sell' ? priceSnapshots.sellPriceCents : priceSnapshots.buyPriceCents;
  return db
    .select()
    .from(priceSnapshots)
    .where(and(eq(column, param('priceCents')), gt(priceSnapshots.fetchedAt, param('since'))))
    .orderBy(desc(priceSnapshots.fetchedAt));
}

const servedSnapshotsAt = {
  sell: builtOnce<PriceSnapshotRow>((db) => servedSnapshotsSelect(db, 'sell')),
  buy: builtOnce<PriceSnapshotRow>((db) => servedSnapshotsSelect(db, 'buy')),
};

/** The newest stored snapshot, whichever process fetched it. */
export async function findNewestPriceSnapshot(db: Database): Promise<PriceSnapshotRow | null> {
  const [row] = await db.select().from(priceSnapshots).orderBy(desc(priceSnapshots.fetchedAt)).limit(1);
  return row ?? null;
}
