import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import type { PriceSnapshotRow } from '../db/schema';
import { registerErrorHandling } from '../http/errors';
import { PRICES_UNAVAILABLE, type PriceBook } from './price-book';
import { priceRoutes } from './price.routes';

const snapshot = (sellPriceCents: bigint, fetchedAt: string): PriceSnapshotRow => ({
  id: '00000000-0000-4000-8000-000000000001',
  sellPriceCents,
  buyPriceCents: 6_500_012n,
  networkFeeSats: 1_509n,
  source: 'kraken',
  fetchedAt: new Date(fetchedAt),
});

/** A price book the test moves by hand: its snapshot and whether it is stale. */
function handBook(): PriceBook & { snapshot: PriceSnapshotRow | null; stale: boolean } {
  return {
    snapshot: null,
    stale: false,
    current() {
      return this.snapshot;
    },
    isStale() {
      return this.stale;
    },
  };
}

let app: FastifyInstance | undefined;
afterEach(async () => app?.close());

async function priceApp(prices: PriceBook): Promise<FastifyInstance> {
  app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  await app.register(priceRoutes(prices));
  return app;
}

describe('GET /api/price', () => {
  it('answers the exact JSON of the price, uncached, and follows every change of price and staleness', async () => {
    const prices = handBook();
    prices.snapshot = snapshot(6_705_096n, '2026-11-23T05:09:03.026Z');
    const served = await priceApp(prices);
    const get = () => served.inject({ method: 'GET', url: '/api/price' });

    const first = await get();
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body).toBe(
      '{"buyPrice":65000.12,"sellPrice":67050.96,"networkFee":0.00001509,' +
        '"updatedAt":"2026-11-23T05:09:03.026Z","source":"kraken","stale":false}',
    );
    expect((await get()).body).toBe(first.body);

    prices.stale = true;
    expect((await get()).json()).toMatchObject({ sellPrice: 67050.96, stale: true });

    prices.snapshot = snapshot(6_800_000n, '2026-11-23T05:10:03.000Z');
    prices.stale = false;
    expect((await get()).json()).toMatchObject({
      sellPrice: 68000,
      updatedAt: '2026-11-23T05:10:03.000Z',
      stale: false,
    });
  });

  it('answers 503 before the first price, then the price once there is one', async () => {
    const prices = handBook();
    const served = await priceApp(prices);
    const before = await served.inject({ method: 'GET', url: '/api/price' });
    expect(before.statusCode).toBe(503);
    expect(before.json()).toEqual({ message: PRICES_UNAVAILABLE, code: 'UNAVAILABLE' });

    prices.snapshot = snapshot(6_705_096n, '2026-11-23T05:09:03.026Z');
    expect((await served.inject({ method: 'GET', url: '/api/price' })).json()).toMatchObject({
      sellPrice: 67050.96,
    });
  });
});
