import {
  checkExchangeQuote,
  DEFAULT_PRICE_TIMEOUT_MS,
  fetchFeedJson,
  parseExchangePrice,
  PriceSourceError,
  type PriceSource,
} from './price-source';

export interface KrakenPriceSourceOptions {
  baseUrl?: string;
  /** How long the request may take, body included. */
  timeoutMs?: number;
}

/** Kraken names the XBTUSD pair this way in its answers. */
const PAIR_KEY = 'XXBTZUSD';

/**
 * Kraken's public ticker, the fallback feed: `GET /0/public/Ticker?pair=XBTUSD` answering
 * `{ "error": [], "result": { "XXBTZUSD": { "a": [ask, …], "b": [bid, …], … } } }`. The ask is the
 * exchange's buy price (rounded up to the cent), the bid its sell price (rounded down). Kraken reports
 * failures, rate limits included, as a non-empty `error` array, often with HTTP 200.
 */
export function createKrakenPriceSource(options: KrakenPriceSourceOptions = {}): PriceSource {
  const baseUrl = (options.baseUrl ?? 'https://api.kraken.com').replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_PRICE_TIMEOUT_MS;
  const name = 'kraken';

  return {
    name,
    async fetchQuote() {
      const json = await fetchFeedJson(name, `${baseUrl}/0/public/Ticker?pair=XBTUSD`, timeoutMs);
      if (!json || typeof json !== 'object')
        throw new PriceSourceError(`${name}: the answer is not an object`);
      const { error, result } = json as { error?: unknown; result?: unknown };
      if (!Array.isArray(error)) throw new PriceSourceError(`${name}: the answer has no error list`);
      if (error.length > 0) {
        throw new PriceSourceError(`${name} reported: ${error.map((item) => String(item)).join('; ')}`);
      }
      const ticker = (result as Record<string, unknown> | null | undefined)?.[PAIR_KEY];
      if (!ticker || typeof ticker !== 'object') {
        throw new PriceSourceError(`${name}: the answer has no ${PAIR_KEY} ticker`);
      }
      const { a: ask, b: bid } = ticker as { a?: unknown; b?: unknown };
      if (!Array.isArray(ask) || !Array.isArray(bid)) {
        throw new PriceSourceError(`${name}: the ticker has no ask or bid`);
      }
      return checkExchangeQuote(name, {
        exchangeBuyCents: parseExchangePrice(name, 'ask', ask[0], 'up'),
        exchangeSellCents: parseExchangePrice(name, 'bid', bid[0], 'down'),
      });
    },
  };
}
