import type { RouteOptions } from 'fastify';

/**
 * A route's hook option as a list: Fastify accepts one hook or an array, and plugins that add their own
 * hooks to every route (idempotency, rate limits) must keep the route's own ones in order.
 */
export function hookList<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

/** Methods that read: a request with one of them changes nothing and carries no body a route reads. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether every method a route answers only reads (rules for state changes and bodies skip it). */
export function onlyReads(route: Pick<RouteOptions, 'method'>): boolean {
  return [route.method].flat().every((method) => READ_METHODS.has(method));
}
