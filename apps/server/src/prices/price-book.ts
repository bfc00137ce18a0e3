import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import { priceSnapshots, type PriceSnapshotRow } from '../db/schema';
import type { PriceBook } from '../orders/order.service';
import { createPriceService, type PriceSnapshot } from './price-service';
import type { PriceSource } from './price-source';

/**
 * The prices this server quotes from. Every fetched price is stored, so an order placed on any server
 * process can be checked against exactly the price the customer was shown.
 */
export function createPriceBook(deps: {
  db: Database;
  sources: PriceSource[];
  feeRate: () => Promise<number>;
  log: FastifyBaseLogger;
}): PriceBook & { refresh(): Promise<void>; start(intervalMs?: number): void; stop(): void } {
  let current: PriceSnapshotRow | null = null;
  const service = createPriceService({
    sources: deps.sources,
    feeRate: deps.feeRate,
    log: deps.log,
    onSnapshot: async (snapshot: PriceSnapshot) => {
      const [row] = await deps.db
        .insert(priceSnapshots)
        .values({
          sellPriceCents: snapshot.sellPriceCents,
          buyPriceCents: snapshot.buyPriceCents,
          networkFeeSats: snapshot.networkFeeSats,
          source: snapshot.source,
          fetchedAt: snapshot.fetchedAt,
        })
        .returning();
      if (row) current = row;
    },
  });
  return {
    current: () => current,
    isStale: () => service.isStale(),
    refresh: async () => {
      await service.refresh();
    },
    start: (intervalMs) => service.start(intervalMs),
    stop: () => service.stop(),
  };
}
