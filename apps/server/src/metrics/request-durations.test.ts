import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createRequestDurations, REQUEST_DURATION_METRIC } from './request-durations';

const HELP = 'HTTP requests by method, route pattern and status code, and how long they took.';
const BUCKETS = ['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'];

/** The value of one exposition line, found by its name and labels as written. */
function lineValue(text: string, name: string, labels: string): number | undefined {
  const prefix = `${name}{${labels}} `;
  const line = text.split('\n').find((candidate) => candidate.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(prefix.length));
}

describe('request durations', () => {
  it('exposes a histogram by method, route and status code, with the default buckets, cumulative', async () => {
    const registry = new Registry();
    const durations = createRequestDurations(HELP, [registry]);
    // On and around the bucket bounds, above the last one, and on several series.
    const observations: [string, string, number, number][] = [
      ['GET', '/api/price', 200, 0.0004],
      ['GET', '/api/price', 200, 0.005],
      ['GET', '/api/price', 200, 0.0051],
      ['GET', '/api/price', 200, 2.5],
      ['GET', '/api/price', 200, 42],
      ['GET', '/api/price', 503, 0.01],
      ['POST', '/api/order/save', 200, 0.3],
      ['GET', 'unmatched', 404, 0],
    ];
    for (const [method, route, statusCode, seconds] of observations) {
      durations.observe(method, route, statusCode, seconds);
    }
    const text = await registry.metrics();
    expect(text).toContain(`# HELP ${REQUEST_DURATION_METRIC} ${HELP}`);
    expect(text).toContain(`# TYPE ${REQUEST_DURATION_METRIC} histogram`);

    const price = 'method="GET",route="/api/price",status_code="200"';
    const bucket = (labels: string, le: string) =>
      lineValue(text, `${REQUEST_DURATION_METRIC}_bucket`, `le="${le}",${labels}`);
    // A bound counts the observations at or below it: 0.005 holds 0.0004 and 0.005 itself.
    expect(BUCKETS.map((le) => bucket(price, le))).toEqual([2, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 5]);
    expect(lineValue(text, `${REQUEST_DURATION_METRIC}_count`, price)).toBe(5);
    expect(lineValue(text, `${REQUEST_DURATION_METRIC}_sum`, price)).toBeCloseTo(44.5105, 10);

    const refused = 'method="GET",route="/api/price",status_code="503"';
    expect(bucket(refused, '0.005')).toBe(0);
    expect(bucket(refused, '0.01')).toBe(1);
    expect(lineValue(text, `${REQUEST_DURATION_METRIC}_count`, refused)).toBe(1);
    const save = 'method="POST",route="/api/order/save",status_code="200"';
    expect(bucket(save, '0.25')).toBe(0);
    expect(bucket(save, '0.5')).toBe(1);
    const unmatched = 'method="GET",route="unmatched",status_code="404"';
    expect(bucket(unmatched, '0.005')).toBe(1);
    expect(lineValue(text, `${REQUEST_DURATION_METRIC}_sum`, unmatched)).toBe(0);
  });

  it('starts again from nothing when its registry is reset', async () => {
    const registry = new Registry();
    const durations = createRequestDurations(HELP, [registry]);
    durations.observe('GET', '/api/price', 200, 0.001);
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('_count');
  });
});
