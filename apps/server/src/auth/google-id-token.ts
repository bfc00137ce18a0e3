import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';

/** What a verified Google ID token tells us about the person. */
export interface GoogleIdentity {
  subject: string;
  email: string;
  firstName: string;
  lastName: string;
  picture: string | null;
}

export class GoogleTokenError extends Error {
  override name = 'GoogleTokenError';
}

const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

/**
 * Verifies a Google Identity Services credential: signature against Google's published keys, audience
 * (our client id), issuer, expiry, and a verified e-mail. Nothing the browser says about it is trusted.
 */
export function createGoogleIdTokenVerifier(options: { clientId: string; jwksUrl: string }) {
  const keys: JWTVerifyGetKey = createRemoteJWKSet(new URL(options.jwksUrl), { timeoutDuration: 5_000 });
  return async function verifyGoogleIdToken(credential: string): Promise<GoogleIdentity> {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(credential, keys, {
        algorithms: ['RS256'],
        issuer: GOOGLE_ISSUERS,
        audience: options.clientId,
      }));
    } catch (error) {
      throw new GoogleTokenError(`Google ID token refused: ${(error as Error).message}`);
    }
    if (typeof payload.sub !== 'string' || typeof payload.email !== 'string') {
      throw new GoogleTokenError('Google ID token has no subject or e-mail');
    }
    if (payload.email_verified !== true) throw new GoogleTokenError('Google has not verified this e-mail');
    return {
      subject: payload.sub,
      email: payload.email.trim().toLowerCase(),
      firstName: typeof payload.given_name === 'string' ? payload.given_name.slice(0, 60) : '',
      lastName: typeof payload.family_name === 'string' ? payload.family_name.slice(0, 60) : '',
      picture:
        typeof payload.picture === 'string' && payload.picture.startsWith('https://')
          ? payload.picture
          : null,
    };
  };
}
