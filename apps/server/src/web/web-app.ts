import { errorBody } from '../http/errors';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

export interface WebApp {
  /** Answers a browser route (`/dashboard`, `/orders`…) with the single-page app. */
  serveIndex(reply: FastifyReply): FastifyReply;
}

/**
 * Serves the built web app in one-process mode. Hashed assets are cached for a year; index.html is
 * never cached so a new release reaches browsers at once. The build writes brotli and gzip copies of
 * every text file, sent to browsers that accept them (static files only: API answers, which carry
 * tokens beside customer input, are never compressed, so BREACH-style length guessing has nothing to read).
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<WebApp> {
  if (!existsSync(path.join(distDir, 'index.html'))) {
    app.log.warn({ distDir }, 'web app not built; run `npm run build` to serve it');
    return {
      serveIndex: (reply) =>
        reply
          .status(404)
          .send(
            errorBody('NOT_FOUND', 'The web app has not been built. Run `npm run build`, then start again.'),
          ),
    };
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    preCompressed: true,
    setHeaders(res, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/', (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  return { serveIndex: (reply) => reply.header('cache-control', 'no-cache').sendFile('index.html') };
}
