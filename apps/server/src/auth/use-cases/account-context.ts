import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import { users, type UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import type { NotificationSender } from '../../notifications/notification-sender';
import type { OtpService } from '../otp.service';
import type { RegistrationTokens } from '../registration-token';

/** What the account use-cases are built from (made once by the app). */
export interface AccountsDeps {
  db: Database;
  otp: OtpService;
  registrationTokens: RegistrationTokens;
  notifications: NotificationSender;
  log: FastifyBaseLogger;
  /** Where the login page is, for the "you already have an account" e-mail. */
  publicUrl: string;
  /** Delivers the change notices written to the outbox as soon as they are committed. */
  outbox: { deliverForUser(userId: string): Promise<void> };
}

export const ACCOUNT_EXISTS = 'An account with this email already exists. Log in instead.';
export const PHONE_IN_USE = 'This phone number is already verified on another account.';
const ACCOUNT_DISABLED = 'This account is disabled. Contact support for help.';

/** The lookups, deliveries and code addresses every account use-case shares. */
export type AccountContext = ReturnType<typeof createAccountContext>;

export function createAccountContext(deps: AccountsDeps) {
  const { db, notifications } = deps;

  async function findUserByEmail(email: string): Promise<UserRow | null> {
    const [row] = await db.select().from(users).where(eq(users.email, email));
    return row ?? null;
  }

  async function findUser(userId: string): Promise<UserRow | null> {
    const [row] = await db.select().from(users).where(eq(users.id, userId));
    return row ?? null;
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

  const isPhoneChange = (user: UserRow, phone: string) =>
    user.phoneVerified && user.phoneNumber !== null && user.phoneNumber !== phone;

  return {
    deps,
    findUser,
    findUserByEmail,
    deliver,
    sendEmailCode,
    isPhoneChange,
    stepUpDestination: (user: UserRow) => `${user.id}:${user.email}`,
    emailChangeDestination: (user: UserRow, newEmail: string) => `${user.id}:new-email:${newEmail}`,
    phoneDestination: (user: UserRow, phone: string) =>
      isPhoneChange(user, phone) ? `${user.id}:${phone}:change` : `${user.id}:${phone}`,
    assertEnabled(user: UserRow): void {
      if (user.disabledAt) throw new AppError('FORBIDDEN', ACCOUNT_DISABLED);
    },
  };
}
