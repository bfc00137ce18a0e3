/**
 * The seeded comparison: the same routes on a small database (a new one made beside the seeded one:
 * the bench customer and a small seed, so every page has as many rows to show; dropped afterwards) and on the
 * seeded database, both servers up at once and called in pairs, one call on each, so both are
 * measured at the same moments of a machine whose speed drifts. Prints the table and answers whether
 * every figure passed.
 */
import { openDatabase } from '../../apps/server/src/db/database';
import { seedScale } from '../../apps/server/src/scale/seed-scale';
import { withScratchDatabase } from './scratch-postgres';
import {
  startRouteTarget,
  timeCalls,
  timeExport,
  type ExportFigure,
  type RouteTarget,
} from './seeded-routes';
import { percentile } from './statistics';

/** A route passes when its seeded p50 and p95 are within this multiple of the small database's. */
export const SEEDED_RATIO_TARGET = 1.3;
/** An export streams: its live heap grows by less than this however many rows it writes. */
export const EXPORT_HEAP_TARGET_MB = 32;
/**
 * The small database: the bench customer and this seed, whose open orders fill the work queue's lists
 * as the seeded database's do, so both pages hold the same work (the cases are asked 20 at a time).
 * BENCH_SMALL_ORDERS sets its size; 0 compares with an empty database (the bench customer alone).
 */
const SMALL_ORDERS = Number(process.env.BENCH_SMALL_ORDERS ?? 20_000);
const SMALL_SEED = {
  seed: 1,
  customers: Math.max(1, Math.ceil(SMALL_ORDERS / 20)),
  orders: SMALL_ORDERS,
  openEvery: 40,
};
const CALLS = Number(process.env.BENCH_SEEDED_CALLS ?? 200);
const WARM_UP = 20;

const round = (ms: number) => Math.round(ms * 100) / 100;

/**
 * p50 and p95 of each side over CALLS calls each, taken in pairs: one call on each database, the
 * first of the pair alternating. A pause of the shared machine (a collection in this process, a
 * checkpoint, another program) then lands on both sides alike instead of on one side's whole turn, and
 * the p95 (the tenth-slowest of 200) compares the routes, not the moments they were called at.
 */
async function timeInPairs(small: () => Promise<Response>, seeded: () => Promise<Response>) {
  await timeCalls(small, WARM_UP);
  await timeCalls(seeded, WARM_UP);
  const latencies = { small: [] as number[], seeded: [] as number[] };
  for (let pair = 0; pair < CALLS; pair += 1) {
    const order = pair % 2 === 0 ? (['small', 'seeded'] as const) : (['seeded', 'small'] as const);
    for (const side of order) await timeCalls(side === 'small' ? small : seeded, 1, latencies[side]);
  }
  const figure = (values: number[]) => {
    values.sort((a, b) => a - b);
    return { p50: percentile(values, 0.5), p95: percentile(values, 0.95) };
  };
  return { small: figure(latencies.small), seeded: figure(latencies.seeded) };
}

async function compareTargets(small: RouteTarget, seeded: RouteTarget): Promise<boolean> {
  let allPass = true;
  const rows = [];
  for (const [index, [route, smallCall]] of small.calls.entries()) {
    const { small: before, seeded: after } = await timeInPairs(smallCall, seeded.calls[index]![1]);
    const worst = Math.max(after.p50 / before.p50, after.p95 / before.p95);
    const pass = worst <= SEEDED_RATIO_TARGET;
    allPass &&= pass;
    rows.push({
      route,
      'small p50 ms': round(before.p50),
      'small p95 ms': round(before.p95),
      'seeded p50 ms': round(after.p50),
      'seeded p95 ms': round(after.p95),
      ratio: `${worst.toFixed(2)}×`,
      [`≤ ${SEEDED_RATIO_TARGET}×`]: pass ? 'pass' : 'short',
    });
  }
  console.table(rows);
  const exportRows = [];
  for (const [index, [route, smallUrl]] of small.exports.entries()) {
    const before: ExportFigure = { route, ...(await timeExport(smallUrl, small.adminHeaders)) };
    const after: ExportFigure = {
      route,
      ...(await timeExport(seeded.exports[index]![1], seeded.adminHeaders)),
    };
    const perThousand = (figure: ExportFigure) => (figure.ms / Math.max(1, figure.lines)) * 1000;
    const ratio = perThousand(after) / perThousand(before);
    const pass = ratio <= SEEDED_RATIO_TARGET && after.peakHeapMb <= EXPORT_HEAP_TARGET_MB;
    allPass &&= pass;
    for (const [database, figure] of [
      ['small', before],
      ['seeded', after],
    ] as const) {
      exportRows.push({
        database,
        export: figure.route,
        lines: figure.lines,
        kB: figure.kb,
        ms: Math.round(figure.ms),
        'ms per 1,000 lines': round(perThousand(figure)),
        'peak live heap MB': round(figure.peakHeapMb),
        [`per line ≤ ${SEEDED_RATIO_TARGET}×, heap ≤ ${EXPORT_HEAP_TARGET_MB} MB`]:
          database === 'seeded' ? `${ratio.toFixed(2)}×: ${pass ? 'pass' : 'short'}` : '',
      });
    }
  }
  console.table(exportRows);
  return allPass;
}

export async function runSeededComparison(seededUrl: string): Promise<boolean> {
  const serverUrl = new URL(seededUrl);
  serverUrl.pathname = '/postgres';
  return withScratchDatabase(serverUrl.toString(), 'offzero_bench_small', async (smallUrl) => {
    console.log(`Seeded comparison: the small database (${SMALL_SEED.orders} orders)…`);
    // BENCH_SMALL_ORDERS=0: an empty database, but for the bench customer (lists then have less to show).
    if (SMALL_ORDERS > 0) {
      const filling = await openDatabase({ databaseUrl: smallUrl, dataDir: null });
      await seedScale(filling.db, SMALL_SEED);
      await filling.close();
    }
    const small = await startRouteTarget(smallUrl);
    try {
      console.log('Seeded comparison: the seeded database…');
      const seeded = await startRouteTarget(seededUrl);
      try {
        console.log(`Seeded comparison: ${CALLS} calls of each route on each, in pairs…`);
        return await compareTargets(small, seeded);
      } finally {
        await seeded.close();
      }
    } finally {
      await small.close();
    }
  });
}
