import { eq } from 'drizzle-orm';
import { users, type UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import type { GoogleIdentity } from '../google-id-token';
import { forgetCachedSessions } from '../sessions';
import type { AccountContext } from './account-context';

/** Signs in with a verified Google identity: its linked account, the account of its e-mail, or a new one. */
export async function signInWithGoogle(ctx: AccountContext, identity: GoogleIdentity): Promise<UserRow> {
  const { db } = ctx.deps;
  const [linked] = await db.select().from(users).where(eq(users.googleId, identity.subject));
  if (linked) {
    ctx.assertEnabled(linked);
    return linked;
  }
  // Google has verified this e-mail, so an account that proved the same e-mail with a code is the
  // same person: link it by Google's subject id from now on.
  const existing = await ctx.findUserByEmail(identity.email);
  if (existing) {
    ctx.assertEnabled(existing);
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
}
