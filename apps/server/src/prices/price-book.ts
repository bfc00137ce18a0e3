import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import type { PriceSnapshotRow } from '../db/schema';
import { createPriceService, DEFAULT_STALE_AFTER_MS, type PriceSnapshot } from './price-service';
import type { PriceSource } from './price-source';
import { findNewestPriceSnapshot, insertPriceSnapshot } from './price-snapshot.repository';

/** Prices the server has served: the newest, and whether it is too old to quote from. */
export interface PriceBook {
  current(): PriceSnapshotRow | null;
  isStale(): boolean;
}

export const PRICES_UNAVAILABLE =
  'Live prices are unavailable right now, so we cannot quote. Try again in a few minutes.';

/** How often every process reads the newest stored price (the price-refresh job fetches new ones). */
export const PRICE_FOLLOW_INTERVAL_MS = 2_000;

/**
 * The prices this server quotes from. Only the price-refresh job fetches from the providers
 * (`refresh`), once per period across all processes; every fetched price is stored, and every process
 * follows the newest stored one (`follow`), so an order placed on any process can be checked against
 * exactly the price the customer was shown.
 */
export function createPriceBook(deps: {
  db: Database;
  sources: PriceSource[];
  feeRate: () => Promise<number>;
  log: FastifyBaseLogger;
  now?: () => Date;
}): PriceBook & {
  /** Fetches from the providers and stores the snapshot; throws when every source failed. */
  refresh(): Promise<void>;
  /** Reads the newest stored snapshot. */
  reload(): Promise<void>;
  /** Reloads every `intervalMs` until `stop()`. */
  follow(intervalMs?: number): void;
  stop(): void;
} {
  const now = deps.now ?? (() => new Date());
  // Read on every price request: the clock as a number, without a Date when none was injected.
  const nowMs = deps.now ? () => now().getTime() : Date.now;
  let current: PriceSnapshotRow | null = null;
  let timer: NodeJS.Timeout | null = null;
  const adopt = (row: PriceSnapshotRow | null) => {
    if (row && (!current || row.fetchedAt.getTime() >= current.fetchedAt.getTime())) current = row;
  };
  const service = createPriceService({
    sources: deps.sources,
    feeRate: deps.feeRate,
    log: deps.log,
    now,
    onSnapshot: async (snapshot: PriceSnapshot) => {
      adopt(await insertPriceSnapshot(deps.db, snapshot));
    },
  });
  const reload = async () => {
    adopt(await findNewestPriceSnapshot(deps.db));
  };
  return {
    current: () => current,
    isStale: () => !current || nowMs() - current.fetchedAt.getTime() > DEFAULT_STALE_AFTER_MS,
    refresh: async () => {
      const snapshot = await service.refresh();
      if (!snapshot) throw new Error('Every price source failed; the last prices are kept.');
    },
    reload,
    follow(intervalMs = PRICE_FOLLOW_INTERVAL_MS) {
      if (timer) return;
      timer = setInterval(() => {
        reload().catch((error: unknown) => deps.log.warn({ err: error }, 'could not read the newest price'));
      }, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
