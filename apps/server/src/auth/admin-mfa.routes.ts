import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  mfaCodeSchema,
  mfaEnrolmentSchema,
  mfaStatusSchema,
  messageResponseSchema,
} from '@offzero/shared/api/accounts';
import { errorResponses } from '../http/error-responses';
import type { AdminMfaService } from './admin-mfa.service';
import { requireAdmin, signedInUser } from './sessions';

/** An admin's two-factor set-up (docs/design.md): status, a new secret, and the first code that enrols. */
export const adminMfaRoutes =
  (mfa: AdminMfaService): FastifyPluginAsyncZod =>
  async (app) => {
    const enrolling = { onRequest: requireAdmin(app, { mayEnrol: true }) };
    const verifyLimit = { max: app.config.otpVerifiesPerIp, timeWindow: '15 minutes' };

    app.get(
      '/api/admin/mfa',
      { ...enrolling, schema: { response: { 200: mfaStatusSchema, ...errorResponses(401, 403, 500) } } },
      async (request) => {
        const { id } = signedInUser(request).user;
        // A passkey is a second factor too (docs/design.md, "Passkeys").
        return {
          enrolled: await mfa.hasSecondFactor(id),
          required: app.config.mode === 'production',
          totp: await mfa.isEnrolled(id),
        };
      },
    );

    app.post(
      '/api/admin/mfa/enroll',
      {
        ...enrolling,
        // 409: already enrolled (a session alone never replaces the secret).
        schema: { response: { 200: mfaEnrolmentSchema, ...errorResponses(400, 401, 403, 409, 429, 500) } },
        config: { rateLimit: verifyLimit },
      },
      async (request) => mfa.startEnrolment(signedInUser(request)),
    );

    app.post(
      '/api/admin/mfa/verify',
      {
        ...enrolling,
        schema: {
          body: mfaCodeSchema,
          response: { 200: messageResponseSchema, ...errorResponses(400, 401, 403, 409, 429, 500) },
        },
        config: { rateLimit: verifyLimit },
      },
      async (request) => {
        await mfa.confirmEnrolment(signedInUser(request), request.body.code);
        return { message: 'Two-factor authentication is set up.' };
      },
    );
  };
