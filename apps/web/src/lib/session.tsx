import { useMemo, useSyncExternalStore } from 'react';
import { clearSession, decodeSessionToken, getSession, saveSessionToken } from './session-storage';

/**
 * The signed-in session as React state. The token itself lives in localStorage (session-storage.ts);
 * this module tells the components that depend on it (guards, layouts) when it changes, in this tab
 * or in another one.
 */

export interface Session {
  token: string;
  userId: string;
}

const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab logging in or out changes localStorage under us.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

const tokenSnapshot = () => getSession()?.token ?? null;

/**
 * The session a page rendered ahead of time was rendered with: none for the public pages; for the
 * signed-in shell (the dashboard's frame without any customer data, src/prerender), a stand-in token
 * when the build renders it, and the browser's own token when the browser hydrates it.
 */
let prerenderedToken: string | null = null;
const prerenderedSnapshot = () => prerenderedToken;

/** Sets the session the prerendered markup assumes (see `prerenderedToken`). */
export function assumePrerenderedSession(token: string | null): void {
  prerenderedToken = token;
}

/** The current session, or null for a visitor (an expired token counts as none). */
export function useSession(): Session | null {
  const token = useSyncExternalStore(subscribe, tokenSnapshot, prerenderedSnapshot);
  return useMemo(() => {
    const claims = token ? decodeSessionToken(token) : null;
    return token && claims ? { token, userId: claims._id } : null;
  }, [token]);
}

/** Stores the token of a session the server just opened. */
export function signIn(token: string): void {
  saveSessionToken(token);
  notify();
}

/** Forgets the session in this browser (the server side is ended by the logout call). */
export function signOut(): void {
  clearSession();
  notify();
}
