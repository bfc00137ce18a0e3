import type { Cents } from '@offzero/shared/money/money';
import {
  checkExchangeQuote,
  DEFAULT_PRICE_TIMEOUT_MS,
  fetchFeedJson,
  parseExchangePrice,
  PriceSourceError,
  type PriceSource,
} from './price-source';

export interface CoinbasePriceSourceOptions {
  baseUrl?: string;
  /** How long each request may take, body included. */
  timeoutMs?: number;
}

/**
 * Coinbase's public spot prices: `GET /v2/prices/BTC-USD/buy` and `/v2/prices/BTC-USD/sell`, each
 * answering `{ "data": { "amount": "67321.55", "base": "BTC", "currency": "USD" } }`. The amount is read
 * as decimal text, never as a float; finer than a cent, the buy price is rounded up and the sell price
 * down (see `parseExchangePrice`).
 */
export function createCoinbasePriceSource(options: CoinbasePriceSourceOptions = {}): PriceSource {
  const baseUrl = (options.baseUrl ?? 'https://api.coinbase.com').replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_PRICE_TIMEOUT_MS;
  const name = 'coinbase';

  async function price(side: 'buy' | 'sell'): Promise<Cents> {
    const json = await fetchFeedJson(name, `${baseUrl}/v2/prices/BTC-USD/${side}`, timeoutMs);
    const data = (json as { data?: unknown } | null)?.data;
    if (!data || typeof data !== 'object') {
      throw new PriceSourceError(`${name}: the ${side} answer has no data object`);
    }
    const { amount, base, currency } = data as { amount?: unknown; base?: unknown; currency?: unknown };
    if (base !== undefined && base !== 'BTC') {
      throw new PriceSourceError(`${name}: the ${side} price is for ${JSON.stringify(base)}, not BTC`);
    }
    if (currency !== undefined && currency !== 'USD') {
      throw new PriceSourceError(`${name}: the ${side} price is in ${JSON.stringify(currency)}, not USD`);
    }
    return parseExchangePrice(name, side, amount, side === 'buy' ? 'up' : 'down');
  }

  return {
    name,
    async fetchQuote() {
      const [exchangeBuyCents, exchangeSellCents] = await Promise.all([price('buy'), price('sell')]);
      return checkExchangeQuote(name, { exchangeBuyCents, exchangeSellCents });
    },
  };
}
