import { useMemo, useRef } from 'react';
import { ApiError } from './api-client';

/**
 * One `Idempotency-Key` per customer action (docs/design.md): a double click, or a retry after
 * the connection dropped, sends the same key, so the server answers the first call again instead of
 * acting twice. A different action (other figures, another order) gets a new key.
 */

/** 32 random hexadecimal characters (crypto.randomUUID needs a secure context; this does not). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Whether the same action may be sent again with the same key: nothing was decided on the server. */
function undecided(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}

export interface ActionKeys {
  /** The key of this action: the same for the same action until it is settled. */
  keyFor(action: unknown): string;
  /**
   * The action got its answer: the next one gets a new key. After a network failure or a 5xx the key
   * stays, so trying again cannot act twice.
   */
  settle(error?: unknown): void;
}

export function useIdempotencyKeys(): ActionKeys {
  const current = useRef<{ action: string; key: string } | null>(null);
  return useMemo(
    () => ({
      keyFor(action) {
        const fingerprint = JSON.stringify(action);
        if (current.current?.action !== fingerprint) {
          current.current = { action: fingerprint, key: newIdempotencyKey() };
        }
        return current.current.key;
      },
      settle(error) {
        if (error === undefined || !undecided(error)) current.current = null;
      },
    }),
    [],
  );
}
