import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  emailOtpRequestSchema,
  googleLoginSchema,
  loginOtpRequestSchema,
  verifyEmailOtpSchema,
  verifyLoginOtpSchema,
  verifyLoginMfaSchema,
  emailChangeRequestSchema,
  emailChangeVerifySchema,
  userAnswerSchema,
  loginResponseSchema,
  type LoginResponse,
  messageResponseSchema,
  sessionResponseSchema,
  verifyEmailResponseSchema,
  type SessionResponse,
} from '@offzero/shared/api/accounts';
import { errorBodySchema as error } from '@offzero/shared/api/errors';
import { phoneOtpRequestSchema, verifyPhoneOtpSchema } from '@offzero/shared/api/phone';
import { AppError } from '../http/errors';
import { toUserResponse } from '../users/user.presenter';
import type { AccountsService, UserRow } from './accounts.service';
import type { AdminMfaService } from './admin-mfa.service';
import { GoogleTokenError } from './google-id-token';
import { requireSignedIn, signedInUser } from './sessions';
import { stepUpHeader } from '../passkeys/step-up';

/**
 * What any of these calls can be refused with: bad input (400), a missing security token (403), a body
 * too large or not JSON (413, 415), too many tries (429), our fault (500). Each call adds its own.
 */
export const LOGIN_CODE_SENT = 'If an account exists for this email, we sent a code.';

const refusals = { 400: error, 403: error, 413: error, 415: error, 429: error, 500: error } as const;

type App = Parameters<FastifyPluginAsyncZod>[0];

/** Registration, login, Google sign-in and logout: the calls of the product specification. */
export const accountsRoutes =
  (accounts: AccountsService, mfa: AdminMfaService): FastifyPluginAsyncZod =>
  async (app) => {
    const context = accountRouteContext(app, accounts, mfa);
    registrationRoutes(app, context);
    loginRoutes(app, context);
    contactChangeRoutes(app, context);
  };

type AccountRouteContext = ReturnType<typeof accountRouteContext>;

/** The per-IP limits and the answers the account calls share. */
function accountRouteContext(app: App, accounts: AccountsService, mfa: AdminMfaService) {
  const { config } = app;
  // Per client IP, on top of the per-address limits inside the OTP service.
  const SEND_LIMIT = { max: config.otpSendsPerIp, timeWindow: '15 minutes' };
  const VERIFY_LIMIT = { max: config.otpVerifiesPerIp, timeWindow: '15 minutes' };

  async function sessionAnswer(user: UserRow, message: string): Promise<SessionResponse> {
    const { token } = await app.sessions.issue(user.id);
    return { message, token, user: toUserResponse(user, config.adminEmails.includes(user.email)) };
  }

  /** A session, unless the user is an admin with two-factor authentication: then its second step. */
  async function loginAnswer(user: UserRow, message: string): Promise<LoginResponse> {
    if (config.adminEmails.includes(user.email) && (await mfa.hasSecondFactor(user.id))) {
      return {
        message: (await mfa.isEnrolled(user.id))
          ? 'Enter the code from your authenticator app.'
          : 'Confirm with your passkey.',
        mfaRequired: true,
        mfaToken: await mfa.openChallenge(user.id),
      };
    }
    return sessionAnswer(user, message);
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
    const user = registrationToken ? await accounts.userForRegistrationToken(registrationToken, email) : null;
    if (!user)
      throw new AppError('UNAUTHENTICATED', 'Your registration has timed out. Start again or log in.');
    return { user, currentToken: null };
  }
  return { accounts, mfa, SEND_LIMIT, VERIFY_LIMIT, sessionAnswer, loginAnswer, phoneOwner };
}

