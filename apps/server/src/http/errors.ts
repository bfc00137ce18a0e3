import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { codeForStatus, ERROR_STATUS, type ErrorBody, type ErrorCode } from '@offzero/shared/api/errors';

/** The failures a service can report; each maps to one HTTP status (packages/shared/src/api/errors). */
export type AppErrorCode = ErrorCode;

/**
 * An expected failure with a message a customer can act on. Services throw it; the error handler
 * turns it into `{ message, code }` with the mapped status. Anything else becomes a 500 with no details.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    public readonly code: AppErrorCode,
    message: string,
    public readonly errors?: Record<string, string>,
    /** On TOO_MANY_REQUESTS: when the same request will be accepted again (sent as `retryAt` and `Retry-After`). */
    public readonly retryAt?: Date,
  ) {
    super(message);
  }

  get statusCode(): number {
    return ERROR_STATUS[this.code];
  }
}

const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. Please try again in a moment.';

export const DATABASE_UNAVAILABLE_MESSAGE = 'OffZero is temporarily unavailable. Try again in a moment.';
/** Seconds a client waits before trying again when the database cannot be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket-level failures of the database connection (Node's error codes). */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's answers meaning "not now" rather than "wrong query": class 08 (connection exception),
 * shutdowns and start-up (57P01–57P03), too many connections (53300).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** node-postgres reports these without a code. */
const CONNECTION_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /not queryable/i,
  /connection (?:was )?(?:closed|ended)/i,
  /cannot use a pool after calling end/i,
];

/**
 * Whether an error means the database could not be reached or dropped the connection (as opposed to a
 * bug or a refused query). Drizzle wraps the driver's error (`cause`); a refused connection to several
 * addresses arrives as an AggregateError (`errors`).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const { code, message, name, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    name?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (name === 'DatabaseUnavailableError') return true;
  if (typeof code === 'string') {
    if (CONNECTION_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) {
      return true;
    }
  }
  if (typeof message === 'string' && CONNECTION_MESSAGES.some((pattern) => pattern.test(message)))
    return true;
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

/** Fastify's own client errors, given messages a person can act on. */
const frameworkMessages: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The request is too large. Send at most 100 kB.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Unsupported content type. Send JSON with the header Content-Type: application/json.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'BAD_REQUEST',
    message: 'The request body does not match its length.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'INVALID_JSON',
    message: 'The request body is empty. Send a JSON object.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: 'INVALID_JSON',
    message: 'The request body is not valid JSON. Check the syntax and send it again.',
  },
};

/** The one shape of every error answer. */
export function errorBody(
  code: ErrorCode,
  message: string,
  errors?: Record<string, string>,
  retryAt?: Date,
): ErrorBody {
  return {
    message,
    code,
    ...(errors ? { errors } : {}),
    ...(retryAt ? { retryAt: retryAt.toISOString() } : {}),
  };
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.retryAt) {
        const seconds = Math.max(1, Math.ceil((error.retryAt.getTime() - Date.now()) / 1000));
        void reply.header('retry-after', String(seconds));
      }
      return reply
        .status(error.statusCode)
        .send(errorBody(error.code, error.message, error.errors, error.retryAt));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string> = {};
      for (const issue of error.validation) {
        const field =
          issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || error.validationContext || 'body';
        errors[field] ??= issue.message ?? 'is not valid';
      }
      const first = Object.entries(errors)[0];
      const message = first ? `Check ${first[0]}: ${first[1]}` : 'The request is not valid.';
      return reply.status(400).send(errorBody('VALIDATION_FAILED', message, errors));
    }
    const known = error.code ? frameworkMessages[error.code] : undefined;
    if (known) return reply.status(ERROR_STATUS[known.code]).send(errorBody(known.code, known.message));
    if (error instanceof SyntaxError) {
      return reply
        .status(400)
        .send(errorBody('INVALID_JSON', frameworkMessages.FST_ERR_CTP_INVALID_JSON_BODY!.message));
    }
    const status = error.statusCode ?? 500;
    if (status === 429)
      return reply
        .status(429)
        .send(errorBody('TOO_MANY_REQUESTS', 'Too many requests. Wait a minute and try again.'));
    if (status >= 400 && status < 500) {
      return reply
        .status(status)
        .send(errorBody(codeForStatus(status), error.message || 'The request is not valid.'));
    }
    if (isDatabaseUnavailable(error)) {
      // Readiness turns 503 too; the pool reconnects by itself once the database is back.
      request.log.error(
        { err: error },
        'request failed: the database (or another dependency) is unreachable',
      );
      return reply
        .status(503)
        .header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS))
        .send(errorBody('UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(errorBody('INTERNAL', INTERNAL_ERROR_MESSAGE));
  });
}

/** The JSON answer for an `/api` path that does not exist. */
export function apiNotFound(method: string, url: string): ErrorBody {
  const pathOnly = (url.split('?')[0] ?? '').slice(0, 200);
  return errorBody('NOT_FOUND', `No such API endpoint: ${method} ${pathOnly}`);
}
