/**
 * The API benchmark's load (autocannon) and its figures: slices of load against one server, their
 * summary, and the product compared with its bare counterpart in rounds that take turns.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { ServerProcess } from '../../apps/server/src/test/server-process';
import { median, percentile } from './statistics';

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  timeouts: number;
  requests: number;
  /** The server process's CPU time (user and system) per answered request; null where unreadable. */
  serverCpuMicrosPerRequest: number | null;
}

export interface Target {
  database: string;
  target: string;
  measured: string;
  pass: boolean;
}

export interface Figure {
  database: string;
  server: string;
  endpoint: string;
  m: Measured;
}

/** A server under load with one kind of request (or one mix of them); 10 connections unless it says. */
export interface Side {
  server: ServerProcess;
  endpoint: string;
  options: autocannon.Options;
}

export interface Slice {
  seconds: number;
  requests: number;
  errors: number;
  timeouts: number;
  latenciesMs: number[];
  /** How many answers of each status. */
  statusCounts: Record<string, number>;
  /** CPU time the server process spent in the slice, user and system, in microseconds (null: unreadable). */
  serverCpuMicros: number | null;
}

/** The CPU time of a process so far, in microseconds, from /proc (Linux); null where it cannot be read. */
function processCpuMicros(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, fields 14 and 15 of stat(5), counted in clock ticks of 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}

export async function loadSlice(side: Side, seconds: number, connections: number): Promise<Slice> {
  const cpuBefore = processCpuMicros(side.server.pid);
  const latenciesMs: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ connections, duration: seconds, ...side.options }, (error, done) =>
      error ? reject(error as Error) : resolve(done),
    );
    instance.on('response', (_client, _status, _bytes, ms) => latenciesMs.push(ms));
  });
  const cpuAfter = processCpuMicros(side.server.pid);
  return {
    seconds: result.duration,
    requests: result.requests.total,
    errors: result.non2xx + result.errors,
    timeouts: result.timeouts,
    latenciesMs,
    statusCounts: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats?.count ?? 0]),
    ),
    serverCpuMicros: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
  };
}

export function summarise(slices: readonly Slice[]): Measured {
  const seconds = slices.reduce((sum, slice) => sum + slice.seconds, 0);
  const requests = slices.reduce((sum, slice) => sum + slice.requests, 0);
  const latencies = slices.flatMap((slice) => slice.latenciesMs).sort((a, b) => a - b);
  let cpuMicros: number | null = 0;
  for (const slice of slices) {
    cpuMicros =
      cpuMicros === null || slice.serverCpuMicros === null ? null : cpuMicros + slice.serverCpuMicros;
  }
  return {
    rps: seconds === 0 ? 0 : Math.round(requests / seconds),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errors: slices.reduce((sum, slice) => sum + slice.errors, 0),
    timeouts: slices.reduce((sum, slice) => sum + slice.timeouts, 0),
    requests,
    serverCpuMicrosPerRequest: cpuMicros !== null && requests > 0 ? cpuMicros / requests : null,
  };
}

/** How a comparison loads: connections, total seconds per side, turns. */
export interface CompareSettings {
  connections: number;
  durationSeconds: number;
  rounds: number;
}

/**
 * The product beside its bare counterpart: a short warm-up of each (the JIT and the database's
 * caches, not the figure, pay for the first requests), then `rounds` rounds in which each server takes
 * its turn under the same load, first one then the other, alternately. This machine's speed drifts by
 * tens of percent within a minute; measuring the two side by side in short turns, and taking the
 * median of each round's ratio, compares them at the same moments rather than a minute apart.
 * Records both figures and the ratio's target.
 */
export async function compare(
  settings: CompareSettings,
  record: { figures: Figure[]; targets: Target[] },
  check: { database: string; name: string; bare: Side; product: Side; atLeast: number },
): Promise<{ product: Measured; bare: Measured }> {
  const { database, name, bare, product, atLeast } = check;
  const { connections, rounds: roundCount } = settings;
  for (const side of [bare, product]) await loadSlice(side, 1, connections);
  const seconds = settings.durationSeconds / roundCount;
  const bareSlices: Slice[] = [];
  const productSlices: Slice[] = [];
  for (let round = 0; round < roundCount; round += 1) {
    if (round % 2 === 0) {
      bareSlices.push(await loadSlice(bare, seconds, connections));
      productSlices.push(await loadSlice(product, seconds, connections));
    } else {
      productSlices.push(await loadSlice(product, seconds, connections));
      bareSlices.push(await loadSlice(bare, seconds, connections));
    }
  }
  const rate = (slice: Slice) => (slice.seconds === 0 ? 0 : slice.requests / slice.seconds);
  const ratios = productSlices.map((slice, round) => {
    const bareRate = rate(bareSlices[round]!);
    return bareRate === 0 ? 0 : rate(slice) / bareRate;
  });
  const value = median(ratios);
  const bareFigure = summarise(bareSlices);
  const productFigure = summarise(productSlices);
  record.figures.push({ database, server: 'bare', endpoint: bare.endpoint, m: bareFigure });
  record.figures.push({ database, server: 'product', endpoint: product.endpoint, m: productFigure });
  const rounds = ratios.map((ratio) => Math.round(ratio * 100)).join(', ');
  record.targets.push({
    database,
    target: `${name} ≥ ${Math.round(atLeast * 100)} % of bare`,
    measured: `${Math.round(value * 100)} % (rounds: ${rounds}; ${productFigure.rps} / ${bareFigure.rps} req/s)`,
    pass: value >= atLeast && productFigure.errors === 0 && bareFigure.errors === 0,
  });
  return { product: productFigure, bare: bareFigure };
}
