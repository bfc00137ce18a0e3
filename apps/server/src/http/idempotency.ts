import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { z } from 'zod';
import { errorBodySchema } from '@offzero/shared/api/errors';
import type { Database } from '../db/database';
import { AppError } from './errors';
import { hookList } from './route-hooks';
import {
  claimKey,
  deleteKeyOlderThan,
  findKey,
  releaseKey,
  storeAnswer,
  type KeyScope,
} from './idempotency.repository';

/**
 * `Idempotency-Key` (docs/design.md), switched on per route with `config: { idempotent: true }`.
 * The key is claimed (a row inserted under a unique index) after the route's own pre-handlers have
 * signed the caller in and before its handler runs; the answer is stored when it is sent. The same
 * user, path and key within 24 hours get that first answer again (status and body) and cause nothing
 * new; the same key with another body is refused (422); a second call while the first runs waits for
 * it and replays it, or answers 409 if it waits too long. A 5xx answer frees the key. Keys are per user:
 * another customer's key never replays someone else's answer.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route accepts an `Idempotency-Key` header (money calls and back-office order actions). */
    idempotent?: boolean;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long a key replays its first answer. */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;
/** 1 to 255 visible ASCII characters (no spaces, no control characters). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const KEY_MESSAGE = 'The Idempotency-Key header must be 1 to 255 visible ASCII characters (no spaces).';
/** How long a second call waits for the first one with the same key before answering 409. */
const WAIT_FOR_FIRST_MS = 20_000;
const POLL_MS = 50;
/** A key still `running` after this long belongs to a process that died mid-call: it may be reclaimed. */
const ABANDONED_AFTER_SECONDS = 300;

type Claim = { kind: 'claimed'; id: string } | { kind: 'replayed' };
const claims = new WeakMap<FastifyRequest, Claim>();

const headerSchema = z.looseObject({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .regex(KEY_PATTERN, { error: KEY_MESSAGE })
    .optional()
    .meta({
      description:
        'Optional. One key per customer action (1–255 visible ASCII characters): the same key on the same ' +
        'path within 24 hours answers the first answer again and changes nothing; with a different body ' +
        'it answers 422.',
    }),
});

/** The same JSON whatever the order of its keys. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, inner]) => `${JSON.stringify(k)}:${canonicalJson(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function requestHash(request: FastifyRequest): string {
  return createHash('sha256')
    .update(canonicalJson({ body: request.body ?? null, params: request.params ?? null }))
    .digest('hex');
}

/**
 * The path as the router matched it: the route's pattern with its decoded parameters. Every spelling
 * of one path (`/api/%71uotes` is `/api/quotes`) is then one scope, so no spelling makes a second effect.
 */
function routedPath(request: FastifyRequest): string {
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  return request.routeOptions.url!.replace(/:(\w+)/g, (_match, name: string) =>
    encodeURIComponent(params[name] ?? ''),
  );
}

/** The key of this call, or undefined without the header; 400 when the header is malformed. */
export function readIdempotencyKey(request: FastifyRequest): string | undefined {
  if (!(IDEMPOTENCY_HEADER in request.headers)) return undefined;
  const value = request.headers[IDEMPOTENCY_HEADER];
  if (typeof value !== 'string' || !KEY_PATTERN.test(value)) {
    throw new AppError('VALIDATION_FAILED', KEY_MESSAGE, { [IDEMPOTENCY_HEADER]: KEY_MESSAGE });
  }
  return value;
}

function replay(request: FastifyRequest, reply: FastifyReply, statusCode: number, body: string) {
  claims.set(request, { kind: 'replayed' });
  return reply
    .code(statusCode)
    .header('content-type', 'application/json; charset=utf-8')
    .header('idempotent-replayed', 'true')
    .send(body);
}

export function registerIdempotency(app: FastifyInstance, db: Database): void {
  const claim: preHandlerAsyncHookHandler = async function (request, reply) {
    const key = readIdempotencyKey(request);
    // Signed in by the route's own hooks, which run first.
    const userId = (request as { signedIn?: { user: { id: string } } }).signedIn?.user.id;
    if (key === undefined || !userId) return;
    const scope: KeyScope = { userId, route: `${request.method} ${routedPath(request)}`, key };
    const hash = requestHash(request);
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    for (;;) {
      const claimed = await claimKey(db, scope, hash);
      if (claimed) {
        claims.set(request, { kind: 'claimed', id: claimed.id });
        return;
      }
      const existing = await findKey(db, scope);
      if (!existing) continue; // freed meanwhile: claim it again
      const ageMs = Date.now() - existing.createdAt.getTime();
      if (ageMs > IDEMPOTENCY_KEY_TTL_HOURS * 3_600_000) {
        await deleteKeyOlderThan(db, existing.id, IDEMPOTENCY_KEY_TTL_HOURS * 3600);
        continue;
      }
      if (existing.requestHash !== hash) {
        throw new AppError(
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was used with a different request. Use a new key for a new action.',
        );
      }
      if (existing.state === 'done' && existing.statusCode !== null && existing.responseBody !== null) {
        return replay(request, reply, existing.statusCode, existing.responseBody);
      }
      if (ageMs > ABANDONED_AFTER_SECONDS * 1000) {
        await deleteKeyOlderThan(db, existing.id, ABANDONED_AFTER_SECONDS);
        continue;
      }
      if (Date.now() > deadline) {
        throw new AppError(
          'CONFLICT',
          'The same request (same Idempotency-Key) is still being processed. Wait a moment and try again.',
        );
      }
      await sleep(POLL_MS);
    }
  };

  const store: onSendAsyncHookHandler = async function (request, reply, payload) {
    const state = claims.get(request);
    if (state?.kind !== 'claimed') return payload;
    claims.delete(request);
    try {
      // A failure or a "too many requests" is not the call's answer: the same key may try again.
      if (reply.statusCode >= 500 || reply.statusCode === 429 || typeof payload !== 'string')
        await releaseKey(db, state.id);
      else await storeAnswer(db, state.id, { statusCode: reply.statusCode, body: payload });
    } catch (error) {
      // The answer still goes out; the key stays claimed until it is abandoned.
      request.log.error({ err: error }, 'could not store the answer of an idempotent call');
    }
    return payload;
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.preHandler = [...hookList(route.preHandler), claim];
    route.onSend = [...hookList(route.onSend), store];
    // Documented in the route's OpenAPI schema (and checked there too).
    if (route.schema) {
      route.schema.headers ??= headerSchema;
      // A new object: routes may share one response map.
      route.schema.response = {
        409: errorBodySchema,
        422: errorBodySchema,
        ...((route.schema.response ?? {}) as Record<string, unknown>),
      };
    }
  });
}
