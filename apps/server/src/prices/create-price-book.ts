import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config/config';
import type { Database } from '../db/database';
import { createCoinbasePriceSource } from './coinbase-price-source';
import { createDemoPriceSource } from './demo-price-source';
import { createKrakenPriceSource } from './kraken-price-source';
import { createPriceBook } from './price-book';

/** Demo quotes from a seeded random walk; production from Coinbase with Kraken as the fallback. */
/** `feeRate` comes from the chain (Esplora's estimate, or the simulated chain's calm network). */
export function createPriceBookFor(
  config: AppConfig,
  db: Database,
  feeRate: () => Promise<number>,
  log: FastifyBaseLogger,
) {
  const sources = config.isDemo
    ? [createDemoPriceSource()]
    : [
        createCoinbasePriceSource({ baseUrl: config.priceSources.coinbaseUrl }),
        createKrakenPriceSource({ baseUrl: config.priceSources.krakenUrl }),
      ];
  return createPriceBook({ db, sources, feeRate, log });
}
