import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  emailOtpRequestSchema,
  googleLoginSchema,
  loginOtpRequestSchema,
  phoneOtpRequestSchema,
  verifyEmailOtpSchema,
  verifyLoginOtpSchema,
  verifyPhoneOtpSchema,
  type SessionResponse,
} from '@offzero/shared/api/accounts';
import type { UserRow } from '../db/schema';
import { AppError } from '../http/errors';
import { toUserResponse } from '../users/user.presenter';
import type { AccountsService } from './accounts.service';
import { createGoogleIdTokenVerifier, GoogleTokenError } from './google-id-token';
import { readRegistrationToken, signRegistrationToken } from './registration-token';
import { requireSignedIn, signedInUser } from './sessions';

/** Registration, login, Google sign-in and logout: the calls of spec section 7. */
export const accountsRoutes =
  (accounts: AccountsService): FastifyPluginAsyncZod =>
  async (app) => {
    const { config } = app;
    // Per client IP, on top of the per-address limits inside the OTP service.
    const SEND_LIMIT = { max: config.otpSendsPerIp, timeWindow: '15 minutes' };
    const VERIFY_LIMIT = { max: config.otpVerifiesPerIp, timeWindow: '15 minutes' };

    async function sessionAnswer(user: UserRow, message: string): Promise<SessionResponse> {
      const { token } = await app.sessions.issue(user.id);
      return { message, token, user: toUserResponse(user, config.adminEmails.includes(user.email)) };
    }

    /**
     * The phone steps run either during registration (registration token) or from the dashboard
     * (session). From the dashboard the customer keeps the session they already have.
     */
    async function phoneOwner(
      request: FastifyRequest,
      email: string,
      registrationToken: string | undefined,
    ): Promise<{ user: UserRow; currentToken: string | null }> {
      const signedIn = await app.sessions.optionalUser(request);
      if (signedIn) {
        if (signedIn.user.email !== email) {
          throw new AppError('FORBIDDEN', 'You can only verify a phone for your own account.');
        }
        return {
          user: signedIn.user,
          currentToken: request.headers.authorization?.slice('Bearer '.length) ?? null,
        };
      }
      const userId = registrationToken
        ? await readRegistrationToken(config.jwtSecret, registrationToken, email)
        : null;
      const user = userId ? await accounts.findUser(userId) : null;
      if (!user)
        throw new AppError('UNAUTHENTICATED', 'Your registration has timed out. Start again or log in.');
      return { user, currentToken: null };
    }

    app.post(
      '/api/verification/email/otp',
      { schema: { body: emailOtpRequestSchema }, config: { rateLimit: SEND_LIMIT } },
      async (request) => {
        await accounts.sendRegistrationCode(request.body.email, request.ip);
        return { message: `We sent a 6-digit code to ${request.body.email}.` };
      },
    );

    app.post(
      '/api/verification/email/otp/resend',
      { schema: { body: emailOtpRequestSchema }, config: { rateLimit: SEND_LIMIT } },
      async (request) => {
        await accounts.sendRegistrationCode(request.body.email, request.ip);
        return { message: `We sent a new code to ${request.body.email}.` };
      },
    );

    app.post(
      '/api/verification/verify/otp',
      { schema: { body: verifyEmailOtpSchema }, config: { rateLimit: VERIFY_LIMIT } },
      async (request) => {
        const { email, code, referralCode } = request.body;
        const user = await accounts.verifyRegistrationEmail(email, code, referralCode || undefined);
        return {
          message: 'Email verified.',
          registrationToken: await signRegistrationToken(config.jwtSecret, user.id, user.email),
        };
      },
    );

    app.post(
      '/api/verification/phone/otp',
      { schema: { body: phoneOtpRequestSchema }, config: { rateLimit: SEND_LIMIT } },
      async (request) => {
        const { email, phone, registrationToken } = request.body;
        const { user } = await phoneOwner(request, email, registrationToken);
        await accounts.sendPhoneCode(user, phone, request.ip);
        return { message: `We sent a 6-digit code to ${phone}.` };
      },
    );

    app.post(
      '/api/verification/verify/phone',
      { schema: { body: verifyPhoneOtpSchema }, config: { rateLimit: VERIFY_LIMIT } },
      async (request) => {
        const { email, phone, code, registrationToken } = request.body;
        const { user, currentToken } = await phoneOwner(request, email, registrationToken);
        const verified = await accounts.verifyPhone(user, phone, code);
        if (currentToken) {
          return {
            message: 'Phone number verified.',
            token: currentToken,
            user: toUserResponse(verified, config.adminEmails.includes(verified.email)),
          };
        }
        return sessionAnswer(verified, 'Phone number verified.');
      },
    );

    app.post(
      '/api/user/login-otp/send',
      { schema: { body: loginOtpRequestSchema }, config: { rateLimit: SEND_LIMIT } },
      async (request) => {
        await accounts.sendLoginCode(request.body.email, request.ip);
        return { message: `We sent a login code to ${request.body.email}.` };
      },
    );

    app.post(
      '/api/user/login-otp/verify',
      { schema: { body: verifyLoginOtpSchema }, config: { rateLimit: VERIFY_LIMIT } },
      async (request) =>
        sessionAnswer(await accounts.verifyLogin(request.body.email, request.body.code), 'Logged in.'),
    );

    const verifyGoogleIdToken = config.googleClientId
      ? createGoogleIdTokenVerifier({ clientId: config.googleClientId, jwksUrl: config.googleJwksUrl })
      : null;
    app.post(
      '/api/user/google/login',
      { schema: { body: googleLoginSchema }, config: { rateLimit: VERIFY_LIMIT } },
      async (request) => {
        if (!verifyGoogleIdToken) throw new AppError('NOT_FOUND', 'Google sign-in is not available.');
        let identity;
        try {
          identity = await verifyGoogleIdToken(request.body.credential);
        } catch (error) {
          if (error instanceof GoogleTokenError) {
            request.log.warn({ reason: error.message }, 'google sign-in refused');
            throw new AppError('UNAUTHENTICATED', 'Login failed!');
          }
          throw error;
        }
        return sessionAnswer(await accounts.signInWithGoogle(identity), 'Logged in with Google.');
      },
    );

    app.post('/api/user/logout', { preHandler: requireSignedIn(app) }, async (request) => {
      await app.sessions.revoke(signedInUser(request).sessionId);
      return { message: 'You are logged out.' };
    });
  };
