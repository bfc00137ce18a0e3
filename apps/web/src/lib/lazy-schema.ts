/**
 * A schema built the first time it is used rather than when its module loads. The shared modules
 * (packages/shared) declare many zod schemas at their top level: requests the server checks, forms, and
 * the answers the app checks. Building a zod schema takes a while on a phone, and a page needs only a
 * few of them, so the web build declares each top-level schema of those modules through this
 * (build/lazy-schemas.ts): the stand-in forwards everything to the real schema, built on first touch.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let schema: T | undefined;
  const real = (): T => (schema ??= build());
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(real(), key),
    set: (_target, key, value) => Reflect.set(real(), key, value),
    has: (_target, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      // The stand-in has no property of its own that could not be redefined: a proxy may not report one.
      return descriptor && { ...descriptor, configurable: true };
    },
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    deleteProperty: (_target, key) => Reflect.deleteProperty(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
