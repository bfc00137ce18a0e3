import { randomUUID } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { registrationTokens, users, type UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { writeOutbox } from '../../outbox/outbox.repository';
import { OTP_RULES } from '../otp.service';
import { forgetCachedSessions } from '../sessions';
import { PHONE_IN_USE, type AccountContext } from './account-context';

/** A phone change (the account had a verified number) needs a step-up code first (docs/design.md). */
export const STEP_UP_REQUIRED =
  'Enter the security code we sent to your email before changing your phone number.';

/** Sends a code by SMS to the phone the customer names; a change of a verified phone needs the step-up code. */
export async function sendPhoneCode(
  ctx: AccountContext,
  user: UserRow,
  phone: string,
  ip: string,
  stepUpCode?: string,
): Promise<void> {
  const { otp, notifications } = ctx.deps;
  ctx.assertEnabled(user);
  if (ctx.isPhoneChange(user, phone)) {
    if (stepUpCode) {
      await otp.verify('step-up', ctx.stepUpDestination(user), stepUpCode);
    } else if (
      // A new code for the same number within the step-up's 10 minutes (resend) needs no new one.
      !(await otp.issuedWithin('phone', ctx.phoneDestination(user, phone), OTP_RULES.validForMs))
    ) {
      throw new AppError('STEP_UP_REQUIRED', STEP_UP_REQUIRED);
    }
  }
  await assertPhoneFree(ctx, user, phone);
  // The code is bound to this user as well as the number, so it can only verify this account's phone;
  // a change's code exists only once the step-up code was given.
  const code = await otp.issue('phone', ctx.phoneDestination(user, phone), ip);
  await ctx.deliver(() =>
    notifications.sms.send({
      to: phone,
      subject: 'Phone verification',
      code,
      text: `Your OffZero verification code is ${code}. It expires in 10 minutes.`,
    }),
  );
}

/** The SMS code verifies the phone, ends the registration, and tells the old number of a change. */
export async function verifyPhone(
  ctx: AccountContext,
  user: UserRow,
  phone: string,
  code: string,
): Promise<UserRow> {
  const { db, otp } = ctx.deps;
  ctx.assertEnabled(user);
  await otp.verify('phone', ctx.phoneDestination(user, phone), code);
  await assertPhoneFree(ctx, user, phone);
  const oldPhone = ctx.isPhoneChange(user, phone) ? user.phoneNumber : null;
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
  if (oldPhone) await ctx.deps.outbox.deliverForUser(user.id);
  return updated;
}

/** A number verified on another account cannot be verified again. */
async function assertPhoneFree(ctx: AccountContext, user: UserRow, phone: string): Promise<void> {
  const [holder] = await ctx.deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.phoneNumber, phone), eq(users.phoneVerified, true), ne(users.id, user.id)));
  if (holder) throw new AppError('CONFLICT', PHONE_IN_USE);
}
