import type { z } from 'zod';
import {
  codeForStatus,
  isErrorCode,
  TRY_AGAIN_SENTENCE,
  tryAgainSentence,
  type ErrorCode,
} from '@offzero/shared/api/error-codes';
import { clearSession, getCsrfToken, getSession, saveCsrfToken } from './session-storage';
import { hardRedirect } from './hard-redirect';
import { saveKeptAcrossLogin, sessionEndedUrl } from './session-return';

/**
 * The one way the web app talks to its own API (docs/design.md): JSON under /api on the same
 * origin (GET, POST, PUT, multipart forms, and file downloads), the session as a bearer token, the
 * cross-site protection token on every state-changing call, answers checked against the shared zod
 * schemas, and failures turned into `ApiError` values that carry the server's message (the text
 * customers see) and its code (what the screens decide on, packages/shared/src/api/errors.ts).
 */

export const API_BASE = '/api';

export const NETWORK_ERROR_MESSAGE = 'We could not reach OffZero. Check your connection and try again.';
/** The browser knows it has no network at all. */
export const OFFLINE_MESSAGE =
  'Your connection is lost. What you entered is kept: try again once you are back online.';
export const UNREADABLE_ANSWER_MESSAGE = 'We received an answer we could not read. Please try again.';
const FALLBACK_ERROR_MESSAGE = 'Something went wrong';

/**
 * What a failed call is about: the server's own code, or one of the two failures only this client sees
 * (the server could not be reached; its answer could not be read).
 */
export type ApiErrorCode = ErrorCode | 'NETWORK_ERROR' | 'UNREADABLE_ANSWER';

export class ApiError extends Error {
  override name = 'ApiError';
  /** The server's code; for an answer without one (a proxy's error page), the code its status means. */
  readonly code: ApiErrorCode;
  /** Field-level messages for a rejected input, keyed by field name. */
  readonly errors?: Record<string, string>;
  /** True when `message` is the server's own text, not a stand-in written by this client. */
  readonly fromServer: boolean;

  constructor(
    /** The HTTP status, or 0 when the server could not be reached. */
    readonly status: number,
    message: string,
    options: { code?: ApiErrorCode; errors?: Record<string, string>; fromServer?: boolean } = {},
  ) {
    super(message);
    this.code = options.code ?? (status === 0 ? 'NETWORK_ERROR' : codeForStatus(status));
    this.errors = options.errors;
    this.fromServer = options.fromServer ?? false;
  }
}

/** True when `error` is an `ApiError` with one of these codes. */
export function hasErrorCode(error: unknown, ...codes: ApiErrorCode[]): error is ApiError {
  return error instanceof ApiError && codes.includes(error.code);
}

/** The text to show a customer for any failure (the server's own message when there is one). */
export function errorMessage(error: unknown, fallback = FALLBACK_ERROR_MESSAGE): string {
  return error instanceof ApiError ? error.message : fallback;
}

/**
 * The server's own message, or `fallback` when the server gave none (an outage, an empty answer). For
 * the failures whose fallback text the specification names ('Error updating email preference'...).
 */
export function serverMessageOr(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.fromServer ? error.message : fallback;
}

export interface RequestOptions<T> {
  /** The expected answer; anything else is reported as an unreadable answer. */
  schema: z.ZodType<T>;
  /**
   * What a 401 means. For ordinary calls the session is over: it is dropped and the browser goes to the
   * login page ('end-session', the default). Login and registration calls use 'throw', because there a 401 is an
   * answer to show (a timed-out registration, a refused sign-in), not a lost session.
   */
  on401?: 'end-session' | 'throw';
  signal?: AbortSignal;
  /**
   * One key per customer action (lib/idempotency-key.ts), sent as `Idempotency-Key`: the server answers
   * a repeat of the same call with its first answer instead of acting again (docs/design.md).
   */
  idempotencyKey?: string;
  /** Extra headers of this call (a passkey step-up's `X-Step-Up`, lib/passkey-step-up.ts). */
  headers?: Record<string, string>;
}

