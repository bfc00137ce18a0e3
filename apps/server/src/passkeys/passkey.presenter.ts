import type { Passkey } from '@offzero/shared/api/passkeys';
import type { PasskeyRow } from './passkey.repository';

/** A passkey as the client sees it: never its key or credential id. */
export function toPasskeyResponse(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    backedUp: row.backedUp,
  };
}
