import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponseSchema, sessionResponseSchema } from '@offzero/shared/api/accounts';
import {
  mfaPasskeyOptionsSchema,
  mfaPasskeyVerifySchema,
  passkeyAnswerSchema,
  passkeyListSchema,
  passkeyLoginOptionsSchema,
  passkeyLoginVerifySchema,
  passkeyOptionsResponseSchema,
  passkeyParamsSchema,
  recoveryAnswerSchema,
  recoveryVerifySchema,
  registrationOptionsRequestSchema,
  registrationVerifyRequestSchema,
  renamePasskeySchema,
  stepUpOptionsRequestSchema,
} from '@offzero/shared/api/passkeys';
import { requireSignedIn, signedInUser } from '../auth/sessions';
import { AppError } from '../http/errors';
import { toUserResponse } from '../users/user.presenter';
import { errorResponses } from '../http/error-responses';
import { toPasskeyResponse } from './passkey.presenter';
import type { PasskeysService } from './passkeys.service';
import { requireStepUp } from './step-up';

type App = Parameters<FastifyPluginAsyncZod>[0];

/**
 * Passkeys (docs/design.md, "Passkeys"): a signed-in user's list, registration, rename and removal;
 * step-up options; recovery without a passkey. Login routes are in `passkey-login.routes.ts`.
 */
export const passkeyRoutes =
  (passkeys: PasskeysService): FastifyPluginAsyncZod =>
  async (app) => {
    managementRoutes(app, passkeys);
    stepUpAndRecoveryRoutes(app, passkeys);
  };

function managementRoutes(app: App, passkeys: PasskeysService): void {
  const signedIn = requireSignedIn(app);
  const verifyLimit = { max: app.config.otpVerifiesPerIp, timeWindow: '15 minutes' };

  app.get(
    '/api/passkeys',
    { preHandler: signedIn, schema: { response: { 200: passkeyListSchema, ...errorResponses(401, 500) } } },
    async (request) => {
      const { passkeys: rows, payoutHoldUntil } = await passkeys.list(signedInUser(request).user.id);
      return {
        passkeys: rows.map(toPasskeyResponse),
        payoutHoldUntil: payoutHoldUntil?.toISOString() ?? null,
      };
    },
  );

  app.post(
    '/api/passkeys/registration/options',
    {
      // Another passkey, once one exists, is a change the existing one confirms: a stolen session
      // alone must not add the thief's own passkey.
      preHandler: [signedIn, requireStepUp(app, 'passkey.add', () => ({}))],
      schema: {
        body: registrationOptionsRequestSchema,
        response: { 200: passkeyOptionsResponseSchema, ...errorResponses(400, 401, 403, 413, 415, 429, 500) },
      },
      config: { rateLimit: verifyLimit },
    },
    async (request) => ({
      options: asJson(await passkeys.registrationOptions(signedInUser(request).user, request.body.name)),
    }),
  );

  app.post(
    '/api/passkeys/registration/verify',
    {
      preHandler: signedIn,
      schema: {
        body: registrationVerifyRequestSchema,
        response: { 200: passkeyAnswerSchema, ...errorResponses(400, 401, 403, 409, 413, 415, 429, 500) },
      },
      config: { rateLimit: verifyLimit },
    },
    async (request) => {
      const response = request.body.response as unknown as RegistrationResponseJSON;
      const passkey = await passkeys.verifyRegistration(signedInUser(request).user, response);
      return { message: 'Passkey added.', passkey: toPasskeyResponse(passkey) };
    },
  );

  app.patch(
    '/api/passkeys/:id',
    {
      preHandler: signedIn,
      schema: {
        params: passkeyParamsSchema,
        body: renamePasskeySchema,
        response: { 200: passkeyAnswerSchema, ...errorResponses(400, 401, 403, 404, 413, 415, 500) },
      },
    },
    async (request) => {
      const { user } = signedInUser(request);
      const passkey = await passkeys.rename(user.id, request.params.id, request.body.name);
      return { message: 'Passkey renamed.', passkey: toPasskeyResponse(passkey) };
    },
  );

  app.delete(
    '/api/passkeys/:id',
    {
      preHandler: [
        signedIn,
        // A foreign or unknown id answers 404 before any step-up is asked for.
        async (request) => {
          await passkeys.findOwn(signedInUser(request).user.id, request.params.id);
        },
        requireStepUp(app, 'passkey.remove', (request) => ({ id: (request.params as { id: string }).id })),
      ],
      schema: {
        params: passkeyParamsSchema,
        response: { 200: passkeyAnswerSchema, ...errorResponses(400, 401, 403, 404, 500) },
      },
    },
    async (request) => {
      const passkey = await passkeys.remove(signedInUser(request).user, request.params.id);
      return { message: 'Passkey removed.', passkey: toPasskeyResponse(passkey) };
    },
  );
}

