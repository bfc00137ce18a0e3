import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageResponseSchema } from '@offzero/shared/api/accounts';
import { errorBodySchema as error } from '@offzero/shared/api/errors';
import { MAX_BLOCKS_PER_MINE, type SimulatedChain } from './simulated-chain';
import { dropDemoTransaction } from './use-cases/drop-demo-transaction';
import { sendDemoCoins } from './use-cases/send-demo-coins';

const sendBody = z.strictObject({
  address: z.string().max(100, 'is too long for a bitcoin address'),
  amount: z.number({ error: 'must be a number of BTC, like 0.015' }),
  /** The address the simulated transaction spends from (its input), e.g. to try sanctions screening. */
  from: z.string().max(100, 'is too long for a bitcoin address').optional(),
});

const mineBody = z
  .strictObject({
    blocks: z
      .number({ error: 'must be a number of blocks' })
      .int('must be a whole number of blocks')
      .min(1, 'mine at least 1 block')
      .max(MAX_BLOCKS_PER_MINE, `mine at most ${MAX_BLOCKS_PER_MINE} blocks at a time`)
      .default(1),
  })
  .nullish();

const dropBody = z.strictObject({
  txid: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be a transaction id of 64 hexadecimal characters'),
});

/** The answers of a demo chain call that is refused (bad input, CSRF) or fails. */
const errors = { 400: error, 403: error, 413: error, 415: error, 500: error } as const;

/**
 * Demo helpers that drive the simulated chain: `/api/dev/chain/send`, `/mine` and `/drop`. Registered
 * only in demo mode, so production answers 404.
 */
export const chainDevRoutes =
  (chain: SimulatedChain): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/dev/chain/send',
      { schema: { body: sendBody, response: { 200: z.object({ txid: z.string() }), ...errors } } },
      async (request) => sendDemoCoins(chain, app.config.bitcoinNetwork, request.body),
    );

    app.post(
      '/api/dev/chain/mine',
      { schema: { body: mineBody, response: { 200: z.object({ height: z.number() }), ...errors } } },
      async (request) => chain.mine(request.body?.blocks ?? 1),
    );

    app.post(
      '/api/dev/chain/drop',
      { schema: { body: dropBody, response: { 200: messageResponseSchema, ...errors } } },
      async (request) => dropDemoTransaction(chain, request.body.txid),
    );
  };
