import { errorBody } from '../http/errors';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PublicAppConfig } from '@offzero/shared/api/app-config';
import {
  appConfigScript,
  fillPrerenderedPage,
  prerenderFits,
  PRERENDER_DIR,
  PRERENDER_MANIFEST,
  type PrerenderedPage,
} from '@offzero/shared/web/prerender';

export interface WebApp {
  /** Answers a browser route (`/dashboard`, `/orders`…) with the single-page app. */
  serveIndex(request: FastifyRequest, reply: FastifyReply): FastifyReply;
}

/** One HTML page, compressed once at start-up. */
interface Page {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

function compressedPage(html: string): Page {
  const identity = Buffer.from(html);
  return {
    identity,
    br: brotliCompressSync(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzip: gzipSync(identity, { level: 9 }),
  };
}

/** The encoding to send: brotli, else gzip, else none, as the browser's Accept-Encoding allows. */
function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (allows('br')) return 'br';
  if (allows('gzip')) return 'gzip';
  return null;
}

function sendPage(request: FastifyRequest, reply: FastifyReply, page: Page): FastifyReply {
  const encoding = pickEncoding(request.headers['accept-encoding']);
  reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('vary', 'Accept-Encoding');
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.identity);
}

/** Puts the deployment's public settings into the page's head, so the app starts without asking. */
function withAppConfig(html: string, config: PublicAppConfig): string {
  const script = appConfigScript(config);
  if (html.includes('</head>')) return html.replace('</head>', `${script}</head>`);
  // The app's scripts run once the document is parsed, so the block may as well open the body.
  return html.replace(/<body[^>]*>/, (body) => `${body}${script}`);
}

/** The prerendered public pages that fit this deployment, by path (none if the build made none). */
function prerenderedPages(distDir: string, config: PublicAppConfig): Map<string, Page> {
  const pages = new Map<string, Page>();
  const dir = path.join(distDir, PRERENDER_DIR);
  const manifestFile = path.join(dir, PRERENDER_MANIFEST);
  if (!existsSync(manifestFile)) return pages;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as PrerenderedPage[];
  for (const entry of manifest) {
    if (!prerenderFits(entry, config) || pages.has(entry.path)) continue;
    const html = readFileSync(path.join(dir, path.basename(entry.file)), 'utf8');
    pages.set(entry.path, compressedPage(withAppConfig(fillPrerenderedPage(html, config), config)));
  }
  return pages;
}

/**
 * Serves the built web app in one-process mode. Hashed assets are cached for a year; pages are never
 * cached so a new release reaches browsers at once. The build writes brotli and gzip copies of every
 * static text file, sent to browsers that accept them. Pages (the public pages the build prerendered,
 * and the single-page app's shell for every other route) carry this deployment's public settings and
 * are compressed once at start-up. None of this applies to API answers: they carry tokens beside
 * customer input and are never compressed, so BREACH-style length guessing has nothing to read. The
 * pages hold no secret at all.
 */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
  config: PublicAppConfig,
): Promise<WebApp> {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ distDir }, 'web app not built; run `npm run build` to serve it');
    return {
      serveIndex: (_request, reply) =>
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
    // The prerendered pages are sent filled in, at their own paths, never as raw files.
    allowedPath: (pathName) => !pathName.startsWith(`/${PRERENDER_DIR}/`),
    setHeaders(res, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  const shell = compressedPage(withAppConfig(readFileSync(indexFile, 'utf8'), config));
  const pages = prerenderedPages(distDir, config);
  for (const [pagePath, page] of pages) {
    app.get(pagePath, (request, reply) => sendPage(request, reply, page));
    // A prerendered form (sign-in, registration) submitted before the page's scripts have run is posted
    // by the browser itself: send it back to the page with GET, the form's content unread (answered
    // before the body is parsed), so what the person typed never reaches a URL, a log or an error.
    app.post(pagePath, { onRequest: async (_request, reply) => reply.redirect(pagePath, 303) }, () => {
      throw new Error('unreachable: answered by the onRequest hook');
    });
  }
  if (!pages.has('/')) app.get('/', (request, reply) => sendPage(request, reply, shell));
  app.log.debug({ prerendered: [...pages.keys()] }, 'web app ready');
  return { serveIndex: (request, reply) => sendPage(request, reply, shell) };
}
