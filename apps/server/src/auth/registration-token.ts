import { and, eq, gt, isNull } from 'drizzle-orm';
import { jwtVerify, SignJWT } from 'jose';
import type { Database } from '../db/database';
import { registrationTokens } from '../db/schema';
import { isUuid } from '../http/ids';

/**
 * Between verifying the e-mail (step 2) and the phone (step 4) the customer has no session yet. This
 * short-lived token proves they own the e-mail, so nobody else can attach a phone to their account and
 * receive its session. It names a `registration_tokens` row (docs/design.md): it lives at most 15
 * minutes and ends when the phone is verified (its session is given once) or the user logs out.
 */
const AUDIENCE = 'offzero:registration';
export const REGISTRATION_TOKEN_TTL_MS = 15 * 60_000;

export interface RegistrationTokens {
  issue(userId: string, email: string): Promise<string>;
  /** The user id the token was issued for, or null if it is not a live registration token for `email`. */
  read(token: string, email: string): Promise<string | null>;
}

export function createRegistrationTokens(
  db: Database,
  secret: Uint8Array,
  now: () => Date = () => new Date(),
): RegistrationTokens {
  return {
    async issue(userId, email) {
      const issuedAt = now();
      const expiresAt = new Date(issuedAt.getTime() + REGISTRATION_TOKEN_TTL_MS);
      const [row] = await db
        .insert(registrationTokens)
        .values({ userId, expiresAt, createdAt: issuedAt })
        .returning({ id: registrationTokens.id });
      if (!row) throw new Error('registration token insert returned nothing');
      return new SignJWT({ email })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setJti(row.id)
        .setAudience(AUDIENCE)
        .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(secret);
    },

    async read(token, email) {
      let payload;
      try {
        ({ payload } = await jwtVerify(token, secret, {
          algorithms: ['HS256'],
          audience: AUDIENCE,
          currentDate: now(),
        }));
      } catch {
        return null;
      }
      const { sub, jti } = payload;
      if (payload.email !== email || typeof sub !== 'string' || typeof jti !== 'string') return null;
      if (!isUuid(sub) || !isUuid(jti)) return null;
      const [live] = await db
        .select({ id: registrationTokens.id })
        .from(registrationTokens)
        .where(
          and(
            eq(registrationTokens.id, jti),
            eq(registrationTokens.userId, sub),
            isNull(registrationTokens.consumedAt),
            gt(registrationTokens.expiresAt, now()),
          ),
        );
      return live ? sub : null;
    },
  };
}
