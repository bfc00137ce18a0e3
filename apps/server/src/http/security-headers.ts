import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/config';
import { isUnderApi } from './api-path';
import { API_DOCS_PREFIX } from './openapi';

/**
 * Security headers for every answer. A page's policy allows only the outside scripts the product uses:
 * Google sign-in, PayPal buttons and the Sumsub verification widget. An API answer (`/api/...`) is
 * data, never a document to render, so its policy allows nothing at all and no framing, as OWASP's
 * REST guidance has it (the page policy's 500 characters were also checked by Node on every answer),
 * and it carries only the headers that apply to data (apiAnswerHeaders). They do not change, so helmet
 * works them out once at start (it would otherwise rebuild its policy on every request) and each answer
 * gets the finished set through Fastify's `reply.headers()`. Written by the app's first hook (app.ts),
 * when the request arrives, so a route that needs a header of its own replaces it.
 */
export async function securityHeaderWriter(
  config: AppConfig,
): Promise<(request: FastifyRequest, reply: FastifyReply) => void> {
  const pageHeaders = Object.freeze(await helmetHeaders(helmetOptions(config)));
  const apiHeaders = Object.freeze(apiAnswerHeaders(pageHeaders));
  return (request, reply) => {
    void reply.headers(isApiPath(request.url) ? apiHeaders : pageHeaders);
  };
}

/** The policy of every API answer: nothing may load from it, and no page may frame it. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Of the page headers, those that still mean something for data (OWASP's REST guidance): no sniffing
 * it into a script or a page, no reading it from another site's page, no framing, HTTPS only. The rest
 * tell a browser how to treat a document it renders (opener, origin cluster, DNS prefetch, old IE's
 * download and XSS filters, Flash's cross-domain policies), which an answer never is: they were about
 * 300 bytes written and sent with every call.
 */
const API_ANSWER_HEADER_NAMES = [
  'cross-origin-resource-policy',
  'strict-transport-security',
  'x-content-type-options',
] as const;

function apiAnswerHeaders(pageHeaders: Readonly<Record<string, string>>): Record<string, string> {
  const headers: Record<string, string> = {
    'content-security-policy': API_CONTENT_SECURITY_POLICY,
    'x-frame-options': 'DENY',
  };
  for (const name of API_ANSWER_HEADER_NAMES) {
    const value = pageHeaders[name];
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

/**
 * Whether the answer is the API's: any spelling of an /api path the router accepts (isUnderApi, the
 * CSRF check's reading too), except the API's documentation, a page of its own. An address too
 * malformed to read is refused by that check with an API error, so it gets the API's headers too. A
 * refusal made before routing is sent as a page where this is false (web/refusal-page.ts), so its
 * form always matches the headers it was given.
 */
export function isApiPath(url: string): boolean {
  if (isApiDocsPath(url)) return false;
  try {
    return isUnderApi(url);
  } catch {
    return true;
  }
}

/** `/api/docs` and what is under it, with or without a query (checked without splitting the address). */
function isApiDocsPath(url: string): boolean {
  if (!url.startsWith(API_DOCS_PREFIX)) return false;
  const next = url[API_DOCS_PREFIX.length];
  return next === undefined || next === '/' || next === '?';
}

/** Headers helmet sets on an answer, read from a throwaway server's answer. */
export async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  probe.get('/', async () => ({}));
  const response = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  const notHelmets = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (!notHelmets.has(name) && typeof value === 'string') headers[name] = value;
  }
  return headers;
}

function helmetOptions(config: AppConfig): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: [
          "'self'",
          'https://accounts.google.com',
          'https://*.paypal.com',
          'https://static.sumsub.com',
        ],
        styleSrc: ["'self'", "'unsafe-inline'", 'https://accounts.google.com'],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        connectSrc: [
          "'self'",
          'wss:',
          'ws:',
          'https://accounts.google.com',
          'https://*.paypal.com',
          'https://*.sumsub.com',
        ],
        frameSrc: ['https://accounts.google.com', 'https://*.paypal.com', 'https://*.sumsub.com'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: config.publicUrl.startsWith('https://') ? [] : null,
      },
    },
    // Google's sign-in popup needs to talk back to the opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    hsts: config.isDemo ? false : { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  };
}
