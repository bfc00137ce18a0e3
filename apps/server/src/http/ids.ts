import { and, eq, gte, lte, type Column, type SQL } from 'drizzle-orm';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a client-sent id can be a row id at all, so a malformed one answers 404 before any query. */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/**
 * An order or customer number as people quote it: the first 8 hexadecimal characters of the id (what
 * the site and the e-mails show), or the whole id, alone or after "Order", "Customer", "id", "no." or
 * "#" ("Order #25a55680", "Customer id 615a59e1").
 */
const QUOTED_ID =
  /^(?:(?:order|customer|user)\s*)?(?:(?:id|number|no\.?|nr\.?)\s*)?:?\s*#?\s*([0-9a-f]{8}(?:-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})?)$/i;

/** The id or short number quoted in `text` (lower case), or null when the text quotes none. */
export function quotedId(text: string): string | null {
  const match = QUOTED_ID.exec(text.trim());
  return match?.[1]?.toLowerCase() ?? null;
}

/**
 * The rows whose uuid `column` starts with the quoted number (or is the quoted id): a range of the
 * column's own ordering, so its index serves the search however many rows there are.
 */
export function idStartsWith(column: Column, quoted: string): SQL {
  if (isUuid(quoted)) return eq(column, quoted);
  return and(
    gte(column, `${quoted}-0000-0000-0000-000000000000`),
    lte(column, `${quoted}-ffff-ffff-ffff-ffffffffffff`),
  )!;
}
