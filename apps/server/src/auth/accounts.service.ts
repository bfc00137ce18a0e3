import { and, eq, isNull, ne } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import { registrationTokens, users, type UserRow } from '../db/schema';
import { AppError } from '../http/errors';
import type { NotificationSender } from '../notifications/notification-sender';
import type { GoogleIdentity } from './google-id-token';
import { OTP_RULES, type OtpService } from './otp.service';
import type { RegistrationTokens } from './registration-token';
import { writeOutbox } from '../outbox/outbox.repository';
import { isUniqueViolation } from '../db/postgres-errors';
import { randomUUID } from 'node:crypto';
import { forgetCachedSessions } from './sessions';
import { findReferralCodeHolders } from '../referrals/referral.repository';

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

/** A phone change (the account had a verified number) needs a step-up code first (docs/design.md). */
export const STEP_UP_REQUIRED =
  'Enter the security code we sent to your email before changing your phone number.';

const ACCOUNT_EXISTS = 'An account with this email already exists. Log in instead.';
const PHONE_IN_USE = 'This phone number is already verified on another account.';
const ACCOUNT_DISABLED = 'This account is disabled. Contact support for help.';

export function createAccountsService(deps: {
  db: Database;
  otp: OtpService;
  registrationTokens: RegistrationTokens;
  notifications: NotificationSender;
  log: FastifyBaseLogger;
  /** Where the login page is, for the "you already have an account" e-mail. */
  publicUrl: string;
  /** Delivers the change notices written to the outbox as soon as they are committed. */
  outbox: { deliverForUser(userId: string): Promise<void> };
}): AccountsService {
  const { db, otp, notifications } = deps;

  async function findUserByEmail(email: string): Promise<UserRow | null> {
    const [row] = await db.select().from(users).where(eq(users.email, email));
    return row ?? null;
  }

  async function findUser(userId: string): Promise<UserRow | null> {
    const [row] = await db.select().from(users).where(eq(users.id, userId));
    return row ?? null;
  }

  async function sendEmailCode(email: string, code: string, subject: string): Promise<void> {
    await deliver(() =>
      notifications.email.send({
        to: email,
        subject,
        code,
        text: `Your OffZero code is ${code}. It expires in 10 minutes. If you did not ask for it, ignore this email.`,
      }),
    );
  }

  /** A provider failure becomes a 503 the customer can retry; the details go to the log only. */
  async function deliver(send: () => Promise<void>): Promise<void> {
    try {
      await send();
    } catch (error) {
      deps.log.error({ err: error }, 'message delivery failed');
      throw new AppError('UNAVAILABLE', 'We could not send your code just now. Try again in a minute.');
    }
  }

  const isPhoneChange = (user: UserRow, phone: string) =>
    user.phoneVerified && user.phoneNumber !== null && user.phoneNumber !== phone;
  const stepUpDestination = (user: UserRow) => `${user.id}:${user.email}`;
  const emailChangeDestination = (user: UserRow, newEmail: string) => `${user.id}:new-email:${newEmail}`;
  const phoneDestination = (user: UserRow, phone: string) =>
    isPhoneChange(user, phone) ? `${user.id}:${phone}:change` : `${user.id}:${phone}`;

  function assertEnabled(user: UserRow): void {
    if (user.disabledAt) throw new AppError('FORBIDDEN', ACCOUNT_DISABLED);
  }

  return {
    findUser,
    findUserByEmail,

    async sendRegistrationCode(email, ip) {
      // The answer never tells whether the e-mail has an account (docs/design.md): a code is issued
      // either way (same work, same limits), but the owner of an existing account gets a notice instead.
      const existing = await findUserByEmail(email);
      const code = await otp.issue('new-account', email, ip);
      if (!existing) {
        await sendEmailCode(email, code, 'Verify your email for OffZero');
        return;
      }
      await deliver(() =>
        notifications.email.send({
          to: email,
          subject: 'You already have an OffZero account',
          text:
            `Someone asked to register a new OffZero account with this email, but you already have one. ` +
            `To sign in, open ${deps.publicUrl}/login and enter this email: we will send you a login code. ` +
            `If it was not you, you can ignore this email.`,
        }),
      );
    },

    async verifyRegistrationEmail(email, code, referralCode) {
      // Check the referral code before using up the e-mail code, so a typo costs nothing.
      let referredByUserId: string | null = null;
      if (referralCode) {
        const [holder, other] = await findReferralCodeHolders(db, referralCode);
        if (!holder) {
          throw new AppError(
            'BAD_REQUEST',
            'This referral code does not exist. Check it or leave the field empty.',
            {
              referralCode: 'Unknown referral code',
            },
          );
        }
        // Never a guess between two customers: only the exact spelling tells them apart.
        if (other && holder.referralCode !== referralCode) {
          throw new AppError(
            'BAD_REQUEST',
            'Type this referral code exactly as it was shared, with its capital letters.',
            { referralCode: 'Type the code with its capital letters' },
          );
        }
        referredByUserId = holder.id;
      }
      // An existing account's registration code was never sent, so only a wrong code is ever said here.
      await otp.verify('new-account', email, code);
      if (await findUserByEmail(email)) throw new AppError('ACCOUNT_EXISTS', ACCOUNT_EXISTS);
      const [created] = await db
        .insert(users)
        .values({ email, emailVerified: true, referredByUserId })
        .onConflictDoNothing({ target: users.email })
        .returning();
      if (!created) throw new AppError('ACCOUNT_EXISTS', ACCOUNT_EXISTS);
      return created;
    },

    async sendPhoneCode(user, phone, ip, stepUpCode) {
      assertEnabled(user);
      if (isPhoneChange(user, phone)) {
        if (stepUpCode) {
          await otp.verify('step-up', stepUpDestination(user), stepUpCode);
        } else if (
          // A new code for the same number within the step-up's 10 minutes (resend) needs no new one.
          !(await otp.issuedWithin('phone', phoneDestination(user, phone), OTP_RULES.validForMs))
        ) {
          throw new AppError('STEP_UP_REQUIRED', STEP_UP_REQUIRED);
        }
      }
      const [holder] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.phoneNumber, phone), eq(users.phoneVerified, true), ne(users.id, user.id)));
      if (holder) throw new AppError('CONFLICT', PHONE_IN_USE);
      // The code is bound to this user as well as the number, so it can only verify this account's phone;
      // a change's code exists only once the step-up code was given.
      const code = await otp.issue('phone', phoneDestination(user, phone), ip);
      await deliver(() =>
        notifications.sms.send({
          to: phone,
          subject: 'Phone verification',
          code,
          text: `Your OffZero verification code is ${code}. It expires in 10 minutes.`,
        }),
      );
    },

    async verifyPhone(user, phone, code) {
      assertEnabled(user);
      await otp.verify('phone', phoneDestination(user, phone), code);
      const [holder] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.phoneNumber, phone), eq(users.phoneVerified, true), ne(users.id, user.id)));
      if (holder) throw new AppError('CONFLICT', PHONE_IN_USE);
      const oldPhone = isPhoneChange(user, phone) ? user.phoneNumber : null;
      const updated = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(users)
          .set({ phoneNumber: phone, phoneVerified: true, updatedAt: new Date() })
          .where(eq(users.id, user.id))
          .returning();
        forgetCachedSessions(user.id);
        if (!row) throw new AppError('NOT_FOUND', 'This account no longer exists.');
        // A verified phone ends the registration: its token cannot be used again.
        await tx
          .update(registrationTokens)
          .set({ consumedAt: new Date() })
          .where(and(eq(registrationTokens.userId, user.id), isNull(registrationTokens.consumedAt)));
        if (oldPhone) {
          // The old number hears of the change, so a stolen session cannot quietly take the account.
          await writeOutbox(tx, [
            {
              eventKey: `phone-changed:${randomUUID()}`,
              channel: 'sms',
              recipient: oldPhone,
              userId: user.id,
              payload: {
                subject: 'Phone number changed',
                text: `Your OffZero phone number was changed to one ending in ${phone.slice(-4)}. If this was not you, contact support at once.`,
              },
            },
          ]);
        }
        return row;
      });
      if (oldPhone) await deps.outbox.deliverForUser(user.id);
      return updated;
    },

    async sendLoginCode(email, ip) {
      // Same answer for a known, unknown or disabled e-mail (docs/design.md); the code is issued either
      // way, so the work and the limits are the same, and is sent to a known, enabled account only.
      const user = await findUserByEmail(email);
      const code = await otp.issue('login', email, ip);
      if (!user || user.disabledAt) return;
      try {
        await sendEmailCode(email, code, 'Your OffZero login code');
      } catch (error) {
        // A failure only a known account could see would tell who has one: log it and answer as usual.
        deps.log.warn({ err: error }, 'login code not sent');
      }
    },

    async verifyLogin(email, code) {
      const user = await findUserByEmail(email);
      // A code was issued (not sent) for an unknown or disabled e-mail too, so wrong codes use up its
      // tries with the same answers; only the right one, which nobody was given, ends differently.
      await otp.verify('login', email, code);
      if (!user || user.disabledAt) {
        throw new AppError('BAD_REQUEST', 'This code has expired or was already used. Ask for a new code.');
      }
      return user;
    },

    async signInWithGoogle(identity) {
      const [linked] = await db.select().from(users).where(eq(users.googleId, identity.subject));
      if (linked) {
        assertEnabled(linked);
        return linked;
      }
      // Google has verified this e-mail, so an account that proved the same e-mail with a code is the
      // same person: link it by Google's subject id from now on.
      const existing = await findUserByEmail(identity.email);
      if (existing) {
        assertEnabled(existing);
        if (existing.googleId && existing.googleId !== identity.subject) {
          throw new AppError('CONFLICT', 'This email is linked to a different Google account.');
        }
        const [updated] = await db
          .update(users)
          .set({
            googleId: identity.subject,
            emailVerified: true,
            image: existing.image ?? identity.picture,
            firstName: existing.firstName || identity.firstName,
            lastName: existing.lastName || identity.lastName,
            updatedAt: new Date(),
          })
          .where(eq(users.id, existing.id))
          .returning();
        forgetCachedSessions(existing.id);
        return updated ?? existing;
      }
      const [created] = await db
        .insert(users)
        .values({
          email: identity.email,
          emailVerified: true,
          googleId: identity.subject,
          firstName: identity.firstName,
          lastName: identity.lastName,
          image: identity.picture,
        })
        .returning();
      if (!created) throw new AppError('CONFLICT', 'This account was just created. Sign in again.');
      return created;
    },

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

    async sendStepUpCode(user, ip) {
      assertEnabled(user);
      const code = await otp.issue('step-up', stepUpDestination(user), ip);
      await deliver(() =>
        notifications.email.send({
          to: user.email,
          subject: 'Your OffZero security code',
          code,
          text: `Your OffZero security code is ${code}. It confirms a change of your phone number or email and expires in 10 minutes. If you did not ask for it, contact support at once.`,
        }),
      );
    },

    async verifyStepUpCode(user, code) {
      await otp.verify('step-up', stepUpDestination(user), code);
    },

    issueRegistrationToken: (user) => deps.registrationTokens.issue(user.id, user.email),

    async userForRegistrationToken(token, email) {
      const userId = await deps.registrationTokens.read(token, email);
      return userId ? findUser(userId) : null;
    },

    async endRegistration(userId) {
      await db
        .update(registrationTokens)
        .set({ consumedAt: new Date() })
        .where(and(eq(registrationTokens.userId, userId), isNull(registrationTokens.consumedAt)));
    },

    async sendEmailChangeCode(user, newEmail, stepUpCode, ip) {
      assertEnabled(user);
      if (newEmail === user.email) {
        throw new AppError('BAD_REQUEST', 'This is already your email. Enter the new address.');
      }
      await otp.verify('step-up', stepUpDestination(user), stepUpCode);
      const taken = await findUserByEmail(newEmail);
      const code = await otp.issue('step-up', emailChangeDestination(user, newEmail), ip);
      if (taken) {
        await deliver(() =>
          notifications.email.send({
            to: newEmail,
            subject: 'You already have an OffZero account',
            text:
              `Someone asked to move another OffZero account to this email, but you already have one here. ` +
              `To sign in, open ${deps.publicUrl}/login. If it was not you, you can ignore this email.`,
          }),
        );
        return;
      }
      await sendEmailCode(newEmail, code, 'Confirm your new email for OffZero');
    },

    async changeEmail(user, newEmail, code) {
      assertEnabled(user);
      await otp.verify('step-up', emailChangeDestination(user, newEmail), code);
      const oldEmail = user.email;
      const updated = await db
        .transaction(async (tx) => {
          const [row] = await tx
            .update(users)
            .set({ email: newEmail, emailVerified: true, updatedAt: new Date() })
            .where(eq(users.id, user.id))
            .returning();
          forgetCachedSessions(user.id);
          if (!row) throw new AppError('NOT_FOUND', 'This account no longer exists.');
          // The old address hears of the change, so a stolen session cannot quietly take the account.
          await writeOutbox(tx, [
            {
              eventKey: `email-changed:${randomUUID()}`,
              channel: 'email',
              recipient: oldEmail,
              userId: user.id,
              payload: {
                subject: 'Your OffZero email was changed',
                text: `The email of your OffZero account was changed from ${oldEmail} to ${newEmail}. If this was not you, contact support at once.`,
              },
            },
          ]);
          return row;
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) {
            throw new AppError(
              'BAD_REQUEST',
              'This code has expired or was already used. Ask for a new code.',
            );
          }
          throw error;
        });
      await deps.outbox.deliverForUser(user.id);
      return updated;
    },
  };
}
