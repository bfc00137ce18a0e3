import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { fakeSessionToken, jsonResponse } from '../test/test-utils';
import { apiPost } from './api-client';
import { withPasskeyStepUp } from './passkey-step-up';
import { saveCsrfToken, saveSessionToken } from './session-storage';

const startAuthentication = vi.fn();
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication }));

type FetchCall = [input: string, init?: RequestInit];
let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;
const header = (call: FetchCall | undefined, name: string) =>
  (call?.[1]?.headers as Record<string, string> | undefined)?.[name];
const messageSchema = z.object({ message: z.string() });
const refused = () =>
  jsonResponse({ message: 'Confirm this change with your passkey.', code: 'PASSKEY_STEP_UP_REQUIRED' }, 403);

beforeEach(() => {
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>();
  vi.stubGlobal('fetch', fetchMock);
  saveSessionToken(fakeSessionToken('user-1'));
  saveCsrfToken('csrf-1');
  startAuthentication.mockReset();
});
afterEach(() => vi.unstubAllGlobals());

describe('withPasskeyStepUp', () => {
  const body = { label: 'Cold', address: 'tb1qexample' };
  const call = (headers?: Record<string, string>) =>
    apiPost('/payout-addresses', body, { schema: messageSchema, idempotencyKey: 'key-1', headers });

  it('asks for the passkey only when the server says so, then sends the same call with X-Step-Up', async () => {
    const assertion = { id: 'cred', response: { clientDataJSON: 'x' } };
    startAuthentication.mockResolvedValueOnce(assertion);
    fetchMock
      .mockResolvedValueOnce(refused())
      .mockResolvedValueOnce(jsonResponse({ options: { challenge: 'abc', rpId: 'localhost' } }))
      .mockResolvedValueOnce(jsonResponse({ message: 'Address added.' }));

    await expect(withPasskeyStepUp('payout-address.add', body, call)).resolves.toEqual({
      message: 'Address added.',
    });

    const [first, options, again] = fetchMock.mock.calls;
    expect(header(first, 'X-Step-Up')).toBeUndefined();
    expect(options?.[0]).toBe('/api/step-up/options');
    expect(JSON.parse(options?.[1]?.body as string)).toEqual({ action: 'payout-address.add', details: body });
    expect(startAuthentication).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'abc', rpId: 'localhost' },
    });
    expect(again?.[1]?.body).toBe(first?.[1]?.body);
    expect(header(again, 'Idempotency-Key')).toBe('key-1');
    const sent = header(again, 'X-Step-Up')!;
    expect(sent).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(atob(sent.replace(/-/g, '+').replace(/_/g, '/')))).toEqual(assertion);
  });

  it('runs the call once when no passkey is asked for, and passes other errors on', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'Address added.' }));
    await expect(withPasskeyStepUp('payout-address.add', body, call)).resolves.toEqual({
      message: 'Address added.',
    });
    fetchMock.mockResolvedValueOnce(
      jsonResponse({ message: 'This address is already in your address book.', code: 'CONFLICT' }, 409),
    );
    await expect(withPasskeyStepUp('payout-address.add', body, call)).rejects.toMatchObject({ status: 409 });
    expect(startAuthentication).not.toHaveBeenCalled();
  });
});
