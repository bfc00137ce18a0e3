import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { isUuid } from '../http/ids';
import { AppError } from '../http/errors';
import type { Database } from '../db/database';
import { sessions, users, type UserRow } from '../db/schema';

/**
 * Session tokens: HS256 JWTs carrying `_id` (the user), `sid` (the session row) and `exp`. A token is
 * accepted only while its session row is live and the account is enabled, so logout and disabling an
 * account end it for real.
 */
export interface SignedInUser {
  user: UserRow;
  sessionId: string;
  isAdmin: boolean;
}

export interface SessionService {
  /** Opens a new session (every login gets a fresh token). */
  issue(userId: string): Promise<{ token: string; expiresAt: Date }>;
  /** The signed-in user, or null for a visitor or a token that is not valid. */
  optionalUser(request: FastifyRequest): Promise<SignedInUser | null>;
  /** The signed-in user, or a 401 AppError. */
  requireUser(request: FastifyRequest): Promise<SignedInUser>;
  revoke(sessionId: string): Promise<void>;
  revokeAllFor(userId: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionService;
  }
  interface FastifyRequest {
    /** Set by `requireSignedIn` for the handler that follows it. */
    signedIn?: SignedInUser;
  }
}

const ALGORITHM = 'HS256';
const NOT_SIGNED_IN = 'Your session has ended. Log in again.';

export function createSessionService(options: {
  db: Database;
  secret: Uint8Array;
  ttlSeconds: number;
  adminEmails: readonly string[];
  now?: () => Date;
}): SessionService {
  const { db, secret, ttlSeconds, adminEmails } = options;
  const now = options.now ?? (() => new Date());

  async function verify(token: string): Promise<SignedInUser | null> {
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(token, secret, { algorithms: [ALGORITHM], currentDate: now() }));
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
    if (typeof claims._id !== 'string' || typeof claims.sid !== 'string') return null;
    if (!isUuid(claims._id) || !isUuid(claims.sid)) return null;
    const [row] = await db
      .select({ user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.id, claims.sid),
          eq(sessions.userId, claims._id),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, now()),
          isNull(users.disabledAt),
        ),
      );
    if (!row) return null;
    return { user: row.user, sessionId: claims.sid, isAdmin: adminEmails.includes(row.user.email) };
  }

  function bearerToken(request: FastifyRequest): string | null {
    const header = request.headers.authorization;
    if (!header) return null;
    const match = /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header);
    return match?.[1] ?? '';
  }

  return {
    async issue(userId) {
      const issuedAt = now();
      const expiresAt = new Date(issuedAt.getTime() + ttlSeconds * 1000);
      const [session] = await db
        .insert(sessions)
        .values({ userId, expiresAt })
        .returning({ id: sessions.id });
      if (!session) throw new Error('session insert returned nothing');
      const token = await new SignJWT({ _id: userId, sid: session.id })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(secret);
      return { token, expiresAt };
    },
    async optionalUser(request) {
      const token = bearerToken(request);
      return token ? verify(token) : null;
    },
    async requireUser(request) {
      const token = bearerToken(request);
      const signedIn = token ? await verify(token) : null;
      if (!signedIn) throw new AppError('UNAUTHENTICATED', NOT_SIGNED_IN);
      return signedIn;
    },
    async revoke(sessionId) {
      await db
        .update(sessions)
        .set({ revokedAt: now() })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    },
    async revokeAllFor(userId) {
      await db
        .update(sessions)
        .set({ revokedAt: now() })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    },
  };
}

/** preHandler for routes that need a signed-in user; the handler reads `request.signedIn`. */
export function requireSignedIn(app: FastifyInstance) {
  return async (request: FastifyRequest): Promise<void> => {
    request.signedIn = await app.sessions.requireUser(request);
  };
}

/**
 * onRequest hook for the back office: signed in and an admin, else 401 / 403 before the body is even
 * read. In production an admin must have enrolled two-factor authentication first (DESIGN.md 7.6);
 * `mayEnrol` is for the enrolment calls themselves.
 */
export function requireAdmin(app: FastifyInstance, options: { mayEnrol?: boolean } = {}) {
  return async (request: FastifyRequest): Promise<void> => {
    const signedIn = await app.sessions.requireUser(request);
    if (!signedIn.isAdmin) throw new AppError('FORBIDDEN', 'This area is for OffZero staff only.');
    if (
      !options.mayEnrol &&
      app.config.mode === 'production' &&
      !(await app.adminMfa.isEnrolled(signedIn.user.id))
    ) {
      throw new AppError('MFA_ENROLMENT_REQUIRED', 'Set up two-factor authentication first.');
    }
    request.signedIn = signedIn;
  };
}

/** The signed-in user set by `requireSignedIn`; a programming error if the hook is missing. */
export function signedInUser(request: FastifyRequest): SignedInUser {
  if (!request.signedIn) throw new Error('route is missing the requireSignedIn preHandler');
  return request.signedIn;
}

/** DESIGN.md's ownership rule: an id the client sends must be the signed-in user's own. */
export function assertOwnId(request: FastifyRequest, claimedUserId: string): SignedInUser {
  const signedIn = signedInUser(request);
  if (claimedUserId !== signedIn.user.id) {
    throw new AppError('FORBIDDEN', 'You can only access your own account.');
  }
  return signedIn;
}
