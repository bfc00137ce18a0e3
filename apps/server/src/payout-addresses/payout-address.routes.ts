import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { BitcoinNetwork } from '@offzero/shared/bitcoin/address';
import {
  addPayoutAddressSchema,
  type AddPayoutAddressRequest,
  confirmPayoutAddressSchema,
  payoutAddressListSchema,
  payoutAddressMessageSchema,
  payoutAddressParamsSchema,
  proveOwnershipSchema,
} from '@offzero/shared/api/payout-addresses';
import { requireSignedIn, signedInUser } from '../auth/sessions';
import { requireStepUp } from '../passkeys/step-up';
import { errorResponses } from '../http/error-responses';
import { toPayoutAddressResponse } from './payout-address.presenter';
import type { PayoutAddressService } from './payout-address.service';

/**
 * The customer's payout address book (docs/design.md): list, add, confirm from the e-mailed link,
 * send a new link, prove ownership (BIP-322), remove. Every id must be one of the signed-in customer's
 * own entries: another customer's answers 404.
 */
export const payoutAddressRoutes =
  (book: PayoutAddressService, network: BitcoinNetwork): FastifyPluginAsyncZod =>
  async (app) => {
    const signedIn = { preHandler: requireSignedIn(app) };
    const present = (entry: Parameters<typeof toPayoutAddressResponse>[0]) =>
      toPayoutAddressResponse(entry, book.now(), network);
    const changed = (...statuses: (400 | 404 | 409 | 410)[]) => ({
      200: payoutAddressMessageSchema,
      ...errorResponses(401, 403, 413, 415, 429, 500, 503, ...statuses),
    });

    app.get(
      '/api/payout-addresses',
      {
        ...signedIn,
        schema: { response: { 200: payoutAddressListSchema, ...errorResponses(401, 500, 503) } },
      },
      async (request) => {
        const { user } = signedInUser(request);
        return { payoutAddresses: (await book.list(user.id)).map(present) };
      },
    );

    app.post(
      '/api/payout-addresses',
      {
        // With a passkey, confirmed by an assertion made for it first (docs/design.md, "Passkeys").
        preHandler: [
          signedIn.preHandler,
          requireStepUp(app, 'payout-address.add', (request) => {
            const { label, address, xpub } = request.body as AddPayoutAddressRequest;
            return { label, address, xpub };
          }),
        ],
        config: { idempotent: true },
        schema: {
          body: addPayoutAddressSchema,
          response: changed(400, 409),
        },
      },
      async (request) => {
        const { user } = signedInUser(request);
        const entry = await book.add(user.id, request.body);
        return {
          message: 'Address added. Open the link we e-mailed you to confirm it.',
          payoutAddress: present(entry),
        };
      },
    );

    app.post(
      '/api/payout-addresses/:id/confirm',
      {
        ...signedIn,
        config: { idempotent: true },
        schema: {
          params: payoutAddressParamsSchema,
          body: confirmPayoutAddressSchema,
          response: changed(400, 404, 409, 410),
        },
      },
      async (request) => {
        const { user } = signedInUser(request);
        const entry = await book.confirm(user.id, request.params.id, request.body.token);
        const view = present(entry);
        return {
          message:
            view.status === 'usable'
              ? 'Address confirmed. Payouts can go to it now.'
              : 'Address confirmed. Payouts can go to it once the waiting time has passed.',
          payoutAddress: view,
        };
      },
    );

    app.post(
      '/api/payout-addresses/:id/resend',
      {
        ...signedIn,
        config: { idempotent: true },
        schema: { params: payoutAddressParamsSchema, response: changed(404, 409) },
      },
      async (request) => {
        const { user } = signedInUser(request);
        const entry = await book.resendLink(user.id, request.params.id);
        return { message: 'We e-mailed you a new confirmation link.', payoutAddress: present(entry) };
      },
    );

    app.post(
      '/api/payout-addresses/:id/proof',
      {
        ...signedIn,
        config: { idempotent: true },
        schema: {
          params: payoutAddressParamsSchema,
          body: proveOwnershipSchema,
          response: changed(400, 404),
        },
      },
      async (request) => {
        const { user } = signedInUser(request);
        const entry = await book.prove(user.id, request.params.id, request.body.signature);
        return { message: 'Ownership proven.', payoutAddress: present(entry) };
      },
    );

    app.delete(
      '/api/payout-addresses/:id',
      {
        ...signedIn,
        schema: { params: payoutAddressParamsSchema, response: changed(404) },
      },
      async (request) => {
        const { user } = signedInUser(request);
        const entry = await book.remove(user.id, request.params.id);
        return { message: 'Address removed.', payoutAddress: present(entry) };
      },
    );
  };
