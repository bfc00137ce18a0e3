import { AppError } from './errors';

/**
 * Whether the path, as the router sees it, is under /api: decoded (`/%61pi/…` is `/api/…`), with
 * repeated slashes collapsed and in any letter case, so no spelling of an /api path escapes what the
 * API's answers must have (the CSRF check, the API's security headers). Malformed percent-encoding is
 * refused outright.
 */
export function isUnderApi(url: string): boolean {
  // The API's own spelling, the commonest by far (checked on every request): with no percent sign in
  // the path, decoding and collapsing slashes cannot move a path that starts so out from under /api.
  if (url.startsWith('/api/')) {
    const percent = url.indexOf('%');
    const query = url.indexOf('?');
    if (percent === -1 || (query !== -1 && percent > query)) return true;
  }
  const rawPath = url.split('?', 1)[0] ?? '';
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    throw new AppError('BAD_REQUEST', 'The address of this request is not valid. Check it and try again.');
  }
  const normalised = path.replace(/\/+/g, '/').toLowerCase();
  return normalised === '/api' || normalised.startsWith('/api/');
}
