import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createKrakenPriceSource } from './kraken-price-source';
import { PriceSourceError } from './price-source';

/** A local server speaking Kraken's public Ticker endpoint; each test sets its answer. */
interface Answer {
  status?: number;
  body: unknown;
  delayMs?: number;
}
const TICKER_PATH = '/0/public/Ticker?pair=XBTUSD';
let server: Server;
let baseUrl: string;
let answer: Answer;
const requests: { path: string; method: string }[] = [];

/** Kraken's full ticker entry, as it really answers. */
function ticker(ask: unknown = '67321.50000', bid: unknown = '67310.10000'): Record<string, unknown> {
  return {
    a: [ask, '1', '1.000'],
    b: [bid, '2', '2.000'],
    c: ['67315.00000', '0.00120000'],
    v: ['1234.56789012', '2345.67890123'],
    p: ['67250.12345', '67180.54321'],
    t: [12_345, 23_456],
    l: ['66800.00000', '66500.00000'],
    h: ['67500.00000', '67600.00000'],
    o: '67000.00000',
  };
}
const ok = (entry: unknown = ticker()): Answer => ({ body: { error: [], result: { XXBTZUSD: entry } } });

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push({ path: request.url ?? '', method: request.method ?? '' });
    const current =
      request.url === TICKER_PATH ? answer : { status: 404, body: { error: ['EGeneral:Unknown method'] } };
    const send = () => {
      if (response.destroyed) return;
      const isText = typeof current.body === 'string';
      response.writeHead(current.status ?? 200, {
        'content-type': isText ? 'text/html' : 'application/json',
      });
      response.end(isText ? current.body : JSON.stringify(current.body));
    };
    if (current.delayMs) setTimeout(send, current.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  requests.length = 0;
  answer = ok();
});
afterEach(() => vi.restoreAllMocks());

/** The address a mocked `fetch` was called with. */
const urlOf = (input: string | URL | Request) =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
const source = (timeoutMs?: number) =>
  createKrakenPriceSource({ baseUrl, ...(timeoutMs ? { timeoutMs } : {}) });

async function failureOf(promise: Promise<unknown>): Promise<PriceSourceError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PriceSourceError);
  return error as PriceSourceError;
}

describe('Kraken price source', () => {
  it('takes the ask as the buy price and the bid as the sell price', async () => {
    const kraken = source();
    expect(kraken.name).toBe('kraken');
    await expect(kraken.fetchQuote()).resolves.toEqual({
      exchangeBuyCents: 6_732_150n,
      exchangeSellCents: 6_731_010n,
    });
    expect(requests).toEqual([{ path: TICKER_PATH, method: 'GET' }]);
  });

  it('asks api.kraken.com by default', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(Response.json(ok().body));
    await expect(createKrakenPriceSource().fetchQuote()).resolves.toEqual({
      exchangeBuyCents: 6_732_150n,
      exchangeSellCents: 6_731_010n,
    });
    expect(fetchSpy.mock.calls.map(([url]) => urlOf(url))).toEqual([
      'https://api.kraken.com/0/public/Ticker?pair=XBTUSD',
    ]);
  });

  it('rounds an ask finer than a cent up and a bid down', async () => {
    answer = ok(ticker('67321.50001', '67310.10999'));
    await expect(source().fetchQuote()).resolves.toEqual({
      exchangeBuyCents: 6_732_151n,
      exchangeSellCents: 6_731_010n,
    });
  });

  it('reports Kraken’s own errors, even with HTTP 200', async () => {
    answer = { body: { error: ['EGeneral:Too many requests'] } };
    const error = await failureOf(source().fetchQuote());
    expect(error.message).toBe('kraken reported: EGeneral:Too many requests');
    answer = { body: { error: ['EService:Unavailable', 'EService:Busy'], result: { XXBTZUSD: ticker() } } };
    expect((await failureOf(source().fetchQuote())).message).toBe(
      'kraken reported: EService:Unavailable; EService:Busy',
    );
  });

  it.each([500, 429, 520])('reports HTTP %s', async (status) => {
    answer = { status, body: { error: ['EAPI:Rate limit exceeded'] } };
    const error = await failureOf(source().fetchQuote());
    expect(error.message).toBe(`kraken answered HTTP ${status}`);
  });

  it.each<[string, Answer, RegExp]>([
    ['an HTML page', { body: '<!DOCTYPE html><title>Maintenance</title>' }, /not JSON/],
    ['a JSON string', { body: 'null' }, /not JSON|not an object/],
    ['no error list', { body: { result: { XXBTZUSD: ticker() } } }, /no error list/],
    ['no result', { body: { error: [] } }, /no XXBTZUSD ticker/],
    ['another pair only', { body: { error: [], result: { XETHZUSD: ticker() } } }, /no XXBTZUSD ticker/],
    ['a ticker without an ask', ok({ b: ['67310.10000', '2', '2.000'] }), /no ask or bid/],
    ['an ask that is not a list', ok({ a: '67321.5', b: ['67310.10000'] }), /no ask or bid/],
    ['a negative ask', ok(ticker('-67321.50000')), /ask price is not a plain decimal/],
    ['a non-numeric bid', ok(ticker('67321.50000', 'n/a')), /bid price is not a plain decimal/],
    ['a bid as a JSON number', ok(ticker('67321.50000', 67_310.1)), /bid price is not a plain decimal/],
    ['an absurd price', ok(ticker('15000000.00000', '14999999.00000')), /implausible/],
  ])('refuses %s', async (_label, given, message) => {
    answer = given;
    const error = await failureOf(source().fetchQuote());
    expect(error.message).toMatch(message);
  });

  it('refuses an ask below the bid', async () => {
    answer = ok(ticker('67310.00000', '67310.10000'));
    const error = await failureOf(source().fetchQuote());
    expect(error.message).toBe('kraken: the buy price 6731000 is below the sell price 6731010 (cents)');
  });

  it('gives up on a slow answer after the timeout', async () => {
    answer = { ...ok(), delayMs: 2_000 };
    const started = Date.now();
    const error = await failureOf(source(100).fetchQuote());
    expect(error.message).toBe('kraken is unreachable: no answer within 100 ms');
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
