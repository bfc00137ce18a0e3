import { jwtVerify, SignJWT } from 'jose';

/**
 * Between verifying the e-mail (step 2) and the phone (step 4) the customer has no session yet. This
 * short-lived token proves they own the e-mail, so nobody else can attach a phone to their account and
 * receive its session.
 */
const AUDIENCE = 'offzero:registration';
const TTL_SECONDS = 60 * 60;

export async function signRegistrationToken(
  secret: Uint8Array,
  userId: string,
  email: string,
): Promise<string> {
  return new SignJWT({ email })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${TTL_SECONDS}s`)
    .sign(secret);
}

/** The user id the token was issued for, or null if it is not a valid registration token for `email`. */
export async function readRegistrationToken(
  secret: Uint8Array,
  token: string,
  email: string,
): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], audience: AUDIENCE });
    if (payload.email !== email || typeof payload.sub !== 'string') return null;
    return payload.sub;
  } catch {
    return null;
  }
}
