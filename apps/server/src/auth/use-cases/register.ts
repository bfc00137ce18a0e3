import { users, type UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { findReferralCodeHolders } from '../../referrals/referral.repository';
import { ACCOUNT_EXISTS, type AccountContext } from './account-context';

/** Registration, step 1: a code to the e-mail, or a notice to the owner if it has an account. */
export async function sendRegistrationCode(ctx: AccountContext, email: string, ip: string): Promise<void> {
  const { otp, notifications, publicUrl } = ctx.deps;
  // The answer never tells whether the e-mail has an account (docs/design.md): a code is issued
  // either way (same work, same limits), but the owner of an existing account gets a notice instead.
  const existing = await ctx.findUserByEmail(email);
  const code = await otp.issue('new-account', email, ip);
  if (!existing) {
    await ctx.sendEmailCode(email, code, 'Verify your email for OffZero');
    return;
  }
  await ctx.deliver(() =>
    notifications.email.send({
      to: email,
      subject: 'You already have an OffZero account',
      text:
        `Someone asked to register a new OffZero account with this email, but you already have one. ` +
        `To sign in, open ${publicUrl}/login and enter this email: we will send you a login code. ` +
        `If it was not you, you can ignore this email.`,
    }),
  );
}

/** Registration, step 2: the e-mail's code creates the account (with its referrer, if named). */
export async function verifyRegistrationEmail(
  ctx: AccountContext,
  email: string,
  code: string,
  referralCode: string | undefined,
): Promise<UserRow> {
  const { db, otp } = ctx.deps;
  // Check the referral code before using up the e-mail code, so a typo costs nothing.
  const referredByUserId = referralCode ? await referrerOf(ctx, referralCode) : null;
  // An existing account's registration code was never sent, so only a wrong code is ever said here.
  await otp.verify('new-account', email, code);
  if (await ctx.findUserByEmail(email)) throw new AppError('ACCOUNT_EXISTS', ACCOUNT_EXISTS);
  const [created] = await db
    .insert(users)
    .values({ email, emailVerified: true, referredByUserId })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (!created) throw new AppError('ACCOUNT_EXISTS', ACCOUNT_EXISTS);
  return created;
}

async function referrerOf(ctx: AccountContext, referralCode: string): Promise<string> {
  const [holder, other] = await findReferralCodeHolders(ctx.deps.db, referralCode);
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
      {
        referralCode: 'Type the code with its capital letters',
      },
    );
  }
  return holder.id;
}
