import type { Cents } from '@offzero/shared/money/money';
import type { PriceSnapshotRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { PRICES_UNAVAILABLE } from '../../prices/price-book';
import { findServedSnapshotsAt } from '../../prices/price-snapshot.repository';
import type { PricingDeps } from './priced-order';

/** How long after a price was served the server still honours a quote made from it (docs/design.md). */
export const QUOTE_PRICE_GRACE_MS = 2 * 60_000;

/**
 * The prices the customer may have been quoted: those the server served in the last two minutes at
 * exactly the rate the client sent (the sell rate for a buy, the buy rate for a sell), newest first.
 * Most orders are placed at the price being served now, which this process holds: it comes first, and
 * the stored snapshots are read only if the caller asks for more. Refuses to quote while prices are stale.
 */
export async function* servedPricesAt(
  deps: PricingDeps,
  side: 'sell' | 'buy',
  priceCents: Cents,
): AsyncGenerator<PriceSnapshotRow> {
  const current = deps.prices.current();
  if (deps.prices.isStale() || !current) throw new AppError('UNAVAILABLE', PRICES_UNAVAILABLE);
  const since = new Date(deps.now().getTime() - QUOTE_PRICE_GRACE_MS);
  const rateOf = (snapshot: PriceSnapshotRow) =>
    side === 'sell' ? snapshot.sellPriceCents : snapshot.buyPriceCents;
  const currentServed = rateOf(current) === priceCents && current.fetchedAt > since;
  if (currentServed) yield current;
  for (const snapshot of await findServedSnapshotsAt(deps.db, side, priceCents, since)) {
    if (!currentServed || snapshot.id !== current.id) yield snapshot;
  }
}

export async function firstServedPriceAt(
  deps: PricingDeps,
  side: 'sell' | 'buy',
  priceCents: Cents,
): Promise<PriceSnapshotRow | undefined> {
  for await (const snapshot of servedPricesAt(deps, side, priceCents)) return snapshot;
  return undefined;
}

/** The newest price, refused while it is stale (no quote from an old price). */
export function currentPrice(deps: Pick<PricingDeps, 'prices'>): PriceSnapshotRow {
  const snapshot = deps.prices.current();
  if (!snapshot || deps.prices.isStale()) throw new AppError('UNAVAILABLE', PRICES_UNAVAILABLE);
  return snapshot;
}
