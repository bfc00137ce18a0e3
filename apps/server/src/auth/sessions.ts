import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { isUuid } from '../http/ids';
import { AppError } from '../http/errors';
import { refusesWithoutSession } from '../http/route-security';
import type { Database } from '../db/database';
import { sessions, users, type UserRow } from '../db/schema';

/**
 * Session tokens: HS256 JWTs carrying `_id` (the user), `sid` (the session row) and `exp`. A token is
 * accepted only while its session row is live and the account is enabled, so logout and disabling an
 * account end it for real.
 *
 * A checked token is remembered for under a second (SESSION_CHECK_CACHE_MS), keyed by the exact token:
 * a customer's quick succession of calls costs one session query, not one each, and a cached answer
 * can only ever go back to the bearer of that same token. Logging out or disabling an account still
 * takes effect everywhere within one second: this process forgets the user's entries at once, and
 * every other process's entries expire by then. Code that changes a user's row calls
 * `forgetCachedSessions(userId)` so this process reads the new row at once.
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
  /** Forgets this service's cached checks (the app is closing). */
  close(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionService;
  }
  interface FastifyRequest {
    /** Set by `requireSignedIn` for the handler that follows it; null before (decorated in app.ts). */
    signedIn: SignedInUser | null;
  }
}

const ALGORITHM = 'HS256';
/**
 * How long a checked session is trusted without asking the database again. Counted from before the
 * query, so a logout or a disabled account in another process is honoured within this (< 1 s).
 */
export const SESSION_CHECK_CACHE_MS = 900;
/** At most this many tokens are remembered per process; past it the cache starts again empty. */
const SESSION_CACHE_MAX_ENTRIES = 10_000;

interface CachedCheck {
  /** The check's answer (a signed-in user: refusals are not remembered). */
  answer: Promise<SignedInUser | null>;
  userId: string;
  sessionId: string;
  /** Trusted until this time (epoch ms), and never past the token's own expiry. */
  until: number;
}

/** Every session service of this process (tests build several apps in one process). */
const liveCaches = new Set<Map<string, CachedCheck>>();

/**
 * Drops this process's cached session checks of a user, so the next request reads their row again:
 * call it after changing a user's row or ending their sessions.
 */
export function forgetCachedSessions(userId: string): void {
  for (const cache of liveCaches) {
    for (const [token, entry] of cache) if (entry.userId === userId) cache.delete(token);
  }
}

/** A copy, so no request can change what another request is handed. */
function copyOf(signedIn: SignedInUser | null): SignedInUser | null {
  return signedIn && { ...signedIn, user: { ...signedIn.user } };
}
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
  const cache = new Map<string, CachedCheck>();
  liveCaches.add(cache);

  /** The token's check, answered from the cache while it is fresh. */
  async function verify(token: string): Promise<SignedInUser | null> {
    const startedAt = now().getTime();
    const cached = cache.get(token);
    if (cached && cached.until > startedAt) return copyOf(await cached.answer);
    if (cached) cache.delete(token);
    const answer = check(token);
    const signedIn = await answer;
    if (!signedIn) return null;
    if (cache.size >= SESSION_CACHE_MAX_ENTRIES) cache.clear();
    const tokenExpiresAt = jwtExpiry(token);
    cache.set(token, {
      answer,
      userId: signedIn.user.id,
      sessionId: signedIn.sessionId,
      until: Math.min(startedAt + SESSION_CHECK_CACHE_MS, tokenExpiresAt),
    });
    return copyOf(signedIn);
  }

  function forgetSession(sessionId: string): void {
    for (const [token, entry] of cache) if (entry.sessionId === sessionId) cache.delete(token);
  }

  async function check(token: string): Promise<SignedInUser | null> {
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
      forgetSession(sessionId);
      await db
        .update(sessions)
        .set({ revokedAt: now() })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
      forgetSession(sessionId);
    },
    async revokeAllFor(userId) {
      forgetCachedSessions(userId);
      await db
        .update(sessions)
        .set({ revokedAt: now() })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
      forgetCachedSessions(userId);
    },
    close() {
      cache.clear();
      liveCaches.delete(cache);
    },
  };
}

/** The `exp` of a token already verified (epoch ms); 0 when it has none, which caches nothing. */
function jwtExpiry(token: string): number {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      exp?: unknown;
    };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : 0;
  } catch {
    return 0;
  }
}

/** preHandler for routes that need a signed-in user; the handler reads `request.signedIn`. */
export function requireSignedIn(app: FastifyInstance) {
  return refusesWithoutSession(async (request: FastifyRequest): Promise<void> => {
    request.signedIn = await app.sessions.requireUser(request);
  });
}

/**
 * onRequest hook for the back office: signed in and an admin, else 401 / 403 before the body is even
 * read. In production an admin must have enrolled two-factor authentication first (docs/design.md);
 * `mayEnrol` is for the enrolment calls themselves.
 */
export function requireAdmin(app: FastifyInstance, options: { mayEnrol?: boolean } = {}) {
  return refusesWithoutSession(async (request: FastifyRequest): Promise<void> => {
    const signedIn = await app.sessions.requireUser(request);
    if (!signedIn.isAdmin) throw new AppError('FORBIDDEN', 'This area is for OffZero staff only.');
    if (
      !options.mayEnrol &&
      app.config.mode === 'production' &&
      !(await app.adminMfa.hasSecondFactor(signedIn.user.id))
    ) {
      throw new AppError('MFA_ENROLMENT_REQUIRED', 'Set up two-factor authentication first.');
    }
    request.signedIn = signedIn;
  });
}

/** The signed-in user set by `requireSignedIn`; a programming error if the hook is missing. */
export function signedInUser(request: FastifyRequest): SignedInUser {
  if (!request.signedIn) throw new Error('route is missing the requireSignedIn preHandler');
  return request.signedIn;
}

/** docs/design.md's ownership rule: an id the client sends must be the signed-in user's own. */
export function assertOwnId(request: FastifyRequest, claimedUserId: string): SignedInUser {
  const signedIn = signedInUser(request);
  if (claimedUserId !== signedIn.user.id) {
    throw new AppError('FORBIDDEN', 'You can only access your own account.');
  }
  return signedIn;
}
