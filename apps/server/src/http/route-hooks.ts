/**
 * A route's hook option as a list: Fastify accepts one hook or an array, and plugins that add their own
 * hooks to every route (idempotency, rate limits) must keep the route's own ones in order.
 */
export function hookList<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}
