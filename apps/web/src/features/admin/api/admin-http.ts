import type { z } from 'zod';
import {
  API_BASE,
  ApiError,
  NETWORK_ERROR_MESSAGE,
  UNREADABLE_ANSWER_MESSAGE,
  refreshCsrfToken,
} from '../../../lib/api-client';
import { clearSession, getCsrfToken, getSession } from '../../../lib/session-storage';
import { hardRedirect } from '../../../lib/hard-redirect';

/**
 * The two kinds of call the shared API client does not make (it speaks GET and POST with JSON
 * answers): `PUT /api/admin/settings`, and downloads that are not JSON (the orders CSV, a KYC document
 * image). Both follow the client's rules: the session as a bearer token, the security token on the PUT
 * (fetched again once if the server refuses it), a 401 ends the session, failures become `ApiError`
 * with the server's message.
 */

const SECURITY_TOKEN_PATTERN = /security token/i;

function authHeaders(): Record<string, string> {
  const session = getSession();
  return session ? { Authorization: `Bearer ${session.token}` } : {};
}

async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(`${API_BASE}${path}`, { credentials: 'same-origin', ...init });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }
}

async function failure(response: Response): Promise<ApiError> {
  let body: { message?: unknown; errors?: unknown } | undefined;
  try {
    body = (await response.json()) as typeof body;
  } catch {
    body = undefined;
  }
  const message = typeof body?.message === 'string' && body.message.trim() ? body.message : undefined;
  const errors =
    body?.errors && typeof body.errors === 'object'
      ? Object.fromEntries(
          Object.entries(body.errors as Record<string, unknown>).filter(
            (entry): entry is [string, string] => typeof entry[1] === 'string',
          ),
        )
      : undefined;
  if (response.status === 401) {
    clearSession();
    hardRedirect('/');
  }
  return new ApiError(response.status, message ?? 'Something went wrong', errors, message !== undefined);
}

/** A JSON PUT with the security token, checked against `schema` like every other answer. */
export async function apiPut<T>(path: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
  const attempt = async (csrf: string) =>
    send(path, {
      method: 'PUT',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        'X-CSRF-Token': csrf,
        ...authHeaders(),
      },
      body: JSON.stringify(body),
    });
  let response = await attempt(getCsrfToken() ?? (await refreshCsrfToken()));
  if (response.status === 403) {
    const text = await response.clone().text();
    if (SECURITY_TOKEN_PATTERN.test(text)) response = await attempt(await refreshCsrfToken());
  }
  if (!response.ok) throw await failure(response);
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new ApiError(response.status, UNREADABLE_ANSWER_MESSAGE);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    console.error(`Unexpected answer from PUT ${path}`, parsed.error);
    throw new ApiError(response.status, UNREADABLE_ANSWER_MESSAGE);
  }
  return parsed.data;
}

/** A GET whose answer is a file (CSV, image): the bytes as a Blob, and the name the server suggests. */
export async function apiGetBlob(
  path: string,
  signal?: AbortSignal,
): Promise<{ blob: Blob; filename: string | null }> {
  const response = await send(path, { method: 'GET', headers: authHeaders(), signal });
  if (!response.ok) throw await failure(response);
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
  return { blob: await response.blob(), filename };
}

/** Saves a Blob as a file through a temporary link. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
