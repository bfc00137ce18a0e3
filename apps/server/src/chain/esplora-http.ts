import { z } from 'zod';
import { ChainApiError } from './chain-api';

/** The HTTP of an Esplora API: GET and POST with a timeout and a size cap, errors naming the path only. */
export type EsploraHttp = ReturnType<typeof createEsploraHttp>;

/** An answer larger than this is not what these endpoints return. */
const MAX_BODY_CHARS = 20_000_000;

/** Checks the API root and timeout, and answers the three ways the chain asks the server. */
export function createEsploraHttp(baseUrl: string, timeoutMs: number) {
  let root: string;
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    root = url.toString().replace(/\/+$/, '');
  } catch {
    throw new Error('The Esplora URL must be an http(s) URL such as https://mempool.space/api.');
  }
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new Error('The Esplora timeout must be a positive number of milliseconds.');
  }

  /** GETs `path` and answers its body text; errors name the path, never the server's URL. */
  async function getText(path: string): Promise<string> {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await fetch(`${root}${path}`, {
        signal,
        headers: { accept: 'application/json, text/plain' },
        redirect: 'follow',
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        const why = response.status === 429 ? ' (rate-limited; slow down)' : '';
        throw new ChainApiError(`Esplora answered HTTP ${response.status}${why} for GET ${path}.`, {
          status: response.status,
        });
      }
      const text = await response.text();
      if (text.length > MAX_BODY_CHARS) {
        throw new ChainApiError(`Esplora answered an oversized body for GET ${path}.`);
      }
      return text;
    } catch (error) {
      if (error instanceof ChainApiError) throw error;
      if (signal.aborted) {
        throw new ChainApiError(`Esplora did not answer GET ${path} within ${timeoutMs} ms.`, {
          cause: error,
        });
      }
      throw new ChainApiError(`Esplora could not be reached for GET ${path}.`, { cause: error });
    }
  }

  /** POSTs a text body and answers the status and body text; errors name the path only. */
  async function postText(path: string, body: string): Promise<{ status: number; text: string }> {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await fetch(`${root}${path}`, {
        method: 'POST',
        signal,
        headers: { 'content-type': 'text/plain', accept: 'text/plain' },
        body,
      });
      const text = await response.text();
      if (text.length > MAX_BODY_CHARS) {
        throw new ChainApiError(`Esplora answered an oversized body for POST ${path}.`);
      }
      return { status: response.status, text };
    } catch (error) {
      if (error instanceof ChainApiError) throw error;
      if (signal.aborted) {
        throw new ChainApiError(`Esplora did not answer POST ${path} within ${timeoutMs} ms.`, {
          cause: error,
        });
      }
      throw new ChainApiError(`Esplora could not be reached for POST ${path}.`, { cause: error });
    }
  }

  async function getJson<T>(path: string, schema: z.ZodType<T>): Promise<T> {
    const text = await getText(path);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new ChainApiError(`Esplora answered something that is not JSON for GET ${path}.`, {
        cause: error,
      });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
      throw new ChainApiError(
        `Esplora answered an unexpected shape for GET ${path}${where}: ${issue?.message ?? 'invalid'}.`,
      );
    }
    return parsed.data;
  }

  return { getText, postText, getJson };
}