function stepUpAndRecoveryRoutes(app: App, passkeys: PasskeysService): void {
  const signedIn = requireSignedIn(app);
  const sendLimit = { max: app.config.otpSendsPerIp, timeWindow: '15 minutes' };
  const verifyLimit = { max: app.config.otpVerifiesPerIp, timeWindow: '15 minutes' };

  app.post(
    '/api/step-up/options',
    {
      preHandler: signedIn,
      schema: {
        body: stepUpOptionsRequestSchema,
        // 409: the user has no passkey, so the change needs no confirmation.
        response: {
          200: passkeyOptionsResponseSchema,
          ...errorResponses(400, 401, 403, 409, 413, 415, 429, 500),
        },
      },
      config: { rateLimit: verifyLimit },
    },
    async (request) => ({
      options: asJson(
        await passkeys.stepUp.options(
          signedInUser(request).user.id,
          request.body.action,
          request.body.details,
        ),
      ),
    }),
  );

  app.post(
    '/api/passkeys/recovery/send',
    {
      preHandler: signedIn,
      schema: {
        response: { 200: messageResponseSchema, ...errorResponses(400, 401, 403, 409, 429, 500, 503) },
      },
      config: { rateLimit: sendLimit },
    },
    async (request) => {
      await passkeys.sendRecoveryCodes(signedInUser(request).user, request.ip);
      return { message: 'We sent a code to your e-mail and one to your phone.' };
    },
  );

  app.post(
    '/api/passkeys/recovery/verify',
    {
      preHandler: signedIn,
      schema: {
        body: recoveryVerifySchema,
        response: { 200: recoveryAnswerSchema, ...errorResponses(400, 401, 403, 409, 413, 415, 429, 500) },
      },
      config: { rateLimit: verifyLimit },
    },
    async (request) => {
      const heldUntil = await passkeys.completeRecovery(signedInUser(request).user, request.body);
      return {
        message:
          'Your passkeys are removed. New payout addresses wait 48 hours before they can receive payouts.',
        payoutHoldUntil: heldUntil.toISOString(),
      };
    },
  );
}

/** Signing in with a passkey alone, and an admin's second login step with one instead of TOTP. */
export const passkeyLoginRoutes =
  (passkeys: PasskeysService): FastifyPluginAsyncZod =>
  async (app) => {
    const { config } = app;
    const verifyLimit = { max: config.otpVerifiesPerIp, timeWindow: '15 minutes' };
    const refusals = errorResponses(400, 401, 403, 413, 415, 429, 500);
    const session = async (user: Awaited<ReturnType<PasskeysService['verifyLogin']>>) => {
      const { token } = await app.sessions.issue(user.id);
      return {
        message: 'Logged in.',
        token,
        user: toUserResponse(user, config.adminEmails.includes(user.email)),
      };
    };

    app.post(
      '/api/auth/passkey/options',
      {
        schema: {
          body: passkeyLoginOptionsSchema,
          response: { 200: passkeyOptionsResponseSchema, ...refusals },
        },
        config: { blockedPlaces: true, rateLimit: verifyLimit },
      },
      async (request) => ({ options: asJson(await passkeys.loginOptions(request.body.email || undefined)) }),
    );

    app.post(
      '/api/auth/passkey/verify',
      {
        schema: { body: passkeyLoginVerifySchema, response: { 200: sessionResponseSchema, ...refusals } },
        config: { blockedPlaces: true, rateLimit: verifyLimit },
      },
      // A passkey with user verification is two factors in one (the device and its PIN or biometric),
      // so it signs in an admin too.
      async (request) =>
        session(await passkeys.verifyLogin(request.body.response as unknown as AuthenticationResponseJSON)),
    );

    app.post(
      '/api/user/login-mfa/passkey/options',
      {
        schema: {
          body: mfaPasskeyOptionsSchema,
          response: { 200: passkeyOptionsResponseSchema, ...refusals },
        },
        config: { blockedPlaces: true, rateLimit: verifyLimit },
      },
      async (request) => {
        const userId = await secondStepUser(app, request.body.mfaToken);
        return { options: asJson(await passkeys.secondFactorOptions(userId, request.body.mfaToken)) };
      },
    );

    app.post(
      '/api/user/login-mfa/passkey/verify',
      {
        schema: { body: mfaPasskeyVerifySchema, response: { 200: sessionResponseSchema, ...refusals } },
        config: { blockedPlaces: true, rateLimit: verifyLimit },
      },
      async (request) => {
        const { mfaToken, response } = request.body;
        const userId = await secondStepUser(app, mfaToken);
        await passkeys.verifySecondFactor(
          userId,
          mfaToken,
          response as unknown as AuthenticationResponseJSON,
        );
        const user = await passkeys.userForSession(await app.adminMfa.completeWithPasskey(mfaToken));
        return session(user);
      },
    );
  };

/** The admin whose second login step this token opened; 401 when it has ended. */
async function secondStepUser(app: App, mfaToken: string): Promise<string> {
  const userId = await app.adminMfa.challengeUser(mfaToken);
  if (!userId) throw new AppError('UNAUTHENTICATED', 'Your sign-in has timed out. Log in again.');
  return userId;
}

/** WebAuthn options go to the browser as the JSON @simplewebauthn made them. */
function asJson(options: object): Record<string, unknown> {
  return options as Record<string, unknown>;
}
