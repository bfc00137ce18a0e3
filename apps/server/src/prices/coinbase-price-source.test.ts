import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCoinbasePriceSource } from './coinbase-price-source';
import { PriceSourceError } from './price-source';

/** A local server speaking Coinbase's v2 price API; each test sets what the two paths answer. */
interface Answer {
  status?: number;
  body: unknown;
  delayMs?: number;
}
const BUY_PATH = '/v2/prices/BTC-USD/buy';
const SELL_PATH = '/v2/prices/BTC-USD/sell';
let server: Server;
let baseUrl: string;
let answers: Record<string, Answer> = {};
const requests: { path: string; method: string; accept: string | undefined }[] = [];

const price = (amount: unknown, extra: object = { base: 'BTC', currency: 'USD' }): Answer => ({
  body: { data: { amount, ...extra } },
});

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push({ path: request.url ?? '', method: request.method ?? '', accept: request.headers.accept });
    const answer = answers[request.url ?? ''] ?? {
      status: 404,
      body: { errors: [{ id: 'not_found', message: 'Not found' }] },
    };
    const send = () => {
      if (response.destroyed) return;
      const isText = typeof answer.body === 'string';
      response.writeHead(answer.status ?? 200, { 'content-type': isText ? 'text/html' : 'application/json' });
      response.end(isText ? answer.body : JSON.stringify(answer.body));
    };
    if (answer.delayMs) setTimeout(send, answer.delayMs);
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
  answers = { [BUY_PATH]: price('67321.55'), [SELL_PATH]: price('67310.10') };
});
afterEach(() => vi.restoreAllMocks());

/** The address a mocked `fetch` was called with. */
const urlOf = (input: string | URL | Request) =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
const source = (timeoutMs?: number) =>
  createCoinbasePriceSource({ baseUrl, ...(timeoutMs ? { timeoutMs } : {}) });

async function failureOf(promise: Promise<unknown>): Promise<PriceSourceError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PriceSourceError);
  return error as PriceSourceError;
}

describe('Coinbase price source', () => {
  it('reads the buy and sell prices from their two paths, as cents', async () => {
    const coinbase = source();
    expect(coinbase.name).toBe('coinbase');
    await expect(coinbase.fetchQuote()).resolves.toEqual({
      exchangeBuyCents: 6_732_155n,
      exchangeSellCents: 6_731_010n,
    });
    expect(requests.map((request) => request.path).sort()).toEqual([BUY_PATH, SELL_PATH]);
    for (const request of requests) {
      expect(request.method).toBe('GET');
      expect(request.accept).toBe('application/json');
    }
  });

  it('asks api.coinbase.com by default', async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async (url) =>
        Response.json({ data: { amount: urlOf(url).endsWith('/buy') ? '67321.55' : '67310.10' } }),
      );
    await expect(createCoinbasePriceSource().fetchQuote()).resolves.toEqual({
      exchangeBuyCents: 6_732_155n,
      exchangeSellCents: 6_731_010n,
    });
    expect(fetchSpy.mock.calls.map(([url]) => urlOf(url)).sort()).toEqual([
      'https://api.coinbase.com/v2/prices/BTC-USD/buy',
      'https://api.coinbase.com/v2/prices/BTC-USD/sell',
    ]);
  });

  it('accepts a base URL with a trailing slash, and answers without base or currency', async () => {
    answers = { [BUY_PATH]: price('67321.55', {}), [SELL_PATH]: price('67310.1', { currency: 'USD' }) };
    await expect(createCoinbasePriceSource({ baseUrl: `${baseUrl}/` }).fetchQuote()).resolves.toEqual({
      exchangeBuyCents: 6_732_155n,
      exchangeSellCents: 6_731_010n,
    });
  });

  it('rounds a buy price finer than a cent up and a sell price down, never narrowing the spread', async () => {
    answers = { [BUY_PATH]: price('67321.551'), [SELL_PATH]: price('67310.109') };
    await expect(source().fetchQuote()).resolves.toEqual({
      exchangeBuyCents: 6_732_156n,
      exchangeSellCents: 6_731_010n,
    });
  });

  it.each([500, 429, 404])('reports HTTP %s', async (status) => {
    answers[SELL_PATH] = {
      status,
      body: { errors: [{ id: 'rate_limit_exceeded', message: 'Too many requests' }] },
    };
    const error = await failureOf(source().fetchQuote());
    expect(error.message).toBe(`coinbase answered HTTP ${status}`);
  });

  it.each<[string, Answer, RegExp]>([
    ['an HTML page', { body: '<html><body>Cloudflare</body></html>' }, /not JSON/],
    ['JSON without data', { body: { price: '67321.55' } }, /no data object/],
    ['data that is not an object', { body: { data: '67321.55' } }, /no data object/],
    [
      'a missing amount',
      { body: { data: { base: 'BTC', currency: 'USD' } } },
      /not a plain decimal \(undefined\)/,
    ],
    ['an amount as a JSON number', price(67_321.55), /not a plain decimal/],
    ['a negative amount', price('-67321.55'), /not a plain decimal/],
    ['a non-numeric amount', price('sixty-seven thousand'), /not a plain decimal/],
    ['an exponent', price('6.7e4'), /not a plain decimal/],
    ['a zero amount', price('0.00'), /not positive/],
    ['an absurdly low price', price('42.00'), /implausible/],
    ['an absurdly high price', price('10000000.01'), /implausible/],
    ['another coin', price('3500.00', { base: 'ETH', currency: 'USD' }), /for "ETH", not BTC/],
    ['another currency', price('62000.00', { base: 'BTC', currency: 'EUR' }), /in "EUR", not USD/],
  ])('refuses %s', async (_label, answer, message) => {
    answers[BUY_PATH] = answer;
    const error = await failureOf(source().fetchQuote());
    expect(error.message).toMatch(message);
  });

  it('refuses a buy price below the sell price', async () => {
    answers = { [BUY_PATH]: price('67310.09'), [SELL_PATH]: price('67310.10') };
    const error = await failureOf(source().fetchQuote());
    expect(error.message).toBe('coinbase: the buy price 6731009 is below the sell price 6731010 (cents)');
  });

  it('gives up on a slow answer after the timeout', async () => {
    answers[BUY_PATH] = { ...price('67321.55'), delayMs: 2_000 };
    const started = Date.now();
    const error = await failureOf(source(100).fetchQuote());
    expect(error.message).toBe('coinbase is unreachable: no answer within 100 ms');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('reports an unreachable server', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failureOf(
      createCoinbasePriceSource({ baseUrl: `http://127.0.0.1:${port}` }).fetchQuote(),
    );
    expect(error.message).toMatch(/^coinbase is unreachable: /);
  });
});
