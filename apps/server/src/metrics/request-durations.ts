import { Histogram, type Registry } from 'prom-client';

export const REQUEST_DURATION_METRIC = 'http_request_duration_seconds';

export interface RequestDurations {
  observe(method: string, route: string, statusCode: number, seconds: number): void;
}

/**
 * `http_request_duration_seconds`: prom-client's own histogram with its default buckets, labelled by
 * method, route pattern and status code.
 */
export function createRequestDurations(help: string, registers: Registry[]): RequestDurations {
  const histogram = new Histogram({
    name: REQUEST_DURATION_METRIC,
    help,
    labelNames: ['method', 'route', 'status_code'] as const,
    registers,
  });
  return {
    observe(method, route, statusCode, seconds) {
      histogram.observe({ method, route, status_code: String(statusCode) }, seconds);
    },
  };
}
