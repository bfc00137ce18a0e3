import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@offzero/shared/api/errors';
import { priceResponseSchema } from '@offzero/shared/api/orders';
import { getCurrentPrice } from './get-current-price';
import type { PriceBook } from './price-book';

/** `GET /api/price`: the platform's prices, never cached (they move every minute). */
export const priceRoutes =
  (prices: PriceBook): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/price',
      {
        config: { blockedPlaces: true },
        schema: { response: { 200: priceResponseSchema, 500: errorBodySchema, 503: errorBodySchema } },
      },
      async (_request, reply) => {
        const price = getCurrentPrice(prices);
        void reply.header('cache-control', 'no-store');
        return price;
      },
    );
  };
