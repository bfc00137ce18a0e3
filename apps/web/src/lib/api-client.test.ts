import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { tryAgainSentence } from '@offzero/shared/api/errors';
import { fakeSessionToken, jsonResponse } from '../test/test-utils';
import {
  apiGet,
  apiGetFile,
  apiPost,
  apiPostForm,
  apiPut,
  ApiError,
  hasErrorCode,
  NETWORK_ERROR_MESSAGE,
  prepareApiClient,
  serverMessageOr,
  UNREADABLE_ANSWER_MESSAGE,
} from './api-client';
import { hardRedirect } from './hard-redirect';
import { getCsrfToken, getSession, saveCsrfToken, saveSessionToken } from './session-storage';

vi.mock('./hard-redirect', () => ({ hardRedirect: vi.fn() }));

const messageSchema = z.object({ message: z.string() });
const SECURITY_TOKEN_MESSAGE =
  'Your security token is missing or out of date. Reload the page and try again.';

type FetchCall = [input: string, init?: RequestInit];

let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;

function header(call: FetchCall | undefined, name: string): string | undefined {
  return (call?.[1]?.headers as Record<string, string> | undefined)?.[name];
}

beforeEach(() => {
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>();
  vi.stubGlobal('fetch', fetchMock);
  vi.mocked(hardRedirect).mockClear();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('api client', () => {
  it('sends JSON with the bearer token and the security token, and parses the answer', async () => {
    const token = fakeSessionToken('user-7');
    saveSessionToken(token);
    saveCsrfToken('csrf-1');
    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'Profile updated.' }));

    await expect(apiPost('/user/profile', { firstName: 'Ada' }, { schema: messageSchema })).resolves.toEqual({
      message: 'Profile updated.',
    });

    const call = fetchMock.mock.calls[0];
    expect(call?.[0]).toBe('/api/user/profile');
    expect(call?.[1]?.method).toBe('POST');
    expect(call?.[1]?.credentials).toBe('same-origin');
    expect(call?.[1]?.body).toBe(JSON.stringify({ firstName: 'Ada' }));
    expect(header(call, 'Authorization')).toBe(`Bearer ${token}`);
    expect(header(call, 'X-CSRF-Token')).toBe('csrf-1');
    expect(header(call, 'Content-Type')).toBe('application/json');
  });

  it('fetches a security token first when none is stored', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse({ _csrf: 'fresh' }))
      .mockResolvedValueOnce(jsonResponse({ message: 'We sent a login code.' }));

    await apiPost('/user/login-otp/send', { email: 'a@b.co' }, { schema: messageSchema });

    expect(fetchMock.mock.calls.map((call) => call[0])).toEqual(['/api/csrf', '/api/user/login-otp/send']);
    expect(header(fetchMock.mock.calls[1], 'X-CSRF-Token')).toBe('fresh');
    expect(getCsrfToken()).toBe('fresh');
  });

  it('throws the server message and status as an ApiError', async () => {
    saveCsrfToken('csrf-1');
    fetchMock.mockResolvedValueOnce(
      jsonResponse(
        { message: 'An account with this email already exists. Log in instead.', code: 'ACCOUNT_EXISTS' },
        409,
      ),
    );

    const error = await apiPost(
      '/verification/email/otp',
      { email: 'a@b.co' },
      { schema: messageSchema },
    ).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      message: 'An account with this email already exists. Log in instead.',
      code: 'ACCOUNT_EXISTS',
    });
    expect(hasErrorCode(error, 'ACCOUNT_EXISTS')).toBe(true);
    expect(hasErrorCode(error, 'CONFLICT')).toBe(false);
  });

  it("says when to try again on the customer's own clock, not the server's UTC", async () => {
    saveCsrfToken('csrf-1');
    const retryAt = new Date(Date.now() + 7 * 60_000);
    fetchMock.mockResolvedValueOnce(
      jsonResponse(
        {
          message: `Too many codes were sent here without being used. ${tryAgainSentence(retryAt, { timeZone: 'UTC' })}`,
          code: 'TOO_MANY_REQUESTS',
          retryAt: retryAt.toISOString(),
        },
        429,
      ),
    );
    const failure = await apiPost(
      '/user/login-otp/send',
      { email: 'a@b.co' },
      { schema: messageSchema },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    const local = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }).format(retryAt);
    expect((failure as ApiError).message).toBe(
      `Too many codes were sent here without being used. Try again at ${local} (in 7 minutes).`,
    );
  });

  it('keeps field errors from a validation answer', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse(
        {
          message: 'Check firstName: Enter your first name.',
          code: 'VALIDATION_FAILED',
          errors: { firstName: 'Enter your first name.' },
        },
        400,
      ),
    );
    await expect(apiGet('/anything', { schema: messageSchema })).rejects.toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      errors: { firstName: 'Enter your first name.' },
    });
  });

  it('on a 401 drops the session and sends the browser to log in, told so, and back to this page after', async () => {
    saveSessionToken(fakeSessionToken());
    window.history.pushState(null, '', '/dashboard?tab=sell');
    fetchMock.mockResolvedValueOnce(
      jsonResponse({ message: 'Your session has ended. Log in again.', code: 'UNAUTHENTICATED' }, 401),
    );

    await expect(apiGet('/user/user-1', { schema: messageSchema })).rejects.toMatchObject({ status: 401 });

    expect(getSession()).toBeNull();
    expect(hardRedirect).toHaveBeenCalledWith('/login?session=ended&next=%2Fdashboard%3Ftab%3Dsell');
    window.history.pushState(null, '', '/');
  });

  it('on a 401 of a login call only reports the message', async () => {
    saveCsrfToken('csrf-1');
    saveSessionToken(fakeSessionToken());
    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'Login failed!', code: 'UNAUTHENTICATED' }, 401));

    await expect(
      apiPost('/user/google/login', { credential: 'x' }, { schema: messageSchema, on401: 'throw' }),
    ).rejects.toMatchObject({ status: 401, message: 'Login failed!' });

    expect(getSession()).not.toBeNull();
    expect(hardRedirect).not.toHaveBeenCalled();
  });

  it('on a security-token 403 fetches a new token and retries once', async () => {
    saveCsrfToken('stale');
    fetchMock
      .mockResolvedValueOnce(jsonResponse({ message: SECURITY_TOKEN_MESSAGE, code: 'CSRF_INVALID' }, 403))
      .mockResolvedValueOnce(jsonResponse({ _csrf: 'renewed' }))
      .mockResolvedValueOnce(jsonResponse({ message: 'Logged in.' }));

    await expect(apiPost('/user/login-otp/verify', {}, { schema: messageSchema })).resolves.toEqual({
      message: 'Logged in.',
    });

    expect(fetchMock.mock.calls.map((call) => call[0])).toEqual([
      '/api/user/login-otp/verify',
      '/api/csrf',
      '/api/user/login-otp/verify',
    ]);
    expect(header(fetchMock.mock.calls[0], 'X-CSRF-Token')).toBe('stale');
    expect(header(fetchMock.mock.calls[2], 'X-CSRF-Token')).toBe('renewed');
    expect(getCsrfToken()).toBe('renewed');
  });

  it('retries a security-token 403 only once', async () => {
    saveCsrfToken('stale');
    fetchMock
      .mockResolvedValueOnce(jsonResponse({ message: SECURITY_TOKEN_MESSAGE, code: 'CSRF_INVALID' }, 403))
      .mockResolvedValueOnce(jsonResponse({ _csrf: 'renewed' }))
      .mockResolvedValueOnce(jsonResponse({ message: SECURITY_TOKEN_MESSAGE, code: 'CSRF_INVALID' }, 403));

    await expect(apiPost('/user/logout', undefined, { schema: messageSchema })).rejects.toMatchObject({
      status: 403,
      message: SECURITY_TOKEN_MESSAGE,
      code: 'CSRF_INVALID',
    });
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('does not retry other 403 answers', async () => {
    saveCsrfToken('csrf-1');
    fetchMock.mockResolvedValueOnce(
      jsonResponse({ message: 'You can only read your own profile.', code: 'FORBIDDEN' }, 403),
    );

    await expect(apiPost('/user/profile', {}, { schema: messageSchema })).rejects.toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('decides on the code, never on the message text: a 403 that mentions the token is not retried', async () => {
    saveCsrfToken('csrf-1');
    fetchMock.mockResolvedValueOnce(
      jsonResponse({ message: SECURITY_TOKEN_MESSAGE, code: 'FORBIDDEN' }, 403),
    );

    await expect(apiPost('/user/profile', {}, { schema: messageSchema })).rejects.toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('gives an answer without a known code the code its status stands for', async () => {
    saveCsrfToken('csrf-1');
    fetchMock
      .mockResolvedValueOnce(new Response('<html>Bad gateway</html>', { status: 502 }))
      .mockResolvedValueOnce(jsonResponse({ message: 'Gone.', code: 'SOMETHING_NEWER' }, 410))
      .mockResolvedValueOnce(jsonResponse({ message: 'No such order.' }, 404));

    await expect(apiPost('/x', {}, { schema: messageSchema })).rejects.toMatchObject({
      status: 502,
      code: 'INTERNAL',
      fromServer: false,
    });
    await expect(apiPost('/x', {}, { schema: messageSchema })).rejects.toMatchObject({
      status: 410,
      code: 'GONE',
      message: 'Gone.',
    });
    await expect(apiGet('/x', { schema: messageSchema })).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
  });

  it('sends no body and no content type for a POST without a body', async () => {
    saveCsrfToken('csrf-1');
    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'You are logged out.' }));
    await apiPost('/user/logout', undefined, { schema: messageSchema });
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBeUndefined();
    expect(header(fetchMock.mock.calls[0], 'Content-Type')).toBeUndefined();
  });

  it('reports an unreachable server and an unexpected answer in words', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(apiGet('/health', { schema: messageSchema })).rejects.toMatchObject({
      status: 0,
      message: NETWORK_ERROR_MESSAGE,
      code: 'NETWORK_ERROR',
    });

    vi.spyOn(console, 'error').mockImplementation(() => {});
    fetchMock.mockResolvedValueOnce(jsonResponse({ unexpected: true }));
    await expect(apiGet('/health', { schema: messageSchema })).rejects.toMatchObject({
      message: UNREADABLE_ANSWER_MESSAGE,
      code: 'UNREADABLE_ANSWER',
    });
  });

  it('at app start fetches a security token for a visitor, not for a signed-in customer', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ _csrf: 'start' }));
    await prepareApiClient();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/csrf',
      expect.objectContaining({ credentials: 'same-origin' }),
    );
    expect(getCsrfToken()).toBe('start');

    fetchMock.mockClear();
    saveSessionToken(fakeSessionToken());
    await prepareApiClient();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends a multipart form as it is, with the session and the security token but no JSON type', async () => {
    const token = fakeSessionToken('user-7');
    saveSessionToken(token);
    saveCsrfToken('csrf-1');
    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'Received.' }));
    const form = new FormData();
    form.append('legalName', 'Ada Lovelace');
    form.append('document', new Blob(['png'], { type: 'image/png' }), 'id.png');

    await expect(apiPostForm('/kyc/local/submit', form, { schema: messageSchema })).resolves.toEqual({
      message: 'Received.',
    });

    const call = fetchMock.mock.calls[0];
    expect(call?.[0]).toBe('/api/kyc/local/submit');
    expect(call?.[1]?.method).toBe('POST');
    expect(call?.[1]?.body).toBe(form);
    expect(header(call, 'Content-Type')).toBeUndefined();
    expect(header(call, 'Authorization')).toBe(`Bearer ${token}`);
    expect(header(call, 'X-CSRF-Token')).toBe('csrf-1');
  });

  it("tells the server's own message from a stand-in", async () => {
    saveCsrfToken('csrf-1');
    fetchMock
      .mockResolvedValueOnce(jsonResponse({ message: 'Saving is paused.' }, 503))
      .mockResolvedValueOnce(new Response('', { status: 500 }));

    const withMessage = await apiPost('/x', {}, { schema: messageSchema }).catch((caught: unknown) => caught);
    const without = await apiPost('/x', {}, { schema: messageSchema }).catch((caught: unknown) => caught);

    expect(serverMessageOr(withMessage, 'Fallback')).toBe('Saving is paused.');
    expect(serverMessageOr(without, 'Fallback')).toBe('Fallback');
    expect(serverMessageOr(new Error('boom'), 'Fallback')).toBe('Fallback');
  });

  it('sends a PUT like a POST, with the security token, retrying once on a refused token', async () => {
    const token = fakeSessionToken('admin-1');
    saveSessionToken(token);
    saveCsrfToken('stale');
    fetchMock
      .mockResolvedValueOnce(jsonResponse({ message: SECURITY_TOKEN_MESSAGE, code: 'CSRF_INVALID' }, 403))
      .mockResolvedValueOnce(jsonResponse({ _csrf: 'renewed' }))
      .mockResolvedValueOnce(jsonResponse({ message: 'Settings saved.' }));

    await expect(apiPut('/admin/settings', { a: 1 }, { schema: messageSchema })).resolves.toEqual({
      message: 'Settings saved.',
    });

    const [first, , retry] = fetchMock.mock.calls;
    expect(first?.[0]).toBe('/api/admin/settings');
    expect(first?.[1]?.method).toBe('PUT');
    expect(first?.[1]?.body).toBe(JSON.stringify({ a: 1 }));
    expect(header(first, 'Content-Type')).toBe('application/json');
    expect(header(first, 'Authorization')).toBe(`Bearer ${token}`);
    expect(header(retry, 'X-CSRF-Token')).toBe('renewed');
  });

  it('downloads a file with the session, its bytes and the name the server suggests', async () => {
    const token = fakeSessionToken('admin-1');
    saveSessionToken(token);
    fetchMock.mockResolvedValueOnce(
      new Response('id,type\r\n', {
        headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="orders.csv"' },
      }),
    );

    const file = await apiGetFile('/admin/orders/export.csv');

    expect(file.filename).toBe('orders.csv');
    expect(await file.blob.text()).toBe('id,type\r\n');
    const call = fetchMock.mock.calls[0];
    expect(call?.[0]).toBe('/api/admin/orders/export.csv');
    expect(call?.[1]?.method).toBe('GET');
    expect(header(call, 'Authorization')).toBe(`Bearer ${token}`);
    expect(header(call, 'X-CSRF-Token')).toBeUndefined();
  });

  it('a failed download is an ApiError with the server message and code, and a 401 ends the session', async () => {
    saveSessionToken(fakeSessionToken());
    fetchMock
      .mockResolvedValueOnce(jsonResponse({ message: 'This case has no document.', code: 'NOT_FOUND' }, 404))
      .mockResolvedValueOnce(
        jsonResponse({ message: 'Your session has ended.', code: 'UNAUTHENTICATED' }, 401),
      );

    await expect(apiGetFile('/admin/kyc/u1/document')).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: 'This case has no document.',
    });
    expect(hardRedirect).not.toHaveBeenCalled();
    await expect(apiGetFile('/admin/kyc/u1/document')).rejects.toBeInstanceOf(ApiError);
    expect(getSession()).toBeNull();
    expect(hardRedirect).toHaveBeenCalledWith('/login?session=ended');
  });
});
