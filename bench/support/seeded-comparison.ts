/**
 * The seeded comparison's run and table: the same routes on a new empty database (made beside the
 * seeded one, dropped afterwards) and on the seeded database.
 */
import { measureRoutes, type ExportFigure, type RouteFigure } from './seeded-routes';
import { withScratchDatabase } from './scratch-postgres';

/** A route passes when its seeded p50 and p95 are within this multiple of the empty database's. */
export const SEEDED_RATIO_TARGET = 1.3;
/** Small answers on a quiet machine: under this many milliseconds a difference is noise, not work. */
const NOISE_FLOOR_MS = 1;
/** An export streams: its heap grows by less than this however many rows it writes. */
export const EXPORT_HEAP_TARGET_MB = 64;

const round = (ms: number) => Math.round(ms * 100) / 100;

export async function runSeededComparison(seededUrl: string): Promise<boolean> {
  const serverUrl = new URL(seededUrl);
  serverUrl.pathname = '/postgres';
  console.log('Seeded comparison: the empty database…');
  const empty = await withScratchDatabase(serverUrl.toString(), 'offzero_bench_empty', measureRoutes);
  console.log('Seeded comparison: the seeded database…');
  const seeded = await measureRoutes(seededUrl);
  let allPass = true;
  const rows = empty.routes.map((before: RouteFigure) => {
    const after = seeded.routes.find((figure) => figure.route === before.route)!;
    const ratio = (a: number, b: number) => Math.max(a, NOISE_FLOOR_MS) / Math.max(b, NOISE_FLOOR_MS);
    const worst = Math.max(ratio(after.p50, before.p50), ratio(after.p95, before.p95));
    const pass = worst <= SEEDED_RATIO_TARGET;
    allPass &&= pass;
    return {
      route: before.route,
      'empty p50 ms': round(before.p50),
      'empty p95 ms': round(before.p95),
      'seeded p50 ms': round(after.p50),
      'seeded p95 ms': round(after.p95),
      ratio: `${worst.toFixed(2)}×`,
      [`≤ ${SEEDED_RATIO_TARGET}×`]: pass ? 'pass' : 'short',
    };
  });
  console.table(rows);
  const exportRows = [...empty.exports.map((e) => ['empty', e] as const), ...seeded.exports.map((e) => ['seeded', e] as const)].map(
    ([database, figure]: readonly [string, ExportFigure]) => {
      const pass = figure.peakHeapMb <= EXPORT_HEAP_TARGET_MB;
      allPass &&= pass;
      return {
        database,
        export: figure.route,
        lines: figure.lines,
        kB: figure.kb,
        ms: Math.round(figure.ms),
        'ms per 1,000 lines': figure.lines > 0 ? round((figure.ms / figure.lines) * 1000) : '',
        'peak heap MB': round(figure.peakHeapMb),
        [`heap ≤ ${EXPORT_HEAP_TARGET_MB} MB`]: pass ? 'pass' : 'short',
      };
    },
  );
  console.table(exportRows);
  return allPass;
}
