import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, apiPost } from './api-client';
import { useIdempotencyKeys } from './idempotency-key';
import { saveCsrfToken } from './session-storage';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('idempotency keys', () => {
  it('sends the key as the Idempotency-Key header, and no header without one', async () => {
    saveCsrfToken('csrf-1');
    const fetchMock = vi.fn(() => Promise.resolve(new Response('{}', { status: 200 })));
    vi.stubGlobal('fetch', fetchMock);
    await apiPost('/order/save', { a: 1 }, { schema: z.object({}), idempotencyKey: 'key-1' });
    await apiPost('/order/save', { a: 1 }, { schema: z.object({}) });
    const headers = (call: number) =>
      (fetchMock.mock.calls[call] as unknown as [string, RequestInit])[1].headers as Record<string, string>;
    expect(headers(0)['Idempotency-Key']).toBe('key-1');
    expect(headers(1)).not.toHaveProperty('Idempotency-Key');
  });

  it('keeps one key per action until it is settled; a lost connection or a 5xx keeps it', () => {
    const { result } = renderHook(() => useIdempotencyKeys());
    const keys = result.current;
    const first = keys.keyFor({ orderId: 'o1', method: 'zelle' });
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(keys.keyFor({ orderId: 'o1', method: 'zelle' })).toBe(first);
    keys.settle(new ApiError(0, 'offline'));
    keys.settle(new ApiError(503, 'unavailable'));
    expect(keys.keyFor({ orderId: 'o1', method: 'zelle' })).toBe(first);
    keys.settle(new ApiError(409, 'refused'));
    const second = keys.keyFor({ orderId: 'o1', method: 'zelle' });
    expect(second).not.toBe(first);
    keys.settle();
    expect(keys.keyFor({ orderId: 'o1', method: 'zelle' })).not.toBe(second);
    // Another action gets its own key.
    const other = keys.keyFor({ orderId: 'o1', method: 'ach' });
    expect(keys.keyFor({ orderId: 'o1', method: 'zelle' })).not.toBe(other);
  });
});
