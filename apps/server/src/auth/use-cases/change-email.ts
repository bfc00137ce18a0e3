import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { users, type UserRow } from '../../db/schema';
import { isUniqueViolation } from '../../db/postgres-errors';
import { AppError } from '../../http/errors';
import { writeOutbox } from '../../outbox/outbox.repository';
import { forgetCachedSessions } from '../sessions';
import type { AccountContext } from './account-context';

/**
 * Changing the e-mail, step 1: with the step-up code, sends a code to the new address (or, if that
 * address has an account, tells its owner instead, so the answer never says so).
 */
export async function sendEmailChangeCode(
  ctx: AccountContext,
  user: UserRow,
  newEmail: string,
  stepUpCode: string,
  ip: string,
): Promise<void> {
  const { otp, notifications, publicUrl } = ctx.deps;
  ctx.assertEnabled(user);
  if (newEmail === user.email) {
    throw new AppError('BAD_REQUEST', 'This is already your email. Enter the new address.');
  }
  await otp.verify('step-up', ctx.stepUpDestination(user), stepUpCode);
  const taken = await ctx.findUserByEmail(newEmail);
  const code = await otp.issue('step-up', ctx.emailChangeDestination(user, newEmail), ip);
  if (taken) {
    await ctx.deliver(() =>
      notifications.email.send({
        to: newEmail,
        subject: 'You already have an OffZero account',
        text:
          `Someone asked to move another OffZero account to this email, but you already have one here. ` +
          `To sign in, open ${publicUrl}/login. If it was not you, you can ignore this email.`,
      }),
    );
    return;
  }
  await ctx.sendEmailCode(newEmail, code, 'Confirm your new email for OffZero');
}

/** Step 2: the code from the new address changes the e-mail; the old address is told. */
export async function changeEmail(
  ctx: AccountContext,
  user: UserRow,
  newEmail: string,
  code: string,
): Promise<UserRow> {
  const { db, otp } = ctx.deps;
  ctx.assertEnabled(user);
  await otp.verify('step-up', ctx.emailChangeDestination(user, newEmail), code);
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
        throw new AppError('BAD_REQUEST', 'This code has expired or was already used. Ask for a new code.');
      }
      throw error;
    });
  await ctx.deps.outbox.deliverForUser(user.id);
  return updated;
}
