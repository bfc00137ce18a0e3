import { priceResponseSchema } from '@offzero/shared/api/orders';
import { btcNumberToSats, usdNumberToCents, type Cents, type Sats } from '@offzero/shared/money/money';
import { apiGet, isAbortError } from '../../../lib/api-client';

/** The platform's prices as integers: customers buy at `sellPriceCents` and sell at `buyPriceCents`. */
export interface Prices {
  buyPriceCents: Cents;
  sellPriceCents: Cents;
  /** One buy payout's estimated network fee. */
  networkFeeSats: Sats;
  updatedAt: string;
  /** The server's price is too old to quote from; it will refuse orders until it is fresh. */
  stale: boolean;
}

export const priceQueryKey = ['price'] as const;
export const PRICE_REFRESH_MS = 60_000;

/** `GET /api/price` (docs/design.md: the client quotes from the server's prices, not Coinbase's). */
export async function getPrices(signal?: AbortSignal): Promise<Prices> {
  try {
    const answer = await apiGet('/price', { schema: priceResponseSchema, signal });
    return {
      buyPriceCents: usdNumberToCents(answer.buyPrice),
      sellPriceCents: usdNumberToCents(answer.sellPrice),
      networkFeeSats: btcNumberToSats(answer.networkFee),
      updatedAt: answer.updatedAt,
      stale: answer.stale,
    };
  } catch (error) {
    // Logged, nothing shown.
    if (!isAbortError(error)) console.error('Error fetching Bitcoin prices', error);
    throw error;
  }
}
