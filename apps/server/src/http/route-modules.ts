import type { FastifyInstance, FastifyPluginAsync, RawServerDefault } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

type RouteModule = FastifyPluginAsync<Record<never, never>, RawServerDefault, ZodTypeProvider>;

/**
 * Adds a module's routes to the app's own context instead of a new encapsulated one. Fastify gives every
 * encapsulated plugin Request and Reply classes of its own; with one per route module, the framework's
 * code shared by every request saw some thirty object shapes and turned megamorphic once traffic had
 * reached a few modules. Measured: the price answer cost about 35 % more CPU in a server that had
 * answered other calls first than in one that had only answered prices. The route modules add routes
 * only (no hooks, decorators or parsers of their own); what needs a scope of its own (uploads, webhooks'
 * raw bodies) registers one inside, or is registered as a plugin (the websocket route, app.ts).
 */
export async function registerRoutes(app: FastifyInstance, routes: RouteModule): Promise<void> {
  await app.register(fastifyPlugin(routes));
}