// ---------------------------------------------------------------------------------------------------
// Cross-site protection token

const CSRF_HEADER = 'X-CSRF-Token';

let csrfRequest: Promise<string> | null = null;

/**
 * Asks the server for a fresh token (it also sets the matching cookie) and stores it. Concurrent callers
 * share one request: two overlapping fetches could leave the stored token and the cookie from different
 * answers, which the server would refuse.
 */
export function refreshCsrfToken(): Promise<string> {
  csrfRequest ??= (async () => {
    try {
      const response = await fetch(`${API_BASE}/csrf`, {
        credentials: 'same-origin',
        headers: { Accept: 'application/json' },
      });
      const body = (await readJson(response)) as { _csrf?: unknown } | undefined;
      if (!response.ok) throw failureOf(response, body);
      if (typeof body?._csrf !== 'string') {
        throw new ApiError(response.status, UNREADABLE_ANSWER_MESSAGE, { code: 'UNREADABLE_ANSWER' });
      }
      saveCsrfToken(body._csrf);
      return body._csrf;
    } catch (error) {
      throw toApiError(error);
    } finally {
      csrfRequest = null;
    }
  })();
  return csrfRequest;
}

/**
 * App start: a visitor without a session gets a protection token straight away, so
 * the first form they submit does not wait for it. Failures are left for the first call to retry.
 */
export async function prepareApiClient(): Promise<void> {
  if (getSession()) return;
  try {
    await refreshCsrfToken();
  } catch (error) {
    console.warn('Could not fetch the security token at start-up', error);
  }
}

// ---------------------------------------------------------------------------------------------------
// Requests

export function apiGet<T>(path: string, options: RequestOptions<T>): Promise<T> {
  return request('GET', path, undefined, options);
}

/** A POST; `body` undefined sends no body at all (the server refuses an empty JSON body). */
export function apiPost<T>(path: string, body: unknown, options: RequestOptions<T>): Promise<T> {
  return request('POST', path, body, options);
}

/** A PUT of a JSON body (the back office's settings editor). */
export function apiPut<T>(path: string, body: unknown, options: RequestOptions<T>): Promise<T> {
  return request('PUT', path, body, options);
}

/** A PATCH of a JSON body: changes part of the resource at `path` (a passkey's name). */
export function apiPatch<T>(path: string, body: unknown, options: RequestOptions<T>): Promise<T> {
  return request('PATCH', path, body, options);
}

/** A DELETE (no body): removes the resource at `path`. */
export function apiDelete<T>(path: string, options: RequestOptions<T>): Promise<T> {
  return request('DELETE', path, undefined, options);
}

/**
 * A POST of a multipart form (fields and files, e.g. the verification form with its document image).
 * The browser writes the Content-Type with the multipart boundary itself; the session and the security
 * token go along as for every other call.
 */
export function apiPostForm<T>(path: string, form: FormData, options: RequestOptions<T>): Promise<T> {
  return request('POST', path, form, options);
}

export interface DownloadedFile {
  blob: Blob;
  /** The name the server suggests (Content-Disposition), if any. */
  filename: string | null;
}

