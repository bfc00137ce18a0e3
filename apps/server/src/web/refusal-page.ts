import type { FastifyReply, FastifyRequest } from 'fastify';
import { isUnderApi } from '../http/api-path';
import type { AppError } from '../http/errors';

/**
 * Whether a request refused before routing should be told so as a page: a browser's address that is not
 * the API's. The API, and an address too malformed to tell, keep the API's JSON answer.
 */
export function wantsRefusalPage(request: FastifyRequest): boolean {
  try {
    return !isUnderApi(request.url);
  } catch {
    return false;
  }
}

/**
 * Sends a refusal made before routing (a refused character in the address, the server too busy) as a
 * short page a person can read, with a way home, rather than the API's JSON in the browser window.
 * The message can quote the address (a query key), so it is escaped; the page needs no script or style.
 */
export function sendRefusalPage(reply: FastifyReply, refusal: AppError): FastifyReply {
  const title = refusal.statusCode === 503 ? 'OffZero is busy' : 'This address cannot be opened';
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${title} · OffZero</title></head><body><main><h1>${title}</h1>` +
    `<p>${escapeHtml(refusal.message)}</p><p><a href="/">Go to the home page</a></p></main></body></html>`;
  return reply
    .status(refusal.statusCode)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(html);
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}
