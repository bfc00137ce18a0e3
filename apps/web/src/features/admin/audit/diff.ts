/** One changed field of an audit entry: its dot path and the values before and after. */
export interface Change {
  key: string;
  before: unknown;
  after: unknown;
}

// Bookkeeping that changes with every write and says nothing to a reader.
const IGNORED = new Set(['updatedAt', 'updated_at']);

function flatten(value: unknown, prefix: string, out: Map<string, unknown>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0 && prefix) out.set(prefix, value);
    for (const [key, inner] of entries) {
      if (IGNORED.has(key)) continue;
      flatten(inner, prefix ? `${prefix}.${key}` : key, out);
    }
    return;
  }
  out.set(prefix, value);
}

/**
 * The fields that differ between `before` and `after`, compared leaf by leaf ('order.platform_fees'),
 * in a stable order. A missing side counts as null. Timestamps of the write itself are left out.
 */
export function diffChanges(before: unknown, after: unknown): Change[] {
  const a = new Map<string, unknown>();
  const b = new Map<string, unknown>();
  if (before !== null && before !== undefined) flatten(before, '', a);
  if (after !== null && after !== undefined) flatten(after, '', b);
  const keys = [...new Set([...a.keys(), ...b.keys()])].filter((key) => key !== '');
  const changes: Change[] = [];
  for (const key of keys) {
    const left = a.has(key) ? a.get(key) : null;
    const right = b.has(key) ? b.get(key) : null;
    if (JSON.stringify(left) !== JSON.stringify(right)) changes.push({ key, before: left, after: right });
  }
  return changes;
}

/** A value as short text for the diff: strings as they are, '—' for nothing, JSON for the rest. */
export function showValue(value: unknown, max = 48): string {
  if (value === null || value === undefined || value === '') return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
