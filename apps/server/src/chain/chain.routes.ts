import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isValidBitcoinAddress } from '@offzero/shared/bitcoin/address';
import { btcNumberToSats, MoneyParseError } from '@offzero/shared/money/money';
import { AppError } from '../http/errors';
import { MAX_BLOCKS_PER_MINE, type SimulatedChain } from './simulated-chain';

const sendBody = z.strictObject({
  address: z.string().max(100, 'is too long for a bitcoin address'),
  amount: z.number({ error: 'must be a number of BTC, like 0.015' }),
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

/**
 * Demo helpers that drive the simulated chain: `/api/dev/chain/send`, `/mine` and `/drop`. Registered
 * only in demo mode, so production answers 404.
 */
export const chainDevRoutes =
  (chain: SimulatedChain): FastifyPluginAsyncZod =>
  async (app) => {
    app.post('/api/dev/chain/send', { schema: { body: sendBody } }, async (request) => {
      const { address, amount } = request.body;
      const network = app.config.bitcoinNetwork;
      if (!isValidBitcoinAddress(address, network)) {
        throw new AppError('BAD_REQUEST', `This is not a valid ${network} bitcoin address.`, {
          address: `must be a ${network} bitcoin address`,
        });
      }
      let valueSats: bigint;
      try {
        valueSats = btcNumberToSats(amount);
      } catch (error) {
        if (!(error instanceof MoneyParseError)) throw error;
        throw new AppError('BAD_REQUEST', error.message, { amount: error.message });
      }
      if (valueSats <= 0n) {
        throw new AppError('BAD_REQUEST', 'Send more than 0 BTC.', { amount: 'must be more than 0' });
      }
      return chain.send(address, valueSats);
    });

    app.post('/api/dev/chain/mine', { schema: { body: mineBody } }, async (request) => {
      return chain.mine(request.body?.blocks ?? 1);
    });

    app.post('/api/dev/chain/drop', { schema: { body: dropBody } }, async (request) => {
      const dropped = await chain.drop(request.body.txid.toLowerCase());
      if (!dropped) {
        throw new AppError('BAD_REQUEST', 'No transaction with this txid is on the demo chain.', {
          txid: 'is not on the demo chain',
        });
      }
      return { message: 'Transaction dropped: it is no longer on the demo chain.' };
    });
  };
