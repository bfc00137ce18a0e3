import type { PriceResponse } from '@offzero/shared/api/orders';
import { centsToUsdNumber, satsToBtcNumber } from '@offzero/shared/money/money';
import { AppError } from '../http/errors';
import { PRICES_UNAVAILABLE, type PriceBook } from './price-book';

/**
 * The platform's prices as customers see them (docs/design.md): `sellPrice` is what customers
 * buy at, `buyPrice` what they sell at; `networkFee` is one buy payout's estimated fee in BTC. Before
 * the first price arrives there is nothing to show (503).
 */
export function getCurrentPrice(prices: PriceBook): PriceResponse {
  const snapshot = prices.current();
  if (!snapshot) throw new AppError('UNAVAILABLE', PRICES_UNAVAILABLE);
  return {
    buyPrice: centsToUsdNumber(snapshot.buyPriceCents),
    sellPrice: centsToUsdNumber(snapshot.sellPriceCents),
    networkFee: satsToBtcNumber(snapshot.networkFeeSats),
    updatedAt: snapshot.fetchedAt.toISOString(),
    source: snapshot.source,
    stale: prices.isStale(),
  };
}
