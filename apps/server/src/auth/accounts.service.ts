import { and, eq, isNull } from 'drizzle-orm';
import { registrationTokens, users, type UserRow } from '../db/schema';
import { AppError } from '../http/errors';
import type { GoogleIdentity } from './google-id-token';
import { forgetCachedSessions } from './sessions';
import { createAccountContext, type AccountsDeps } from './use-cases/account-context';
import { sendRegistrationCode, verifyRegistrationEmail } from './use-cases/register';
import { sendPhoneCode, verifyPhone } from './use-cases/verify-phone';
import { sendLoginCode, verifyLogin } from './use-cases/login-codes';
import { signInWithGoogle } from './use-cases/google-sign-in';
import { sendStepUpCode, verifyStepUpCode } from './use-cases/step-up';
import { changeEmail, sendEmailChangeCode } from './use-cases/change-email';

export { STEP_UP_REQUIRED } from './use-cases/verify-phone';

/** The account row the service hands to its routes, which do not import the database schema. */
export type { UserRow };

/**
 * Registration, login and phone verification: the rules, without HTTP. A user exists
 * from the moment their e-mail code is verified; the phone is verified afterwards.
 */
export interface AccountsService {
  sendRegistrationCode(email: string, ip: string): Promise<void>;
  verifyRegistrationEmail(email: string, code: string, referralCode: string | undefined): Promise<UserRow>;
  /** A change of a verified phone needs `stepUpCode` (from `sendStepUpCode`). */
  sendPhoneCode(user: UserRow, phone: string, ip: string, stepUpCode?: string): Promise<void>;
  verifyPhone(user: UserRow, phone: string, code: string): Promise<UserRow>;
  /** Sends a code to a known, enabled account; does the same work and answers the same otherwise. */
  sendLoginCode(email: string, ip: string): Promise<void>;
  verifyLogin(email: string, code: string): Promise<UserRow>;
  signInWithGoogle(identity: GoogleIdentity): Promise<UserRow>;
  findUser(userId: string): Promise<UserRow | null>;
  findUserByEmail(email: string): Promise<UserRow | null>;
  updateName(userId: string, firstName: string, lastName: string): Promise<UserRow>;
  /** Sends a step-up code to the signed-in user's current e-mail (before a contact is changed). */
  sendStepUpCode(user: UserRow, ip: string): Promise<void>;
  /** Checks and uses up a step-up code of this user; throws a 400/429 AppError otherwise. */
  verifyStepUpCode(user: UserRow, code: string): Promise<void>;
  /** A registration token (15 minutes, single use) for a user whose e-mail was just verified. */
  issueRegistrationToken(user: UserRow): Promise<string>;
  /** The user a live registration token for `email` was issued to, or null. */
  userForRegistrationToken(token: string, email: string): Promise<UserRow | null>;
  /**
   * Changing the e-mail, step 1: with the step-up code, sends a code to the new address (or, if that
   * address has an account, tells its owner instead, so the answer never says so).
   */
  sendEmailChangeCode(user: UserRow, newEmail: string, stepUpCode: string, ip: string): Promise<void>;
  /** Step 2: the code from the new address changes the e-mail; the old address is told. */
  changeEmail(user: UserRow, newEmail: string, code: string): Promise<UserRow>;
  /** Ends every registration token of this user (logout). */
  endRegistration(userId: string): Promise<void>;
}

/** The account use-cases (`use-cases/`, one per customer action) behind the one service routes call. */
export function createAccountsService(deps: AccountsDeps): AccountsService {
  const ctx = createAccountContext(deps);
  const { db } = deps;
  return {
    findUser: ctx.findUser,
    findUserByEmail: ctx.findUserByEmail,
    sendRegistrationCode: (email, ip) => sendRegistrationCode(ctx, email, ip),
    verifyRegistrationEmail: (email, code, referralCode) =>
      verifyRegistrationEmail(ctx, email, code, referralCode),
    sendPhoneCode: (user, phone, ip, stepUpCode) => sendPhoneCode(ctx, user, phone, ip, stepUpCode),
    verifyPhone: (user, phone, code) => verifyPhone(ctx, user, phone, code),
    sendLoginCode: (email, ip) => sendLoginCode(ctx, email, ip),
    verifyLogin: (email, code) => verifyLogin(ctx, email, code),
    signInWithGoogle: (identity: GoogleIdentity) => signInWithGoogle(ctx, identity),
    sendStepUpCode: (user, ip) => sendStepUpCode(ctx, user, ip),
    verifyStepUpCode: (user, code) => verifyStepUpCode(ctx, user, code),
    sendEmailChangeCode: (user, newEmail, stepUpCode, ip) =>
      sendEmailChangeCode(ctx, user, newEmail, stepUpCode, ip),
    changeEmail: (user, newEmail, code) => changeEmail(ctx, user, newEmail, code),

    async updateName(userId, firstName, lastName) {
      const [updated] = await db
        .update(users)
        .set({ firstName, lastName, updatedAt: new Date() })
        .where(eq(users.id, userId))
        .returning();
      forgetCachedSessions(userId);
      if (!updated) throw new AppError('NOT_FOUND', 'This account no longer exists.');
      return updated;
    },

    issueRegistrationToken: (user) => deps.registrationTokens.issue(user.id, user.email),

    async userForRegistrationToken(token, email) {
      const userId = await deps.registrationTokens.read(token, email);
      return userId ? ctx.findUser(userId) : null;
    },

    async endRegistration(userId) {
      await db
        .update(registrationTokens)
        .set({ consumedAt: new Date() })
        .where(and(eq(registrationTokens.userId, userId), isNull(registrationTokens.consumedAt)));
    },
  };
}
