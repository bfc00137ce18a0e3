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
