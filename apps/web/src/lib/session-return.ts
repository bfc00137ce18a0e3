import { paths } from '../config/paths';

/**
 * A session that ends mid-flow (it expired, or it was ended elsewhere) sends the customer to the login
 * page, told so, with the page they were on kept in the address; after logging in they are back there.
 */

const ENDED_PARAM = 'session';
const NEXT_PARAM = 'next';

/** The login page for a customer whose session ended on `from`. */
export function sessionEndedUrl(from: { pathname: string; search: string }): string {
  const params = new URLSearchParams({ [ENDED_PARAM]: 'ended' });
  if (from.pathname !== paths.home && from.pathname !== paths.login) {
    params.set(NEXT_PARAM, from.pathname + from.search);
  }
  return `${paths.login}?${params.toString()}`;
}

/** Whether the login page was opened because the customer's session ended. */
export function sessionHasEnded(search: string): boolean {
  return new URLSearchParams(search).get(ENDED_PARAM) === 'ended';
}

/** Where to go after logging in: the page kept by `sessionEndedUrl`, if it is one of this site's. */
export function returnPathOf(search: string): string | null {
  const next = new URLSearchParams(search).get(NEXT_PARAM);
  // Only a path of this site: never '//elsewhere.example' or 'https://…'.
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : null;
}

// What a page keeps for the customer while they log in again: in this tab's sessionStorage (never in
// the address, which lands in logs and history), written only as the session ends, read back once.
const KEPT_PREFIX = 'keptAcrossLogin:';
const keepers = new Map<string, () => unknown>();

/**
 * While registered, `read` answers what the page would lose if the session ended now; it is kept for
 * after the login. Returns the unregistration.
 */
export function keepAcrossLogin(name: string, read: () => unknown): () => void {
  keepers.set(name, read);
  return () => {
    if (keepers.get(name) === read) keepers.delete(name);
  };
}

/** As the session ends mid-flow: writes what the open page keeps. */
export function saveKeptAcrossLogin(): void {
  for (const [name, read] of keepers) {
    const value = read();
    if (value === null || value === undefined) continue;
    try {
      sessionStorage.setItem(KEPT_PREFIX + name, JSON.stringify(value));
    } catch {
      // Storage full or refused: the customer types it again, as before.
    }
  }
}

/**
 * What was kept under `name` when the session ended, if it still reads. It stays until
 * `forgetKeptAcrossLogin`, so that a render done twice reads it twice.
 */
export function peekKeptAcrossLogin<T>(name: string, read: (value: unknown) => T | null): T | null {
  try {
    const stored = sessionStorage.getItem(KEPT_PREFIX + name);
    return stored === null ? null : read(JSON.parse(stored));
  } catch {
    return null;
  }
}

/** Once the page has taken back what was kept under `name`: it is not offered again. */
export function forgetKeptAcrossLogin(name: string): void {
  try {
    sessionStorage.removeItem(KEPT_PREFIX + name);
  } catch {
    // Refused storage kept nothing.
  }
}
