import type { FastifyServerOptions } from 'fastify';

/** Fields of database errors that repeat the values of a row or a query (docs/design.md). */
const VALUE_CARRYING_FIELDS = new Set(['params', 'parameters', 'detail', 'where', 'internalQuery', 'hint']);
const NOT_LOGGED = '[not logged]';

/** A PostgreSQL error (node-postgres or the embedded database): a severity and a five-character SQLSTATE. */
function isDatabaseError(error: Error): error is Error & { code: string; constraint?: string } {
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof severity === 'string' && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/**
 * An error as the log shows it: type, message, stack, code and its own fields, with its cause beside
 * it, never the values of a query. Drizzle writes a failed query's parameters (e-mails, names,
 * addresses) into its message and stack, and PostgreSQL quotes values in its messages ("invalid input
 * syntax for type integer: …") and in `detail` ("Key (email)=(…) already exists"); a database error is
 * shown by its SQLSTATE, constraint, table and column instead.
 */
export function serializeErrorForLog(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 4) return error;
  let message = error.message;
  let stack = error.stack ?? '';
  const params = (error as { params?: unknown }).params;
  if (Array.isArray(params)) {
    // Drizzle's own wording: `params: ${params}`, an array joined with commas.
    const shown = `params: ${params.join(',')}`;
    message = message.replace(shown, `params: ${NOT_LOGGED}`);
    stack = stack.replace(shown, `params: ${NOT_LOGGED}`);
  }
  if (isDatabaseError(error)) {
    const safe = `database error ${error.code}${error.constraint ? ` (${error.constraint})` : ''}`;
    stack = stack.replace(error.message, safe);
    message = safe;
  }
  const serialized: Record<string, unknown> = { type: error.constructor.name || error.name, message, stack };
  for (const [field, value] of Object.entries(error)) {
    if (field in serialized || field === 'cause' || typeof value === 'function') continue;
    serialized[field] = VALUE_CARRYING_FIELDS.has(field) ? NOT_LOGGED : value;
  }
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined) serialized.cause = serializeErrorForLog(cause, depth + 1);
  return serialized;
}

/**
 * Request logs carry method, path (never the query string, which may hold an address or id), status
 * and timing; headers that carry credentials are redacted wherever they appear, and errors never carry
 * the values of a failed query.
 */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-csrf-token"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.token',
        '*.code',
        '*.tin',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(request: { method: string; url: string; ip?: string; id: string }) {
        return { id: request.id, method: request.method, path: request.url.split('?')[0], ip: request.ip };
      },
      err: (error: Error) => serializeErrorForLog(error) as { type: string; message: string; stack: string },
    },
  };
}
