import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  devBankInboundBodySchema,
  devBankInboundResponseSchema,
  devBankReturnBodySchema,
  devBankTransferParamsSchema,
  devBankTransferResponseSchema,
  devBankTransfersQuerySchema,
  devBankTransfersResponseSchema,
  type BankTransferView,
} from '@offzero/shared/api/bank';
import { centsToUsdNumber, usdNumberToCents } from '@offzero/shared/money/money';
import { BankError, type BankTransfer } from '../bank/bank-provider';
import type { DemoBank } from '../bank/demo-bank';
import { errorResponses } from '../http/error-responses';
import { AppError } from '../http/errors';

function view(transfer: BankTransfer): BankTransferView {
  return {
    ...transfer,
    amount: centsToUsdNumber(transfer.amountCents),
    createdAt: transfer.createdAt.toISOString(),
    settledAt: transfer.settledAt?.toISOString() ?? null,
  };
}

/** The demo bank's answers in the API's words: its 404 stays a 404, anything else it refuses is a 409. */
async function asDemoBank<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof BankError)) throw error;
    throw new AppError(error.status === 404 ? 'NOT_FOUND' : 'CONFLICT', error.message);
  }
}

/**
 * The demo bank's helpers (docs/design.md, "Bank provider"): someone sends money to an account number,
 * the network settles or returns a transfer, and the list of an account number's transfers. Each
 * change makes the demo bank send its signed webhook to the same receiver Increase's reach.
 */
export const devBankRoutes =
  (bank: DemoBank): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/dev/bank/inbound',
      {
        schema: {
          body: devBankInboundBodySchema,
          response: { 200: devBankInboundResponseSchema, ...errorResponses(400, 404, 409, 500, 503) },
        },
      },
      async (request) => {
        const { accountNumber, amount, originatorName, rail, traceNumber } = request.body;
        return asDemoBank(() =>
          bank.sendInbound({
            accountNumber,
            amountCents: usdNumberToCents(amount),
            originatorName,
            rail,
            ...(traceNumber ? { traceNumber } : {}),
          }),
        );
      },
    );

    app.post(
      '/api/dev/bank/transfers/:id/settle',
      {
        schema: {
          params: devBankTransferParamsSchema,
          response: { 200: devBankTransferResponseSchema, ...errorResponses(400, 404, 409, 500) },
        },
      },
      async (request) => {
        const settled = await asDemoBank(() => bank.settle(request.params.id));
        if (settled) return { transfer: view(settled) };
        const transfer = await asDemoBank(() => bank.getTransfer(request.params.id));
        throw new AppError('CONFLICT', `This transfer is ${transfer.status}; only one on its way settles.`);
      },
    );

    app.post(
      '/api/dev/bank/transfers/:id/return',
      {
        schema: {
          params: devBankTransferParamsSchema,
          body: devBankReturnBodySchema,
          response: { 200: devBankTransferResponseSchema, ...errorResponses(400, 404, 409, 500) },
        },
      },
      async (request) => {
        const returned = await asDemoBank(() => bank.returnTransfer(request.params.id, request.body.code));
        if (returned) return { transfer: view(returned) };
        const transfer = await asDemoBank(() => bank.getTransfer(request.params.id));
        throw new AppError('CONFLICT', `This transfer is ${transfer.status}; it cannot be returned.`);
      },
    );

    app.get(
      '/api/dev/bank/transfers',
      {
        schema: {
          querystring: devBankTransfersQuerySchema,
          response: { 200: devBankTransfersResponseSchema, ...errorResponses(400) },
        },
      },
      async (request) => ({ transfers: (await bank.listTransfers(request.query.accountNumber)).map(view) }),
    );
  };
