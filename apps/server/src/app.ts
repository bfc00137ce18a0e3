import type { LightningService } from './rails/lightning/lightning.service';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from './config/config';
import { toFastifyTrustProxy } from './config/trust-proxy';
import type { DatabaseHandle } from './db/database';
import { loggerOptions } from './http/logger';
import { LevelAwareLogController, requestLoggerFactory } from './http/request-logger';
import { createSessionService } from './auth/sessions';
import { createAdminMfaService } from './auth/admin-mfa.service';
import { countPasskeys } from './passkeys/passkey.repository';
import type { JobQueue } from './jobs/job-queue';
import type { EventBus } from './realtime/event-bus';
import type { DepositWatcher } from './rails/onchain/deposit-watcher';
import type { CasesService } from './cases/cases.service';
import type { OutboxService } from './outbox/outbox.service';
import type { InboxService } from './inbox/inbox.service';
import type { BankWebhooks } from './bank/bank-webhooks';
import type { OrderService } from './orders/order.service';
import type { PlansService } from './plans/plans.service';
import { createProviders, type Providers } from './providers/provider-registry';
import { registerRequestHooks } from './app-hooks';
import { composeServices } from './app-composition';
import { registerAppRoutes, type RealtimeOptions } from './app-routes';

export interface AppDependencies {
  config: AppConfig;
  database: DatabaseHandle;
  /** Tests pass false to keep their output quiet. */
  logger?: boolean;
  /** Where the log lines go instead of standard output (a test that reads the logs). */
  logStream?: NodeJS.WritableStream;
  /** Tests of the realtime channel supply their own bus and timings. */
  realtime?: { bus?: EventBus; options?: RealtimeOptions };
  /**
   * Adapters a test chooses instead of the mode's own (a PayPal REST gateway against a local server,
   * Sumsub, Esplora…). The rest still come from the provider registry.
   */
  providers?: Partial<Providers>;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    database: DatabaseHandle;
    /** The outside providers chosen for this mode (providers/provider-registry.ts). */
    providers: Providers;
    /** The background jobs' services, so tests can run a deposit poll or an expiry pass themselves. */
    depositWatcher: DepositWatcher;
    orderService: OrderService;
    /** The Lightning rail's incoming side, so tests can run a reconcile pass themselves; null without a node. */
    lightning: LightningService | null;
    /** One pass of instant sell payouts (docs/design.md, "Instant payouts"), as its job runs it. */
    runInstantPayouts: () => Promise<{ sent: number; ended: number }>;
    /**
     * Readiness answers 503 from now on (the first step of a graceful stop: health/graceful-shutdown.ts);
     * the app keeps serving until it is closed.
     */
    drain(): void;
    /** The job engine (pg-boss on PostgreSQL, in-process on the embedded database). */
    jobQueue: JobQueue;
    /** The delivery outbox, so tests can run a delivery pass themselves. */
    outbox: OutboxService;
    /** The inbox of provider webhooks, so tests can run a processing pass themselves. */
    inbox: InboxService;
    /** Transaction monitoring, so tests can run the rules themselves. */
    cases: CasesService;
    /** Recurring buys, so tests can run the run job themselves. */
    plans: PlansService;
    /** The bank's verified webhooks, to which features (and tests) subscribe. */
    bankWebhooks: BankWebhooks;
  }
}

const BODY_LIMIT_BYTES = 100 * 1024;

/**
 * Builds the whole HTTP application without listening, so tests drive it with `inject` and `main.ts`
 * serves it. The caller owns the database handle; closing the app closes it too. Three steps: the
 * hooks every request passes (app-hooks.ts), the services (app-composition.ts), the routes
 * (app-routes.ts).
 */
export async function buildApp({
  config,
  database,
  logger = true,
  logStream,
  realtime,
  providers: chosenProviders = {},
}: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger
      ? { ...(loggerOptions(config.logLevel) as object), ...(logStream ? { stream: logStream } : {}) }
      : false,
    // Each request's logger (bound to its id) is made when the request first writes a line, and
    // Fastify's request lines are built only at a level that writes them.
    ...(logger
      ? { childLoggerFactory: requestLoggerFactory, logController: new LevelAwareLogController() }
      : {}),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: toFastifyTrustProxy(config.trustProxy),
    connectionTimeout: config.httpTimeouts.connectionMs,
    keepAliveTimeout: config.httpTimeouts.keepAliveMs,
    requestTimeout: config.httpTimeouts.requestMs,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('database', database);
  const providers: Providers = { ...createProviders(config, database.db, app.log), ...chosenProviders };
  app.decorate('providers', providers);
  app.decorate(
    'sessions',
    createSessionService({
      db: database.db,
      secret: config.jwtSecret,
      ttlSeconds: config.sessionTtlSeconds,
      adminEmails: config.adminEmails,
    }),
  );
  // Declared before any request, so every request object has the same shape (http/route-modules.ts).
  app.decorateRequest('signedIn', null);
  app.decorate(
    'adminMfa',
    createAdminMfaService({
      db: database.db,
      serverSecret: config.jwtSecret,
      hasPasskey: async (userId) => (await countPasskeys(database.db, userId)) > 0,
    }),
  );
  app.addHook('onClose', async () => {
    app.sessions.close();
    await database.close();
  });

  const answers = await registerRequestHooks(app, config, database);
  const services = await composeServices(app, { config, database, providers, bus: realtime?.bus });
  await registerAppRoutes(app, { config, database, services, answers, realtimeOptions: realtime?.options });
  return app;
}
