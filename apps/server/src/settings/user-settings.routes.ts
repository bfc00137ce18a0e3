import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageResponseSchema } from '@offzero/shared/api/accounts';
import {
  saveBankSchema,
  type BankAccount,
  saveSettingsSchema,
  saveZelleSchema,
  userIdSchema,
  userSettingsSchema,
} from '@offzero/shared/api/user-settings';
import { assertOwnId, requireSignedIn } from '../auth/sessions';
import { refuseDuringPayoutHold, requireStepUp } from '../passkeys/step-up';
import type { UserSettingsService } from './user-settings.service';
import { errorResponses } from '../http/error-responses';

type SettingsBody = { bankAccount?: BankAccount; walletAddress?: string };

/** Bad input (400), no session (401), another customer's id or no CSRF token (403), a taken code (409). */
const errors = {
  ...errorResponses(400, 401, 403, 409, 500),
};
const saved = { 200: messageResponseSchema, ...errors };

/** The settings calls of the product specification; every `userId` must be the signed-in customer's own (403). */
export const userSettingsRoutes =
  (settings: UserSettingsService): FastifyPluginAsyncZod =>
  async (app) => {
    const signedIn = { preHandler: requireSignedIn(app) };
    // With a passkey, where money goes is changed only with an assertion made for that change
    // (docs/design.md, "Passkeys").
    const guardedSave = {
      preHandler: [
        requireSignedIn(app),
        refuseDuringPayoutHold(app, (request) => (request.body as SettingsBody).bankAccount !== undefined),
        requireStepUp(app, 'bank-account.save', (request) => {
          const { bankAccount } = request.body as SettingsBody;
          return bankAccount ? { bankAccount } : null;
        }),
        requireStepUp(app, 'wallet-address.save', (request) => {
          const { walletAddress } = request.body as SettingsBody;
          return walletAddress !== undefined ? { walletAddress } : null;
        }),
      ],
    };

    app.get(
      '/api/user/settings',
      {
        ...signedIn,
        schema: {
          querystring: z.strictObject({ userId: userIdSchema }),
          response: { 200: z.object({ settings: userSettingsSchema }), ...errors },
        },
      },
      async (request) => {
        const { user } = assertOwnId(request, request.query.userId);
        return { settings: await settings.get(user.id) };
      },
    );

    app.post(
      '/api/user/settings/save',
      { ...guardedSave, schema: { body: saveSettingsSchema, response: saved } },
      async (request) => {
        const { user } = assertOwnId(request, request.body.userId);
        const { bankAccount, walletAddress, receiveEmail, receiveSMS, referralCode } = request.body;
        if (bankAccount) {
          await settings.saveBank(user.id, bankAccount);
          return { message: 'Bank account saved.' };
        }
        if (walletAddress !== undefined) {
          const { awaitingConfirmation } = await settings.saveWalletAddress(user.id, walletAddress);
          return {
            message: awaitingConfirmation
              ? 'Wallet address saved. Open the link we e-mailed you to confirm it before we send bitcoin there.'
              : 'Wallet address saved.',
          };
        }
        if (referralCode !== undefined) {
          await settings.saveReferralCode(user.id, referralCode);
          return { message: 'Referral code has been generated!' };
        }
        if (receiveEmail !== undefined) {
          await settings.saveNotifications(user.id, { receiveEmail });
          return { message: receiveEmail ? 'Email notifications are on.' : 'Email notifications are off.' };
        }
        await settings.saveNotifications(user.id, { receiveSms: receiveSMS });
        return { message: receiveSMS ? 'SMS notifications are on.' : 'SMS notifications are off.' };
      },
    );

    app.post(
      '/api/user/settings/bank/save',
      {
        preHandler: [
          requireSignedIn(app),
          refuseDuringPayoutHold(app),
          requireStepUp(app, 'bank-account.save', (request) => ({
            bankAccount: (request.body as { bankAccount: BankAccount }).bankAccount,
          })),
        ],
        schema: { body: saveBankSchema, response: saved },
      },
      async (request) => {
        const { user } = assertOwnId(request, request.body.userId);
        await settings.saveBank(user.id, request.body.bankAccount);
        return { message: 'Bank account saved.' };
      },
    );

    app.post(
      '/api/user/settings/zelle/save',
      {
        preHandler: [
          requireSignedIn(app),
          refuseDuringPayoutHold(app),
          requireStepUp(app, 'zelle-email.save', (request) => ({
            zelleEmail: (request.body as { zelleEmail: string }).zelleEmail,
          })),
        ],
        schema: { body: saveZelleSchema, response: saved },
      },
      async (request) => {
        const { user } = assertOwnId(request, request.body.userId);
        await settings.saveZelleEmail(user.id, request.body.zelleEmail);
        return { message: 'Zelle email saved.' };
      },
    );
  };
