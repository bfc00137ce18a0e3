import type { Cents } from '@offzero/shared/money/money';

/**
 * An exchange's BTC-USD price, from the exchange's side: `exchangeBuyCents` is what one pays there for a
 * bitcoin (the ask, the higher price), `exchangeSellCents` what one gets there for one (the bid).
 * Both in cents per BTC.
 */
export interface ExchangeQuote {
  exchangeBuyCents: Cents;
  exchangeSellCents: Cents;
}

/** One interface for price feeds: Coinbase, Kraken as its fallback, and a random walk in demo. */
export interface PriceSource {
  name: string;
  /** Throws `PriceSourceError` when the feed is unreachable, slow, or answers anything doubtful. */
  fetchQuote(): Promise<ExchangeQuote>;
}

export class PriceSourceError extends Error {
  override name = 'PriceSourceError';
}

/** Anything outside $100 … $10,000,000 per BTC is a broken feed, not a market. */
export const MIN_PLAUSIBLE_PRICE_CENTS: Cents = 10_000n;
export const MAX_PLAUSIBLE_PRICE_CENTS: Cents = 1_000_000_000n;

export const DEFAULT_PRICE_TIMEOUT_MS = 5_000;

// Digits, optionally a point and more digits: no sign, exponent, grouping or spaces.
const PLAIN_DECIMAL = /^([0-9]+)(?:\.([0-9]+))?$/;
const MAX_PRICE_TEXT_LENGTH = 32;

/**
 * A feed's decimal price text in whole cents. Feeds may quote finer than a cent (Kraken uses five
 * decimals); the rest is rounded `up` or `down` as the caller says, so that rounding never narrows the
 * spread: the ask goes up, the bid goes down, and the platform never quotes a better price than the
 * exchange actually offers. Refuses anything but plain decimal text, and implausible prices.
 */
export function parseExchangePrice(
  source: string,
  label: string,
  text: unknown,
  rounding: 'up' | 'down',
): Cents {
  const match =
    typeof text === 'string' && text.length <= MAX_PRICE_TEXT_LENGTH ? PLAIN_DECIMAL.exec(text) : null;
  if (!match) {
    throw new PriceSourceError(`${source}: the ${label} price is not a plain decimal (${describe(text)})`);
  }
  const [decimal, whole = '', fraction = ''] = match;
  let cents = BigInt(whole + fraction.slice(0, 2).padEnd(2, '0'));
  if (rounding === 'up' && /[1-9]/.test(fraction.slice(2))) cents += 1n;
  if (cents <= 0n) throw new PriceSourceError(`${source}: the ${label} price is not positive (${decimal})`);
  if (cents < MIN_PLAUSIBLE_PRICE_CENTS || cents > MAX_PLAUSIBLE_PRICE_CENTS) {
    throw new PriceSourceError(`${source}: the ${label} price ${decimal} USD is implausible`);
  }
  return cents;
}

/** Checks a quote from any source: plausible prices, and the exchange's buy price not below its sell price. */
export function checkExchangeQuote(source: string, quote: ExchangeQuote): ExchangeQuote {
  const { exchangeBuyCents: buy, exchangeSellCents: sell } = quote;
  for (const [label, cents] of [
    ['buy', buy],
    ['sell', sell],
  ] as const) {
    if (typeof cents !== 'bigint' || cents < MIN_PLAUSIBLE_PRICE_CENTS || cents > MAX_PLAUSIBLE_PRICE_CENTS) {
      throw new PriceSourceError(`${source}: the ${label} price ${describe(cents)} cents is implausible`);
    }
  }
  if (buy < sell) {
    throw new PriceSourceError(`${source}: the buy price ${buy} is below the sell price ${sell} (cents)`);
  }
  return quote;
}

/**
 * GETs JSON from a feed. Network failures, timeouts, HTTP errors and bodies that are not JSON all become
 * `PriceSourceError`. The timeout covers reading the body as well as the headers.
 */
export async function fetchFeedJson(source: string, url: string, timeoutMs: number): Promise<unknown> {
  let response: Response;
  let body: string;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    body = await response.text();
  } catch (error) {
    const reason =
      error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
        ? `no answer within ${timeoutMs} ms`
        : error instanceof Error
          ? error.message
          : String(error);
    throw new PriceSourceError(`${source} is unreachable: ${reason}`);
  }
  if (!response.ok) throw new PriceSourceError(`${source} answered HTTP ${response.status}`);
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new PriceSourceError(`${source} answered something that is not JSON`);
  }
}

/** A short, log-safe description of an unexpected value. */
function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}
