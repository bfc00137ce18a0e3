import type { UserRow } from '../../db/schema';
import type { AccountContext } from './account-context';

/** Sends a step-up code to the signed-in user's current e-mail (before a contact is changed). */
export async function sendStepUpCode(ctx: AccountContext, user: UserRow, ip: string): Promise<void> {
  ctx.assertEnabled(user);
  const code = await ctx.deps.otp.issue('step-up', ctx.stepUpDestination(user), ip);
  await ctx.deliver(() =>
    ctx.deps.notifications.email.send({
      to: user.email,
      subject: 'Your OffZero security code',
      code,
      text: `Your OffZero security code is ${code}. It confirms a change of your phone number or email and expires in 10 minutes. If you did not ask for it, contact support at once.`,
    }),
  );
}

/** Checks and uses up a step-up code of this user; throws a 400/429 AppError otherwise. */
export async function verifyStepUpCode(ctx: AccountContext, user: UserRow, code: string): Promise<void> {
  await ctx.deps.otp.verify('step-up', ctx.stepUpDestination(user), code);
}
