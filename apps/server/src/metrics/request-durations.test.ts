import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createRequestDurations, REQUEST_DURATION_METRIC } from './request-durations';

const HELP = 'HTTP requests by method, route pattern and status code, and how long they took.';

describe('request durations', () => {
  it('exposes exactly the lines prom-client’s own histogram does for the same observations', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const durations = createRequestDurations(HELP, [ours]);
    const histogram = new Histogram({
      name: REQUEST_DURATION_METRIC,
      help: HELP,
      labelNames: ['method', 'route', 'status_code'] as const,
      registers: [theirs],
    });
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
      histogram.observe({ method, route, status_code: String(statusCode) }, seconds);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('starts again from nothing when its registry is reset', async () => {
    const registry = new Registry();
    const durations = createRequestDurations(HELP, [registry]);
    durations.observe('GET', '/api/price', 200, 0.001);
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('_count');
  });
});
