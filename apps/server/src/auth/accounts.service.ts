import { and, eq, ne } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import { users, type UserRow } from '../db/schema';
import { AppError } from '../http/errors';
import type { NotificationSender } from '../notifications/notification-sender';
import type { GoogleIdentity } from './google-id-token';
import type { OtpService } from './otp.service';

/** The account row the service hands to its routes, which do not import the database schema. */
export type { UserRow };

/**
 * Registration, login and phone verification (spec section 4): the rules, without HTTP. A user exists
 * from the moment their e-mail code is verified; the phone is verified afterwards.
 */
export interface AccountsService {
  sendRegistrationCode(email: string, ip: string): Promise<void>;
  verifyRegistrationEmail(email: string, code: string, referralCode: string | undefined): Promise<UserRow>;
  sendPhoneCode(user: UserRow, phone: string, ip: string): Promise<void>;
  verifyPhone(user: UserRow, phone: string, code: string): Promise<UserRow>;
  sendLoginCode(email: string, ip: string): Promise<void>;
  verifyLogin(email: string, code: string): Promise<UserRow>;
  signInWithGoogle(identity: GoogleIdentity): Promise<UserRow>;
  findUser(userId: string): Promise<UserRow | null>;
  findUserByEmail(email: string): Promise<UserRow | null>;
  updateName(userId: string, firstName: string, lastName: string): Promise<UserRow>;
}

const ACCOUNT_EXISTS = 'An account with this email already exists. Log in instead.';
const PHONE_IN_USE = 'This phone number is already verified on another account.';
const ACCOUNT_DISABLED = 'This account is disabled. Contact support for help.';

export function createAccountsService(deps: {
  db: Database;
  otp: OtpService;
  notifications: NotificationSender;
  log: FastifyBaseLogger;
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

  function assertEnabled(user: UserRow): void {
    if (user.disabledAt) throw new AppError('FORBIDDEN', ACCOUNT_DISABLED);
  }

  return {
    findUser,
    findUserByEmail,

    async sendRegistrationCode(email, ip) {
      if (await findUserByEmail(email)) throw new AppError('ACCOUNT_EXISTS', ACCOUNT_EXISTS);
      const code = await otp.issue('new-account', email, ip);
      await sendEmailCode(email, code, 'Verify your email for OffZero');
    },

    async verifyRegistrationEmail(email, code, referralCode) {
      if (await findUserByEmail(email)) throw new AppError('ACCOUNT_EXISTS', ACCOUNT_EXISTS);
      // Check the referral code before using up the e-mail code, so a typo costs nothing.
      let referredByUserId: string | null = null;
      if (referralCode) {
        const [referrer] = await db
          .select({ id: users.id })
          .from(users)
          .where(eq(users.referralCode, referralCode));
        if (!referrer) {
          throw new AppError(
            'BAD_REQUEST',
            'This referral code does not exist. Check it or leave the field empty.',
            {
              referralCode: 'Unknown referral code',
            },
          );
        }
        referredByUserId = referrer.id;
      }
      await otp.verify('new-account', email, code);
      const [created] = await db
        .insert(users)
        .values({ email, emailVerified: true, referredByUserId })
        .onConflictDoNothing({ target: users.email })
        .returning();
      if (!created) throw new AppError('ACCOUNT_EXISTS', ACCOUNT_EXISTS);
      return created;
    },

    async sendPhoneCode(user, phone, ip) {
      assertEnabled(user);
      const [holder] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.phoneNumber, phone), eq(users.phoneVerified, true), ne(users.id, user.id)));
      if (holder) throw new AppError('CONFLICT', PHONE_IN_USE);
      // The code is bound to this user as well as the number, so it can only verify this account's phone.
      const code = await otp.issue('phone', `${user.id}:${phone}`, ip);
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
      await otp.verify('phone', `${user.id}:${phone}`, code);
      const [holder] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.phoneNumber, phone), eq(users.phoneVerified, true), ne(users.id, user.id)));
      if (holder) throw new AppError('CONFLICT', PHONE_IN_USE);
      const [updated] = await db
        .update(users)
        .set({ phoneNumber: phone, phoneVerified: true, updatedAt: new Date() })
        .where(eq(users.id, user.id))
        .returning();
      if (!updated) throw new AppError('NOT_FOUND', 'This account no longer exists.');
      return updated;
    },

    async sendLoginCode(email, ip) {
      const user = await findUserByEmail(email);
      if (!user)
        throw new AppError(
          'ACCOUNT_NOT_FOUND',
          'We could not find an account with this email. Register first.',
        );
      assertEnabled(user);
      const code = await otp.issue('login', email, ip);
      await sendEmailCode(email, code, 'Your OffZero login code');
    },

    async verifyLogin(email, code) {
      const user = await findUserByEmail(email);
      if (!user)
        throw new AppError('NOT_FOUND', 'We could not find an account with this email. Register first.');
      assertEnabled(user);
      await otp.verify('login', email, code);
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
      if (!updated) throw new AppError('NOT_FOUND', 'This account no longer exists.');
      return updated;
    },
  };
}
