const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a client-sent id can be a row id at all, so a malformed one answers 404 before any query. */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
