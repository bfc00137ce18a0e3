import type { FastifyServerOptions } from 'fastify';

/**
 * Request logs carry method, path (never the query string, which may hold an address or id), status
 * and timing; headers that carry credentials are redacted wherever they appear.
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
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(request: { method: string; url: string; ip?: string; id: string }) {
        return { id: request.id, method: request.method, path: request.url.split('?')[0], ip: request.ip };
      },
    },
  };
}
