import type { Cents, Sats } from '@offzero/shared/money/money';
import { DEFAULT_PAYOUT_VBYTES, networkFeeSatsFor } from '@offzero/shared/quotes/quote';
import { checkExchangeQuote, type ExchangeQuote, type PriceSource } from './price-source';

/**
 * The prices the platform quotes from, named from the platform's side (docs/design.md), which is
 * the other way round from the exchange's: the platform SELLS bitcoin at the exchange's buy price (the
 * higher one; customers buy at it) and BUYS at the exchange's sell price (customers sell at it).
 */
export interface PriceSnapshot {
  /** What the platform sells at, in cents per BTC: the exchange's buy price. */
  sellPriceCents: Cents;
  /** What the platform buys at, in cents per BTC: the exchange's sell price. */
  buyPriceCents: Cents;
  /** The estimated network fee of one buy payout. */
  networkFeeSats: Sats;
  fetchedAt: Date;
  /** The name of the price source that answered. */
  source: string;
}

export interface PriceServiceLog {
  warn(obj: object, msg: string): void;
}

export interface PriceServiceOptions {
  /** Tried in order; the first that answers wins. */
  sources: PriceSource[];
  /** The fee rate for a prompt payout, in sat/vB. May throw; then the last good rate is used. */
  feeRate: () => Promise<number>;
  /** Without a successful refresh for this long, the prices are stale. */
  staleAfterMs?: number;
  now?: () => Date;
  /** Sees each new snapshot before anyone can quote from it (to record it); if it fails, the snapshot is dropped. */
  onSnapshot?: (snapshot: PriceSnapshot) => Promise<void> | void;
  log?: PriceServiceLog;
  /** The size of one buy payout in vbytes. */
  payoutVbytes?: number;
  /** The most a price source or the fee rate may take before it counts as failed. */
  callTimeoutMs?: number;
}

export interface PriceService {
  /** Fetches new prices. Never throws: answers null when this refresh failed, and keeps the last good snapshot. */
  refresh(): Promise<PriceSnapshot | null>;
  /** The last good snapshot, however old (see `isStale`), or null before the first one. */
  current(): PriceSnapshot | null;
  /** True before the first good snapshot and when the last one is older than `staleAfterMs`. */
  isStale(): boolean;
  /** Refreshes now, then every `intervalMs`, on a timer that does not keep the process alive. */
  start(intervalMs?: number): void;
  stop(): void;
}

/** Used until the fee estimator has answered once: a moderate rate that confirms in normal times. */
export const FALLBACK_FEE_RATE_SAT_PER_VB = 10;
export const DEFAULT_STALE_AFTER_MS = 5 * 60_000;
export const DEFAULT_REFRESH_INTERVAL_MS = 60_000;

const silentLog: PriceServiceLog = { warn: () => {} };

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Rejects when `promise` has not settled within `ms`, so one hung call cannot stall every refresh after it. */
async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} gave no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function createPriceService(options: PriceServiceOptions): PriceService {
  const {
    sources,
    feeRate,
    staleAfterMs = DEFAULT_STALE_AFTER_MS,
    now = () => new Date(),
    onSnapshot,
    log = silentLog,
    payoutVbytes = DEFAULT_PAYOUT_VBYTES,
    callTimeoutMs = 10_000,
  } = options;
  if (sources.length === 0) throw new RangeError('The price service needs at least one price source.');
  // Fails here, at start-up, rather than on every refresh.
  networkFeeSatsFor(FALLBACK_FEE_RATE_SAT_PER_VB, payoutVbytes);

  let latest: PriceSnapshot | null = null;
  let lastGoodFeeRate: number | null = null;
  let inFlight: Promise<PriceSnapshot | null> | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;

  async function firstQuote(): Promise<{ quote: ExchangeQuote; source: string } | null> {
    for (const source of sources) {
      try {
        const quote = await withTimeout(source.fetchQuote(), callTimeoutMs, source.name);
        return { quote: checkExchangeQuote(source.name, quote), source: source.name };
      } catch (error) {
        log.warn({ source: source.name, reason: reasonOf(error) }, 'price source failed');
      }
    }
    return null;
  }

  async function networkFee(): Promise<Sats> {
    try {
      const rate = await withTimeout(feeRate(), callTimeoutMs, 'fee rate');
      const sats = networkFeeSatsFor(rate, payoutVbytes);
      lastGoodFeeRate = rate;
      return sats;
    } catch (error) {
      const fallback = lastGoodFeeRate ?? FALLBACK_FEE_RATE_SAT_PER_VB;
      log.warn(
        { reason: reasonOf(error), fallbackSatPerVb: fallback },
        'fee rate unavailable, using the fallback',
      );
      return networkFeeSatsFor(fallback, payoutVbytes);
    }
  }

  async function fetchSnapshot(): Promise<PriceSnapshot | null> {
    try {
      const [answer, networkFeeSats] = await Promise.all([firstQuote(), networkFee()]);
      if (!answer) {
        log.warn(
          { sources: sources.map((source) => source.name) },
          'every price source failed, keeping the last prices',
        );
        return null;
      }
      const snapshot: PriceSnapshot = {
        // The naming flip: the exchange's buy price is what the platform sells at, and vice versa.
        sellPriceCents: answer.quote.exchangeBuyCents,
        buyPriceCents: answer.quote.exchangeSellCents,
        networkFeeSats,
        fetchedAt: now(),
        source: answer.source,
      };
      // Only a recorded snapshot may be quoted from, so every price a customer saw can be checked later.
      await onSnapshot?.(snapshot);
      latest = snapshot;
      return snapshot;
    } catch (error) {
      log.warn({ reason: reasonOf(error) }, 'price refresh failed, keeping the last prices');
      return null;
    }
  }

  function refresh(): Promise<PriceSnapshot | null> {
    // A refresh already under way is shared, so an older answer can never overwrite a newer one.
    inFlight ??= fetchSnapshot().finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  return {
    refresh,
    current: () => latest,
    isStale() {
      if (!latest) return true;
      return now().getTime() - latest.fetchedAt.getTime() > staleAfterMs;
    },
    start(intervalMs = DEFAULT_REFRESH_INTERVAL_MS) {
      if (!Number.isFinite(intervalMs) || intervalMs <= 0) {
        throw new RangeError(`The price refresh interval must be positive, not ${intervalMs}.`);
      }
      if (timer) return;
      void refresh();
      timer = setInterval(() => void refresh(), intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
