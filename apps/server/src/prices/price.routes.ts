import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@offzero/shared/api/errors';
import { priceResponseSchema } from '@offzero/shared/api/orders';
import { AppError } from '../http/errors';
import { getCurrentPrice } from './get-current-price';
import { PRICES_UNAVAILABLE, type PriceBook } from './price-book';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** JSON already serialised: Fastify sends a string with a JSON content type as it is. */
function sendJsonText(reply: FastifyReply, json: string): void {
  void reply.header('cache-control', 'no-store').type(JSON_CONTENT_TYPE).send(json);
}

/**
 * The price answer as JSON text, worked out again only when the snapshot or its staleness changes.
 * It is the most requested call of the API, and its answer is the same for every caller between two
 * price refreshes, so it is validated against its schema and serialised once, not on every request.
 */
export function createPriceAnswer(prices: PriceBook): () => string {
  let answered: { snapshot: object; stale: boolean; json: string } | null = null;
  return () => {
    const snapshot = prices.current();
    if (!snapshot) throw new AppError('UNAVAILABLE', PRICES_UNAVAILABLE);
    const stale = prices.isStale();
    if (answered?.snapshot !== snapshot || answered.stale !== stale) {
      answered = {
        snapshot,
        stale,
        json: JSON.stringify(priceResponseSchema.parse(getCurrentPrice(prices))),
      };
    }
    return answered.json;
  };
}

/** `GET /api/price`: the platform's prices, never cached (they move every minute). */
export const priceRoutes =
  (prices: PriceBook): FastifyPluginAsyncZod =>
  async (app) => {
    const priceAnswer = createPriceAnswer(prices);
    app.get(
      '/api/price',
      {
        config: { blockedPlaces: true },
        // The schema documents the answer (OpenAPI); the answer is sent already serialised.
        schema: { response: { 200: priceResponseSchema, 500: errorBodySchema, 503: errorBodySchema } },
      },
      (_request, reply) => {
        sendJsonText(reply, priceAnswer());
      },
    );
  };
