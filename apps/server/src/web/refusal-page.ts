import type { FastifyReply } from 'fastify';
import { escapeHtml } from '@offzero/shared/web/prerender';
import type { AppError } from '../http/errors';

/** What a person is told of an address with a refused character: what is wrong and what to do. */
export const REFUSED_ADDRESS_TEXT =
  'The address has an invisible or control character in it, which OffZero does not accept. Check the link you followed, or type the address again.';

/** Plain and readable on a phone; the pages' policy allows inline styles and no script is needed. */
const PAGE_STYLE =
  'body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;background:#f9fafb}' +
  'main{max-width:32rem;margin:4rem auto;padding:0 1.25rem;line-height:1.5}' +
  'h1{font-size:1.5rem;margin:0 0 1rem}a{color:#1d4ed8}';

/**
 * Sends a refusal made before routing (a refused character in the address, the server too busy) as a
 * short page a person can read, with a way home, rather than the API's JSON in the browser window.
 */
export function sendRefusalPage(reply: FastifyReply, refusal: AppError): FastifyReply {
  const busy = refusal.statusCode === 503;
  const title = busy ? 'OffZero is busy' : 'This address cannot be opened';
  const text = busy ? refusal.message : REFUSED_ADDRESS_TEXT;
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${title} · OffZero</title><style>${PAGE_STYLE}</style></head><body><main><h1>${title}</h1>` +
    `<p>${escapeHtml(text)}</p><p><a href="/">Go to the home page</a></p></main></body></html>`;
  return reply
    .status(refusal.statusCode)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(html);
}
