import type { OrderRow } from '../../../db/schema';

/**
 * The flags the watcher raises about deposits themselves; a later deposit may replace one. Any other
 * flag (`over_limit`, `deposit_reversed`, a sanctions or payment flag) holds the order until a person
 * resolves it, so the watcher keeps it and only adds to its note.
 */
const DEPOSIT_FLAGS: ReadonlySet<string> = new Set([
  'underpaid',
  'overpaid',
  'late_deposit',
  'extra_deposit',
  'vanished_tx',
]);

/**
 * The order's flag after a deposit event that raised `raised` (or nothing). An earlier deposit's flag
 * is never wiped by a later deposit (a dust first payment stays visible); it is kept in the note when
 * a newer one replaces it. Only a vanished transaction, once replaced, needs nobody.
 */
export function nextFlag(
  order: Pick<OrderRow, 'flag' | 'flagNote'>,
  raised: { flag: string; note: string } | null,
): { flag: string | null; flagNote: string | null } {
  const existing = order.flag;
  if (existing && !DEPOSIT_FLAGS.has(existing)) {
    return {
      flag: existing,
      flagNote: raised ? `${order.flagNote ?? existing}; then ${raised.note}` : order.flagNote,
    };
  }
  const earlier = existing && existing !== 'vanished_tx' ? existing : null;
  if (raised) {
    return {
      flag: raised.flag,
      flagNote: earlier ? `${raised.note}; earlier ${earlier}: ${order.flagNote ?? ''}` : raised.note,
    };
  }
  return earlier ? { flag: earlier, flagNote: order.flagNote } : { flag: null, flagNote: null };
}
