/**
 * The benchmarks' summaries of their measurements. Both read the values as given: nothing is
 * interpolated, so every figure printed is one that was measured (or, for an even count's median, the
 * mean of the two middle ones).
 */

/** The value at `fraction` (0.99 for p99) of values sorted ascending: the smallest with at least that share at or below it. */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

/** The middle value, or the mean of the two middle values of an even count; 0 for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
