import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DEPOSIT_BUY_MESSAGES,
  depositBuySettingRequestSchema,
  depositBuySettingResponseSchema,
  type DepositBuySettingRequest,
} from '@offzero/shared/api/deposit-buys';
import { requireSignedIn, signedInUser } from '../../auth/sessions';
import { errorResponses } from '../../http/error-responses';
import { requireStepUp } from '../../passkeys/step-up';
import type { DepositBuysService } from './deposit-buys.service';

/**
 * "Buy bitcoin with every deposit" (docs/design.md, "Recurring buys"): `GET /api/plans/deposit-buys`
 * reads the customer's setting, `PUT` turns it on (with the address-book entry it pays) or off.
 */
export const depositBuyRoutes =
  (depositBuys: DepositBuysService): FastifyPluginAsyncZod =>
  async (app) => {
    const signedIn = requireSignedIn(app);
    app.get(
      '/api/plans/deposit-buys',
      {
        preHandler: signedIn,
        schema: { response: { 200: depositBuySettingResponseSchema, ...errorResponses(401, 500, 503) } },
      },
      async (request) => ({ setting: await depositBuys.setting(signedInUser(request).user) }),
    );
    app.put(
      '/api/plans/deposit-buys',
      {
        // With a passkey, the entry every deposit's bitcoin goes to is confirmed by an assertion.
        preHandler: [
          signedIn,
          requireStepUp(app, 'deposit-buys.save', (request) => {
            const { enabled, payoutAddressId } = request.body as DepositBuySettingRequest;
            return enabled && payoutAddressId ? { payoutAddressId } : null;
          }),
        ],
        config: { idempotent: true },
        schema: {
          body: depositBuySettingRequestSchema,
          response: {
            200: depositBuySettingResponseSchema,
            ...errorResponses(400, 401, 403, 404, 413, 415, 429, 500, 503),
          },
        },
      },
      async (request) => {
        const setting = await depositBuys.saveSetting(signedInUser(request).user, request.body);
        return {
          setting,
          message: setting.enabled ? DEPOSIT_BUY_MESSAGES.turnedOn : DEPOSIT_BUY_MESSAGES.turnedOff,
        };
      },
    );
  };
