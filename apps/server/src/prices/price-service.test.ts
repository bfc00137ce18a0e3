import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PriceSourceError, type ExchangeQuote, type PriceSource } from './price-source';
import { createPriceService, FALLBACK_FEE_RATE_SAT_PER_VB, type PriceServiceOptions } from './price-service';

const COINBASE_QUOTE: ExchangeQuote = { exchangeBuyCents: 6_732_155n, exchangeSellCents: 6_731_010n };
const KRAKEN_QUOTE: ExchangeQuote = { exchangeBuyCents: 6_732_150n, exchangeSellCents: 6_731_000n };

/** A price source under the test's control: answers the queued results in turn, then the last one forever. */
function fakeSource(name: string, ...results: (ExchangeQuote | Error)[]) {
  let calls = 0;
  const fetchQuote = vi.fn(async () => {
    const result = results[Math.min(calls++, results.length - 1)];
    if (!result) throw new Error('no answer queued');
    if (result instanceof Error) throw result;
    return result;
  });
  return { name, fetchQuote } satisfies PriceSource;
}

function fakeClock(start = Date.parse('2025-03-01T12:00:00Z')) {
  let nowMs = start;
  return { now: () => new Date(nowMs), advance: (ms: number) => (nowMs += ms) };
}

function setup(overrides: Partial<PriceServiceOptions> = {}) {
  const clock = fakeClock();
  const log = { warn: vi.fn() };
  const service = createPriceService({
    sources: [fakeSource('coinbase', COINBASE_QUOTE)],
    feeRate: async () => 10,
    now: clock.now,
    log,
    ...overrides,
  });
  return { service, clock, log };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('price service', () => {
  it('names prices from the platform’s side: it sells at the exchange’s buy price and buys at its sell price', async () => {
    const { service, clock } = setup();
    const snapshot = await service.refresh();
    expect(snapshot).toEqual({
      sellPriceCents: 6_732_155n, // the exchange's buy price (the higher): customers buy at it
      buyPriceCents: 6_731_010n, // the exchange's sell price (the lower): customers sell at it
      networkFeeSats: 1_410n,
      fetchedAt: clock.now(),
      source: 'coinbase',
    });
    expect(snapshot!.sellPriceCents).toBeGreaterThan(snapshot!.buyPriceCents);
    expect(service.current()).toBe(snapshot);
  });

  it('prices the network fee of one payout in sats from the fee rate', async () => {
    for (const [rate, vbytes, sats] of [
      [10, undefined, 1_410n],
      [2.5, undefined, 353n], // 352.5 rounded up
      [1.1, 100, 110n],
      [0, undefined, 0n],
    ] as const) {
      const { service } = setup({ feeRate: async () => rate, ...(vbytes ? { payoutVbytes: vbytes } : {}) });
      expect((await service.refresh())?.networkFeeSats).toBe(sats);
    }
  });

  it('falls back to the last good fee rate, or 10 sat/vB before there was one', async () => {
    const rates: (number | Error)[] = [
      new Error('mempool.space is down'),
      20,
      Number.NaN,
      -3,
      new Error('still down'),
    ];
    const feeRate = vi.fn(async () => {
      const next = rates.shift();
      if (next instanceof Error || next === undefined) throw next ?? new Error('none');
      return next;
    });
    const { service, log } = setup({ feeRate });
    expect(FALLBACK_FEE_RATE_SAT_PER_VB).toBe(10);
    expect((await service.refresh())?.networkFeeSats).toBe(1_410n);
    expect(log.warn).toHaveBeenLastCalledWith(
      { reason: 'mempool.space is down', fallbackSatPerVb: 10 },
      'fee rate unavailable, using the fallback',
    );
    expect((await service.refresh())?.networkFeeSats).toBe(2_820n);
    // NaN and negative rates are as good as no answer.
    expect((await service.refresh())?.networkFeeSats).toBe(2_820n);
    expect((await service.refresh())?.networkFeeSats).toBe(2_820n);
    expect((await service.refresh())?.networkFeeSats).toBe(2_820n);
    expect(log.warn).toHaveBeenLastCalledWith(
      { reason: 'still down', fallbackSatPerVb: 20 },
      'fee rate unavailable, using the fallback',
    );
  });

  it('tries the sources in order and takes the first answer', async () => {
    const coinbase = fakeSource(
      'coinbase',
      new PriceSourceError('coinbase answered HTTP 500'),
      COINBASE_QUOTE,
    );
    const kraken = fakeSource('kraken', KRAKEN_QUOTE);
    const { service, log } = setup({ sources: [coinbase, kraken] });

    const fallback = await service.refresh();
    expect(fallback).toMatchObject({
      source: 'kraken',
      sellPriceCents: 6_732_150n,
      buyPriceCents: 6_731_000n,
    });
    expect(coinbase.fetchQuote.mock.invocationCallOrder[0]).toBeLessThan(
      kraken.fetchQuote.mock.invocationCallOrder[0]!,
    );
    expect(log.warn).toHaveBeenCalledWith(
      { source: 'coinbase', reason: 'coinbase answered HTTP 500' },
      'price source failed',
    );

    const primary = await service.refresh();
    expect(primary).toMatchObject({ source: 'coinbase', sellPriceCents: 6_732_155n });
    expect(kraken.fetchQuote).toHaveBeenCalledTimes(1);
  });

  it('treats a source’s doubtful quote or a hung source as a failure', async () => {
    const inverted = fakeSource('inverted', { exchangeBuyCents: 6_700_000n, exchangeSellCents: 6_700_001n });
    const hung: PriceSource = { name: 'hung', fetchQuote: () => new Promise(() => {}) };
    const kraken = fakeSource('kraken', KRAKEN_QUOTE);
    const { service, log } = setup({ sources: [inverted, hung, kraken], callTimeoutMs: 50 });
    expect((await service.refresh())?.source).toBe('kraken');
    expect(log.warn).toHaveBeenCalledWith(
      {
        source: 'inverted',
        reason: 'inverted: the buy price 6700000 is below the sell price 6700001 (cents)',
      },
      'price source failed',
    );
    expect(log.warn).toHaveBeenCalledWith(
      { source: 'hung', reason: 'hung gave no answer within 50 ms' },
      'price source failed',
    );
  });

  it('keeps the last good snapshot when every source fails, and never throws', async () => {
    const coinbase = fakeSource('coinbase', COINBASE_QUOTE, new Error('timeout'));
    const kraken = fakeSource('kraken', new PriceSourceError('kraken reported: EService:Unavailable'));
    const { service, log, clock } = setup({ sources: [coinbase, kraken] });
    const good = await service.refresh();
    expect(good?.source).toBe('coinbase');

    clock.advance(60_000);
    await expect(service.refresh()).resolves.toBeNull();
    expect(service.current()).toBe(good);
    expect(log.warn).toHaveBeenLastCalledWith(
      { sources: ['coinbase', 'kraken'] },
      'every price source failed, keeping the last prices',
    );
  });

  it('has nothing and is stale before the first success', async () => {
    const { service } = setup({ sources: [fakeSource('coinbase', new Error('down'))] });
    expect(service.current()).toBeNull();
    expect(service.isStale()).toBe(true);
    await expect(service.refresh()).resolves.toBeNull();
    expect(service.current()).toBeNull();
    expect(service.isStale()).toBe(true);
  });

  it('turns stale once no refresh has succeeded within the window', async () => {
    const coinbase = fakeSource('coinbase', COINBASE_QUOTE, new Error('down'), COINBASE_QUOTE);
    const { service, clock } = setup({ sources: [coinbase], staleAfterMs: 5 * 60_000 });
    await service.refresh();
    expect(service.isStale()).toBe(false);
    clock.advance(4 * 60_000);
    await service.refresh(); // fails: the prices keep their age
    clock.advance(60_000);
    expect(service.isStale()).toBe(false); // exactly 5 minutes old
    clock.advance(1);
    expect(service.isStale()).toBe(true);
    await service.refresh(); // succeeds again
    expect(service.isStale()).toBe(false);
    expect(service.current()?.fetchedAt).toEqual(clock.now());
  });

  it('is stale after 5 minutes by default', async () => {
    const { service, clock } = setup();
    await service.refresh();
    clock.advance(5 * 60_000);
    expect(service.isStale()).toBe(false);
    clock.advance(1);
    expect(service.isStale()).toBe(true);
  });

  it('hands each snapshot to onSnapshot before quoting from it, and drops it if that fails', async () => {
    const seen: unknown[] = [];
    let failNext = false;
    const { service, log } = setup({
      sources: [fakeSource('coinbase', COINBASE_QUOTE, KRAKEN_QUOTE)],
      onSnapshot: async (snapshot) => {
        if (failNext) throw new Error('database unavailable');
        // Not yet current while it is being recorded.
        seen.push({ snapshot, currentMeanwhile: service.current() });
      },
    });
    const first = await service.refresh();
    expect(seen).toEqual([{ snapshot: first, currentMeanwhile: null }]);
    expect(service.current()).toBe(first);

    failNext = true;
    await expect(service.refresh()).resolves.toBeNull();
    expect(service.current()).toBe(first);
    expect(log.warn).toHaveBeenLastCalledWith(
      { reason: 'database unavailable' },
      'price refresh failed, keeping the last prices',
    );
  });

  it('shares one fetch between refreshes that overlap', async () => {
    let release: (quote: ExchangeQuote) => void = () => {};
    const fetchQuote = vi.fn(() => new Promise<ExchangeQuote>((resolve) => (release = resolve)));
    const slow: PriceSource = { name: 'slow', fetchQuote };
    const { service } = setup({ sources: [slow] });
    const first = service.refresh();
    const second = service.refresh();
    expect(second).toBe(first);
    await vi.waitFor(() => expect(fetchQuote).toHaveBeenCalledTimes(1));
    release(COINBASE_QUOTE);
    expect(await first).toBe(await second);
    // Once it has settled, the next refresh fetches anew.
    const third = service.refresh();
    expect(third).not.toBe(first);
    await vi.waitFor(() => expect(fetchQuote).toHaveBeenCalledTimes(2));
    release(KRAKEN_QUOTE);
    expect((await third)?.sellPriceCents).toBe(KRAKEN_QUOTE.exchangeBuyCents);
  });

  it('refreshes at once on start, then every interval, until stopped', async () => {
    vi.useFakeTimers();
    const coinbase = fakeSource('coinbase', COINBASE_QUOTE);
    const { service } = setup({ sources: [coinbase] });
    service.start(1_000);
    service.start(1_000); // a second start does not add a second timer
    await vi.advanceTimersByTimeAsync(0);
    expect(coinbase.fetchQuote).toHaveBeenCalledTimes(1);
    expect(service.current()?.source).toBe('coinbase');
    await vi.advanceTimersByTimeAsync(3_000);
    expect(coinbase.fetchQuote).toHaveBeenCalledTimes(4);
    service.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(coinbase.fetchQuote).toHaveBeenCalledTimes(4);
  });

  it('refreshes every minute by default, on a timer that does not keep the process alive', () => {
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    const { service } = setup();
    service.start();
    expect(setIntervalSpy).toHaveBeenCalledTimes(1);
    expect(setIntervalSpy.mock.calls[0]?.[1]).toBe(60_000);
    const timer = setIntervalSpy.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    service.stop();
    service.stop();
  });

  it('refuses a service without sources, and a refresh interval that is not positive', () => {
    expect(() => createPriceService({ sources: [], feeRate: async () => 10 })).toThrow(RangeError);
    const { service } = setup();
    expect(() => service.start(0)).toThrow(RangeError);
    expect(() => service.start(Number.NaN)).toThrow(RangeError);
  });

  it('takes a pino logger as its log', async () => {
    const logger = pino({ level: 'silent' });
    const service = createPriceService({
      sources: [fakeSource('coinbase', new Error('down'))],
      feeRate: async () => 10,
      log: logger,
    });
    await expect(service.refresh()).resolves.toBeNull();
  });
});
