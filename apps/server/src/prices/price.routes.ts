import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { centsToUsdNumber, satsToBtcNumber } from '@offzero/shared/money/money';
import type { PriceResponse } from '@offzero/shared/api/orders';
import { AppError } from '../http/errors';
import { PRICES_UNAVAILABLE, type PriceBook } from '../orders/order.service';

/**
 * `GET /api/price`: the platform's prices (DESIGN.md section 2). `sellPrice` is what customers buy at,
 * `buyPrice` what they sell at; `networkFee` is one buy payout's estimated fee in BTC.
 */
export const priceRoutes =
  (prices: PriceBook): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/api/price', async (_request, reply): Promise<PriceResponse> => {
      const snapshot = prices.current();
      if (!snapshot) throw new AppError('UNAVAILABLE', PRICES_UNAVAILABLE);
      void reply.header('cache-control', 'no-store');
      return {
        buyPrice: centsToUsdNumber(snapshot.buyPriceCents),
        sellPrice: centsToUsdNumber(snapshot.sellPriceCents),
        networkFee: satsToBtcNumber(snapshot.networkFeeSats),
        updatedAt: snapshot.fetchedAt.toISOString(),
        source: snapshot.source,
        stale: prices.isStale(),
      };
    });
  };
