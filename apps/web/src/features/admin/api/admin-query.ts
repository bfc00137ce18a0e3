// What every back-office call shares. Keys start with 'admin' so one invalidation after an action
// refreshes every console screen (the queue, lists and details all change together).

export const ADMIN_KEY = 'admin';
/** The work queue is read again this often, so new payments show up without a reload. */
export const QUEUE_POLL_MS = 30_000;

export const enc = encodeURIComponent;

/** `?a=1&b=2` of the defined, non-empty values; '' when there are none. */
export function queryString(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '' || value === false) continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
