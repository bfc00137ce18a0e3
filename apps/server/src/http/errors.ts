import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** The failures a service can report, each with the HTTP status it maps to. */
const statusByCode = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  GONE: 410,
  TOO_MANY_REQUESTS: 429,
  UNAVAILABLE: 503,
} as const;

export type AppErrorCode = keyof typeof statusByCode;

/**
 * An expected failure with a message a customer can act on. Services throw it; the error handler
 * turns it into `{ message }` with the mapped status. Anything else becomes a 500 with no details.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    public readonly code: AppErrorCode,
    message: string,
    public readonly errors?: Record<string, string>,
  ) {
    super(message);
  }

  get statusCode(): number {
    return statusByCode[this.code];
  }
}

const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. Please try again in a moment.';

/** Fastify's own client errors, given messages a person can act on. */
const frameworkMessages: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'The request is too large. Send at most 100 kB.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    message: 'Unsupported content type. Send JSON with the header Content-Type: application/json.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'The request body does not match its length.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    message: 'The request body is empty. Send a JSON object.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    message: 'The request body is not valid JSON. Check the syntax and send it again.',
  },
};

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply
        .status(error.statusCode)
        .send(error.errors ? { message: error.message, errors: error.errors } : { message: error.message });
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
      return reply.status(400).send({ message, errors });
    }
    const known = error.code ? frameworkMessages[error.code] : undefined;
    if (known) return reply.status(known.status).send({ message: known.message });
    if (error instanceof SyntaxError) {
      return reply.status(400).send({ message: frameworkMessages.FST_ERR_CTP_INVALID_JSON_BODY!.message });
    }
    const status = error.statusCode ?? 500;
    if (status === 429)
      return reply.status(429).send({ message: 'Too many requests. Wait a minute and try again.' });
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ message: error.message || 'The request is not valid.' });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: INTERNAL_ERROR_MESSAGE });
  });
}

/** The JSON answer for an `/api` path that does not exist. */
export function apiNotFound(method: string, url: string): { message: string } {
  const pathOnly = (url.split('?')[0] ?? '').slice(0, 200);
  return { message: `No such API endpoint: ${method} ${pathOnly}` };
}