/** A GET whose answer is a file (the orders CSV, a KYC document image): its bytes and suggested name. */
export async function apiGetFile(path: string, signal?: AbortSignal): Promise<DownloadedFile> {
  const response = await send('GET', path, undefined, signal, null, '*/*');
  if (!response.ok) throw endSessionOn401(failureOf(response, await readJson(response)), 'end-session');
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
  return { blob: await response.blob(), filename };
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function request<T>(
  method: Method,
  path: string,
  body: unknown,
  options: RequestOptions<T>,
): Promise<T> {
  const stateChanging = method !== 'GET';
  const extra = {
    ...options.headers,
    ...(options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {}),
  };
  let response = await send(
    method,
    path,
    body,
    options.signal,
    stateChanging ? await csrfToken() : null,
    undefined,
    extra,
  );
  let answer = await readJson(response);

  // The stored token may be older than the cookie (another tab, a cleared cookie): fetch a new pair and
  // try once more.
  if (stateChanging && !response.ok && codeOf(answer) === 'CSRF_INVALID') {
    const fresh = await refreshCsrfToken();
    response = await send(method, path, body, options.signal, fresh, undefined, extra);
    answer = await readJson(response);
  }

  if (!response.ok) throw endSessionOn401(failureOf(response, answer), options.on401 ?? 'end-session');

  const parsed = options.schema.safeParse(answer);
  if (!parsed.success) {
    console.error(`Unexpected answer from ${method} ${path}`, parsed.error);
    throw new ApiError(response.status, UNREADABLE_ANSWER_MESSAGE, { code: 'UNREADABLE_ANSWER' });
  }
  return parsed.data;
}

/**
 * For ordinary calls a 401 means the session is over: it is dropped and the browser goes to the login
 * page, which says so and brings the customer back to this page afterwards.
 */
function endSessionOn401(error: ApiError, on401: 'end-session' | 'throw'): ApiError {
  if (error.status === 401 && on401 === 'end-session') {
    clearSession();
    saveKeptAcrossLogin();
    hardRedirect(sessionEndedUrl(window.location));
  }
  return error;
}

async function csrfToken(): Promise<string> {
  return getCsrfToken() ?? (await refreshCsrfToken());
}

async function send(
  method: Method,
  path: string,
  body: unknown,
  signal: AbortSignal | undefined,
  csrf: string | null,
  accept = 'application/json',
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...extraHeaders, Accept: accept };
  const session = getSession();
  if (session) headers.Authorization = `Bearer ${session.token}`;
  if (csrf) headers[CSRF_HEADER] = csrf;
  const isForm = body instanceof FormData;
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  try {
    return await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    throw toApiError(error);
  }
}

/** The error answer as an `ApiError`: the server's message, code and field errors when it sent them. */
function failureOf(response: Response, answer: unknown): ApiError {
  const serverMessage = inLocalTime(messageOf(answer), retryAtOf(answer));
  return new ApiError(response.status, serverMessage ?? FALLBACK_ERROR_MESSAGE, {
    code: codeOf(answer),
    errors: errorsOf(answer),
    fromServer: serverMessage !== undefined,
  });
}

/** The JSON body, or undefined for an empty or non-JSON one (a proxy's HTML error page, say). */
async function readJson(response: Response): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    // Cancelled while the body was arriving (a newer read of the same data replaced this one): that is
    // an abort, not an answer we could not read.
    if (isAbortError(error)) throw error;
    return undefined;
  }
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/** A fetch cancelled through its AbortSignal. */
export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** When a refused request will be accepted again (the `retryAt` of a 429 answer). */
function retryAtOf(answer: unknown): Date | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const { retryAt } = answer as { retryAt?: unknown };
  const at = typeof retryAt === 'string' ? new Date(retryAt) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at : undefined;
}

/** The server says when to try again in UTC; the customer reads it on their own clock. */
function inLocalTime(message: string | undefined, retryAt: Date | undefined): string | undefined {
  if (!message || !retryAt || !TRY_AGAIN_SENTENCE.test(message)) return message;
  return message.replace(TRY_AGAIN_SENTENCE, tryAgainSentence(retryAt));
}

function messageOf(answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const { message } = answer as { message?: unknown };
  return typeof message === 'string' && message.trim() ? message : undefined;
}

/** The answer's code when it is one this client knows (a newer server's new code counts as none). */
function codeOf(answer: unknown): ErrorCode | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const { code } = answer as { code?: unknown };
  return isErrorCode(code) ? code : undefined;
}

function errorsOf(answer: unknown): Record<string, string> | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const { errors } = answer as { errors?: unknown };
  if (typeof errors !== 'object' || errors === null) return undefined;
  return Object.fromEntries(
    Object.entries(errors).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** Aborts pass through untouched (TanStack Query cancels with them); anything else is "unreachable". */
function toApiError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (isAbortError(error)) return error;
  console.warn('Request failed', error);
  return new ApiError(0, navigator.onLine === false ? OFFLINE_MESSAGE : NETWORK_ERROR_MESSAGE);
}