/** Registration: the e-mail's code, then the phone's (also the dashboard's phone change). */
function registrationRoutes(app: App, context: AccountRouteContext): void {
  const { config } = app;
  const { accounts, SEND_LIMIT, VERIFY_LIMIT, sessionAnswer, phoneOwner } = context;
  app.post(
    '/api/verification/email/otp',
    {
      schema: {
        body: emailOtpRequestSchema,
        // Same answer whether or not the e-mail has an account (docs/design.md); 503: not sent.
        response: { 200: messageResponseSchema, ...refusals, 503: error },
      },
      config: { blockedPlaces: true, rateLimit: SEND_LIMIT },
    },
    async (request) => {
      await accounts.sendRegistrationCode(request.body.email, request.ip);
      return { message: `We sent a 6-digit code to ${request.body.email}.` };
    },
  );

  app.post(
    '/api/verification/email/otp/resend',
    {
      schema: {
        body: emailOtpRequestSchema,
        response: { 200: messageResponseSchema, ...refusals, 503: error },
      },
      config: { blockedPlaces: true, rateLimit: SEND_LIMIT },
    },
    async (request) => {
      await accounts.sendRegistrationCode(request.body.email, request.ip);
      return { message: `We sent a new code to ${request.body.email}.` };
    },
  );

  app.post(
    '/api/verification/verify/otp',
    {
      schema: {
        body: verifyEmailOtpSchema,
        response: { 200: verifyEmailResponseSchema, ...refusals, 409: error },
      },
      config: { blockedPlaces: true, rateLimit: VERIFY_LIMIT },
    },
    async (request) => {
      const { email, code, referralCode } = request.body;
      const user = await accounts.verifyRegistrationEmail(email, code, referralCode || undefined);
      return {
        message: 'Email verified.',
        registrationToken: await accounts.issueRegistrationToken(user),
      };
    },
  );

  app.post(
    '/api/verification/phone/otp',
    {
      schema: {
        body: phoneOtpRequestSchema,
        // 401: the registration token has expired; 409: another account has verified this number.
        // 403 STEP_UP_REQUIRED: changing a verified number needs the step-up code (docs/design.md).
        response: { 200: messageResponseSchema, ...refusals, 401: error, 409: error, 503: error },
      },
      config: { blockedPlaces: true, session: 'optional', rateLimit: SEND_LIMIT },
    },
    async (request) => {
      const { email, phone, registrationToken, stepUpCode } = request.body;
      const { user, currentToken } = await phoneOwner(request, email, registrationToken);
      if (currentToken && user.phoneVerified && user.phoneNumber !== phone && stepUpCode) {
        // With a passkey, a new number also needs an assertion made for it (docs/design.md, "Passkeys"),
        // asked for with the e-mailed step-up code (without it, the code is asked for first).
        await app.stepUp.confirm(user.id, 'phone.change', { phone }, stepUpHeader(request));
      }
      await accounts.sendPhoneCode(user, phone, request.ip, stepUpCode);
      return { message: `We sent a 6-digit code to ${phone}.` };
    },
  );

  app.post(
    '/api/verification/verify/phone',
    {
      schema: {
        body: verifyPhoneOtpSchema,
        response: { 200: sessionResponseSchema, ...refusals, 401: error, 404: error, 409: error },
      },
      config: { blockedPlaces: true, session: 'optional', rateLimit: VERIFY_LIMIT },
    },
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
}

/** Login by e-mailed code, its second step for an admin with two-factor authentication, and Google. */
function loginRoutes(app: App, context: AccountRouteContext): void {
  const { accounts, mfa, SEND_LIMIT, VERIFY_LIMIT, sessionAnswer, loginAnswer } = context;
  app.post(
    '/api/user/login-otp/send',
    {
      schema: {
        body: loginOtpRequestSchema,
        // One answer for every well-formed e-mail: whether it has an account is never told.
        response: { 200: messageResponseSchema, ...refusals },
      },
      config: { blockedPlaces: true, rateLimit: SEND_LIMIT },
    },
    async (request) => {
      await accounts.sendLoginCode(request.body.email, request.ip);
      return { message: LOGIN_CODE_SENT };
    },
  );

  app.post(
    '/api/user/login-otp/verify',
    {
      schema: {
        body: verifyLoginOtpSchema,
        response: { 200: loginResponseSchema, ...refusals },
      },
      config: { blockedPlaces: true, rateLimit: VERIFY_LIMIT },
    },
    async (request) =>
      loginAnswer(await accounts.verifyLogin(request.body.email, request.body.code), 'Logged in.'),
  );

  app.post(
    '/api/user/login-mfa/verify',
    {
      schema: {
        body: verifyLoginMfaSchema,
        // 401: the second step timed out, was used or ran out of tries: log in again.
        response: { 200: sessionResponseSchema, ...refusals, 401: error },
      },
      config: { blockedPlaces: true, rateLimit: VERIFY_LIMIT },
    },
    async (request) => {
      const userId = await mfa.completeChallenge(request.body.mfaToken, request.body.code);
      const user = await accounts.findUser(userId);
      if (!user || user.disabledAt) {
        throw new AppError('UNAUTHENTICATED', 'Your sign-in has timed out. Log in again.');
      }
      return sessionAnswer(user, 'Logged in.');
    },
  );

  const { googleSignIn } = app.providers;
  app.post(
    '/api/user/google/login',
    {
      schema: {
        body: googleLoginSchema,
        // 404: Google sign-in is not set up; 409: the e-mail belongs to another Google account.
        response: { 200: loginResponseSchema, ...refusals, 401: error, 404: error, 409: error },
      },
      config: { blockedPlaces: true, rateLimit: VERIFY_LIMIT },
    },
    async (request) => {
      if (!googleSignIn) throw new AppError('NOT_FOUND', 'Google sign-in is not available.');
      let identity;
      try {
        identity = await googleSignIn.verifyIdToken(request.body.credential);
      } catch (error) {
        if (error instanceof GoogleTokenError) {
          request.log.warn({ reason: error.message }, 'google sign-in refused');
          throw new AppError('UNAUTHENTICATED', 'Login failed!');
        }
        throw error;
      }
      return loginAnswer(await accounts.signInWithGoogle(identity), 'Logged in with Google.');
    },
  );
}

/** A signed-in customer's step-up code, e-mail change and logout. */
function contactChangeRoutes(app: App, context: AccountRouteContext): void {
  const { accounts, SEND_LIMIT, VERIFY_LIMIT } = context;
  app.post(
    '/api/user/step-up/send',
    {
      preHandler: requireSignedIn(app),
      schema: {
        // 401: not signed in; 503: the code could not be sent.
        response: { 200: messageResponseSchema, ...refusals, 401: error, 503: error },
      },
      config: { rateLimit: SEND_LIMIT },
    },
    async (request) => {
      const { user } = signedInUser(request);
      await accounts.sendStepUpCode(user, request.ip);
      return { message: `We sent a security code to ${user.email}.` };
    },
  );

  app.post(
    '/api/user/email/change',
    {
      preHandler: requireSignedIn(app),
      schema: {
        body: emailChangeRequestSchema,
        response: { 200: messageResponseSchema, ...refusals, 401: error, 503: error },
      },
      config: { rateLimit: SEND_LIMIT },
    },
    async (request) => {
      const { user } = signedInUser(request);
      const { newEmail, stepUpCode } = request.body;
      await app.stepUp.confirm(user.id, 'email.change', { newEmail }, stepUpHeader(request));
      await accounts.sendEmailChangeCode(user, newEmail, stepUpCode, request.ip);
      return { message: `We sent a 6-digit code to ${newEmail}.` };
    },
  );

  app.post(
    '/api/user/email/change/verify',
    {
      preHandler: requireSignedIn(app),
      schema: {
        body: emailChangeVerifySchema,
        response: { 200: userAnswerSchema, ...refusals, 401: error, 404: error },
      },
      config: { rateLimit: VERIFY_LIMIT },
    },
    async (request) => {
      const { user, isAdmin } = signedInUser(request);
      const changed = await accounts.changeEmail(user, request.body.newEmail, request.body.code);
      return { message: 'Your email is changed.', user: toUserResponse(changed, isAdmin) };
    },
  );

  app.post(
    '/api/user/logout',
    {
      preHandler: requireSignedIn(app),
      schema: { response: { 200: messageResponseSchema, 400: error, 401: error, 403: error, 500: error } },
    },
    async (request) => {
      const { sessionId, user } = signedInUser(request);
      await app.sessions.revoke(sessionId);
      // A registration still open in another tab ends with the session.
      await accounts.endRegistration(user.id);
      return { message: 'You are logged out.' };
    },
  );
}
