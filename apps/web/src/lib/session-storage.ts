// The browser keeps three things: the session token, the preferred currency and the
// cross-site protection token. Nothing else about the customer is stored in the browser, but for what
// a page keeps in this tab while its customer logs in again (session-return.ts).
const AUTH_TOKEN_KEY = 'authToken';
const CSRF_TOKEN_KEY = 'csrfToken';
const CURRENCY_KEY = 'currency';

export interface SessionClaims {
  _id: string;
  exp: number;
}

/** Reads the claims of a JWT without trusting them: the server is the authority, this only avoids
 * sending a token that has visibly expired. */
export function decodeSessionToken(token: string): SessionClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as Partial<SessionClaims>;
    if (typeof json._id !== 'string' || typeof json.exp !== 'number') return null;
    return { _id: json._id, exp: json.exp };
  } catch {
    return null;
  }
}

let expiredOnThisPage = false;

/** Whether this page load dropped a session because it expired (not a visitor who never had one). */
export function sessionExpiredOnThisPage(): boolean {
  return expiredOnThisPage;
}

/** The stored session, or null when there is none or it has expired (an expired token is dropped). */
export function getSession(now = Date.now()): { token: string; userId: string } | null {
  const token = localStorage.getItem(AUTH_TOKEN_KEY);
  if (!token) return null;
  const claims = decodeSessionToken(token);
  if (!claims || claims.exp * 1000 <= now) {
    localStorage.removeItem(AUTH_TOKEN_KEY);
    expiredOnThisPage = claims !== null;
    return null;
  }
  return { token, userId: claims._id };
}

export function saveSessionToken(token: string): void {
  localStorage.setItem(AUTH_TOKEN_KEY, token);
}

export function clearSession(): void {
  localStorage.removeItem(AUTH_TOKEN_KEY);
}

export function getCsrfToken(): string | null {
  return localStorage.getItem(CSRF_TOKEN_KEY);
}

export function saveCsrfToken(token: string): void {
  localStorage.setItem(CSRF_TOKEN_KEY, token);
}

export function getPreferredCurrency(): string {
  return localStorage.getItem(CURRENCY_KEY) ?? 'USD';
}

export function savePreferredCurrency(currency: string): void {
  localStorage.setItem(CURRENCY_KEY, currency);
}
