import type { UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import type { AccountContext } from './account-context';

/** Sends a code to a known, enabled account; does the same work and answers the same otherwise. */
export async function sendLoginCode(ctx: AccountContext, email: string, ip: string): Promise<void> {
  // Same answer for a known, unknown or disabled e-mail (docs/design.md); the code is issued either
  // way, so the work and the limits are the same, and is sent to a known, enabled account only.
  const user = await ctx.findUserByEmail(email);
  const code = await ctx.deps.otp.issue('login', email, ip);
  if (!user || user.disabledAt) return;
  try {
    await ctx.sendEmailCode(email, code, 'Your OffZero login code');
  } catch (error) {
    // A failure only a known account could see would tell who has one: log it and answer as usual.
    ctx.deps.log.warn({ err: error }, 'login code not sent');
  }
}

/** The e-mailed code signs the customer in. */
export async function verifyLogin(ctx: AccountContext, email: string, code: string): Promise<UserRow> {
  const user = await ctx.findUserByEmail(email);
  // A code was issued (not sent) for an unknown or disabled e-mail too, so wrong codes use up its
  // tries with the same answers; only the right one, which nobody was given, ends differently.
  await ctx.deps.otp.verify('login', email, code);
  if (!user || user.disabledAt) {
    throw new AppError('BAD_REQUEST', 'This code has expired or was already used. Ask for a new code.');
  }
  return user;
}
