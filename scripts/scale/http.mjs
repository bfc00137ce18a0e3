// The scale test's HTTP client, through nginx: GETs retried on 502/503/504 or a refused connection
// (they are idempotent), POSTs sent once unless they carry their own key; every 5xx the client sees
// is kept for the final check.
import { setTimeout as sleep } from 'node:timers/promises';
import { ports } from './harness.mjs';

export const base = () => `http://127.0.0.1:${ports.nginx}`;
const RETRYABLE = new Set([502, 503, 504]);
export const traffic = { gets: 0, retries: 0, posts: 0, fiveXX: [] };
let csrf = '';
/** The CSRF token every POST carries (read once from GET /api/csrf). */
export const useCsrf = (token) => {
  csrf = token;
};

/**
 * A GET, tried again on 502/503/504 or a failed connection for up to 30 s: long enough for a killed
 * web process to restart and nginx to take it back while the worker is being killed as well.
 */
export async function get(pathname, token) {
  traffic.gets += 1;
  return retrying('GET', pathname, undefined, token, 30_000);
}

/**
 * A POST that is safe to repeat because it carries its own key (a bank credit's trace number: the bank
 * sends the same credit again when it heard no answer), tried again as a GET is.
 */
export async function postRepeatable(pathname, data, token) {
  traffic.posts += 1;
  // A bank sends a credit again for far longer than a reader waits: through a whole web restart.
  return retrying('POST', pathname, data, token, 45_000);
}

async function retrying(method, pathname, data, token, patienceMs = 15_000) {
  const deadline = Date.now() + patienceMs;
  for (let attempt = 0; ; attempt += 1) {
    let status;
    let body;
    try {
      const response = await fetch(base() + pathname, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(method === 'POST'
            ? { 'content-type': 'application/json', 'x-csrf-token': csrf, cookie: `offzero_csrf=${csrf}` }
            : {}),
        },
        ...(method === 'POST' ? { body: JSON.stringify(data) } : {}),
        signal: AbortSignal.timeout(10_000),
      });
      status = response.status;
      body = await response.json().catch(() => null);
      if (!RETRYABLE.has(status)) {
        if (status >= 500) traffic.fiveXX.push(`${method} ${pathname} ${status}`);
        return { status, body };
      }
    } catch (error) {
      status = `error ${error?.cause?.code ?? error?.name}`;
    }
    if (Date.now() > deadline) {
      traffic.fiveXX.push(`${method} ${pathname} ${status} after ${attempt + 1} tries`);
      return { status, body };
    }
    traffic.retries += 1;
    await sleep(Math.min(1000, 100 * 2 ** attempt));
  }
}

export async function getOk(pathname, token) {
  const { status, body } = await get(pathname, token);
  if (status !== 200) throw new Error(`GET ${pathname}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * A POST, sent once (never retried blindly: it may have taken effect; only a refusal before any work
 * is sent again), through nginx or straight to the process at `origin`. Answers the status and body.
 */
export async function send(pathname, data, token, origin = base()) {
  traffic.posts += 1;
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(origin + pathname, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-csrf-token': csrf,
        cookie: `offzero_csrf=${csrf}`,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(data),
      signal: AbortSignal.timeout(15_000),
    });
    const body = await response.json().catch(() => null);
    // A 503 with Retry-After is the server shedding load (or draining) before any handler ran: nothing
    // was done, so the call is sent again after the pause it asks for, as a client should.
    const retryAfter = Number(response.headers.get('retry-after'));
    if (response.status === 503 && retryAfter > 0 && attempt < 5) {
      traffic.retries += 1;
      await sleep(Math.min(retryAfter, 2) * 1000);
      continue;
    }
    if (response.status >= 500) traffic.fiveXX.push(`POST ${pathname} ${response.status}`);
    return { status: response.status, body };
  }
}

/** A POST sent once (see `send`) that must answer 200; answers the body. */
export async function post(pathname, data, token, origin) {
  const { status, body } = await send(pathname, data, token, origin);
  if (status !== 200) throw new Error(`POST ${pathname}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/** One web process, straight, not through nginx. */
export const processOrigin = (name) => `http://127.0.0.1:${ports[name]}`;
