import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from './config/config';
import { toFastifyTrustProxy } from './config/trust-proxy';
import type { DatabaseHandle } from './db/database';
import { registerSecurityHeaders } from './http/security-headers';
import { registerCsrfProtection } from './http/csrf';
import { registerTextInputRules } from './http/text-input';
import { registerIdempotency } from './http/idempotency';
import { apiNotFound, registerErrorHandling } from './http/errors';
import { loggerOptions } from './http/logger';
import { registerOpenApi } from './http/openapi';
import { registerWebApp } from './web/web-app';
import { registerLoadShedding } from './http/load-shedding';
import { healthRoutes } from './health/health.routes';
import { createReadiness } from './health/health.service';
import { registerDraining } from './health/graceful-shutdown';
import { createAppMetrics, observeHttpRequests } from './metrics/app-metrics';
import { metricsRoutes } from './metrics/metrics.routes';
import { appConfigRoutes } from './app-config/app-config.routes';
import { globalSettingsRoutes } from './settings/global-settings.routes';
import { createGlobalSettingsService } from './settings/global-settings.service';
import { seedGlobalSettings } from './settings/global-settings.repository';
import { seedDemoAdmin } from './admin/seed-demo-admin';
import { createSessionService } from './auth/sessions';
import { createOtpService } from './auth/otp.service';
import { createAccountsService } from './auth/accounts.service';
import { createRegistrationTokens } from './auth/registration-token';
import { accountsRoutes } from './auth/accounts.routes';
import { createAdminMfaService } from './auth/admin-mfa.service';
import { adminMfaRoutes } from './auth/admin-mfa.routes';
import { userRoutes } from './users/user.routes';
import { devRoutes } from './dev/dev.routes';
import { createDevService } from './dev/dev.service';
import { registerMutationLimits, registerRateLimits } from './http/rate-limits';
import { createUserSettingsService } from './settings/user-settings.service';
import { userSettingsRoutes } from './settings/user-settings.routes';
import { referralRoutes } from './referrals/referral.routes';
import { createReferralService } from './referrals/referral.service';
import { createKycService } from './kyc/kyc.service';
import { kycRoutes } from './kyc/kyc.routes';
import { createJobQueue, runsBackgroundJobs, startBackgroundJobs } from './jobs/background-jobs';
import type { JobQueue, JobRunOutcome } from './jobs/job-queue';
import { applyRetention } from './jobs/retention.repository';
import { createPriceBook } from './prices/price-book';
import { createMemoryEventBus, createRedisEventBus, type EventBus } from './realtime/event-bus';
import { realtimeRoutes, type RealtimeOptions } from './realtime/realtime.routes';
import { chainDevRoutes } from './chain/chain.routes';
import { createDepositWatcher, type DepositWatcher } from './deposits/deposit-watcher';
import { createAdminService } from './admin/admin.service';
import { adminOrderRoutes } from './admin/admin-orders.routes';
import { adminPeopleRoutes } from './admin/admin-people.routes';
import { adminSettingsRoutes } from './admin/admin-settings.routes';
import { adminJobRoutes } from './admin/admin-jobs.routes';
import { adminOutboxRoutes } from './admin/admin-outbox.routes';
import { createPayoutBatchService } from './payout-batches/payout-batches.service';
import { payoutBatchRoutes } from './payout-batches/payout-batches.routes';
import { fundDemoPayoutWallet } from './payout-batches/demo-payout-wallet';
import { screenNothing } from './payout-batches/payout-destination';
import { priceRoutes } from './prices/price.routes';
import { createOrderNotifier } from './orders/order-notifications';
import { createOutboxService, type OutboxService } from './outbox/outbox.service';
import { createInboxService, type InboxService } from './inbox/inbox.service';
import { createOrderService, type OrderService } from './orders/order.service';
import { orderRoutes } from './orders/order.routes';
import { createPayPalService } from './payments/paypal.service';
import { paypalRoutes } from './payments/paypal.routes';
import {
  createProviders,
  isDemoPayPalSandbox,
  isSimulatedChain,
  type Providers,
} from './providers/provider-registry';

export interface AppDependencies {
  config: AppConfig;
  database: DatabaseHandle;
  /** Tests pass false to keep their output quiet. */
  logger?: boolean;
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
  }
}

const BODY_LIMIT_BYTES = 100 * 1024;

/**
 * Builds the whole HTTP application without listening, so tests drive it with `inject` and `main.ts`
 * serves it. The caller owns the database handle; closing the app closes it too.
 */
export async function buildApp({
  config,
  database,
  logger = true,
  realtime,
  providers: chosenProviders = {},
}: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ? loggerOptions(config.logLevel) : false,
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
  app.decorate('adminMfa', createAdminMfaService({ db: database.db, serverSecret: config.jwtSecret }));
  app.addHook('onClose', async () => database.close());

  // Only JSON is accepted (multipart is added per route where uploads exist); anything else is 415.
  app.removeContentTypeParser('text/plain');

  registerErrorHandling(app);
  await registerLoadShedding(app, config.loadShedding);
  // Before any route, so the OpenAPI document sees every one of them.
  if (config.processRole !== 'worker') await registerOpenApi(app);
  await app.register(fastifyCookie);
  await registerSecurityHeaders(app, config);
  registerCsrfProtection(app, { secureCookie: config.publicUrl.startsWith('https://') });
  registerTextInputRules(app);
  await registerRateLimits(app, config.redisUrl);
  registerMutationLimits(app, config.mutationLimits);
  // After the limits: a call refused as too many never claims its Idempotency-Key.
  registerIdempotency(app, database.db);

  await seedGlobalSettings(database.db, config.mode);
  if (config.isDemo) await seedDemoAdmin(database.db);
  const notifications = { email: providers.email, sms: providers.sms };

  const bus =
    realtime?.bus ??
    (config.redisUrl ? createRedisEventBus(config.redisUrl, app.log) : createMemoryEventBus(app.log));
  app.addHook('onClose', async () => bus.close());
  // Every e-mail, SMS and realtime event a state change causes is written into the outbox with the
  // change, delivered right after the commit and retried by the deliver-outbox job (DESIGN.md 7.4).
  const outbox = createOutboxService({ db: database.db, channels: notifications, bus, log: app.log });
  app.decorate('outbox', outbox);
  const accounts = createAccountsService({
    db: database.db,
    otp: createOtpService(database.db, config.jwtSecret),
    registrationTokens: createRegistrationTokens(database.db, config.jwtSecret),
    notifications,
    log: app.log,
    publicUrl: config.publicUrl,
    outbox,
  });
  // Job outcomes are counted once the metrics exist (they read the price book, made below).
  let countJobRun: (job: string, outcome: JobRunOutcome) => void = () => undefined;
  const jobQueue = createJobQueue(database, {
    log: app.log,
    onRun: (job, outcome) => countJobRun(job, outcome),
  });
  // Provider webhooks are stored before they are answered and applied by the process-inbox job.
  const inbox = createInboxService({ db: database.db, queue: jobQueue, log: app.log });
  app.decorate('inbox', inbox);
  const kyc = createKycService({ db: database.db, provider: providers.kyc, outbox, inbox, log: app.log });
  const userSettings = createUserSettingsService(database.db, config.bitcoinNetwork);
  const { chain } = providers;
  const simulatedChain = isSimulatedChain(chain) ? chain : null;
  const prices = createPriceBook({
    db: database.db,
    sources: providers.priceSources,
    feeRate: () => chain.feeRate(),
    log: app.log,
  });
  // A process that works jobs fetches once at start, so it quotes at once; from then on only the
  // price-refresh job fetches, and every process follows the newest stored price.
  if (runsBackgroundJobs(config.processRole)) {
    await prices
      .refresh()
      .catch((error: unknown) => app.log.warn({ err: error }, 'first price fetch failed'));
  }
  await prices.reload();
  prices.follow();
  app.addHook('onClose', async () => prices.stop());
  const metrics = createAppMetrics({ db: database.db, prices, log: app.log });
  observeHttpRequests(app, metrics);
  countJobRun = (job, outcome) => metrics.jobRuns.inc({ job, outcome });
  const notifyOrderStatus = createOrderNotifier(outbox);
  const orderService = createOrderService({
    db: database.db,
    prices,
    network: config.bitcoinNetwork,
    depositXpub: providers.depositAccountKey,
    notify: notifyOrderStatus,
  });
  const demoPayPal = isDemoPayPalSandbox(providers.paypal) ? providers.paypal : null;
  const paypal = createPayPalService({
    db: database.db,
    gateway: providers.paypal,
    notify: notifyOrderStatus,
    inbox,
    log: app.log,
  });
  const depositWatcher = createDepositWatcher({
    db: database.db,
    chain,
    prices,
    notify: notifyOrderStatus,
    confirmationsRequired: config.depositConfirmations,
    log: app.log,
    onCredited: () => metrics.depositsCredited.inc(),
  });
  app.decorate('depositWatcher', depositWatcher);
  app.decorate('orderService', orderService);
  app.decorate('jobQueue', jobQueue);
  await startBackgroundJobs(app, {
    queue: jobQueue,
    kyc,
    orders: orderService,
    depositWatcher,
    refreshPrices: () => prices.refresh(),
    retention: async () => ({ ...(await applyRetention(database.db)), jobRuns: await jobQueue.prune() }),
    deliverOutbox: () => outbox.deliverDue(),
    processInbox: (data) => inbox.process(data),
    reconcilePayPal: () => paypal.reconcile(),
  });

  const readiness = createReadiness({
    database,
    mode: config.mode,
    redisUrl: config.redisUrl,
    log: app.log,
  });
  app.addHook('onClose', async () => readiness.close());
  registerDraining(app, readiness);
  await app.register(healthRoutes(readiness));
  await app.register(metricsRoutes(metrics, config));
  // A worker (PROCESS_ROLE=worker) runs the background jobs only: its port answers health checks and
  // metrics.
  if (config.processRole === 'worker') {
    app.setNotFoundHandler((request, reply) =>
      reply.status(404).send(apiNotFound(request.method, request.url)),
    );
    return app;
  }
  await app.register(appConfigRoutes);
  await app.register(globalSettingsRoutes(createGlobalSettingsService(database.db)));
  await app.register(accountsRoutes(accounts, app.adminMfa));
  await app.register(adminMfaRoutes(app.adminMfa));
  await app.register(userRoutes(accounts));
  await app.register(userSettingsRoutes(userSettings));
  await app.register(referralRoutes(createReferralService(database.db)));
  await app.register(kycRoutes(kyc));
  await app.register(priceRoutes(prices));
  await app.register(orderRoutes(orderService));
  await app.register(paypalRoutes(paypal, demoPayPal));
  await app.register(realtimeRoutes(bus, realtime?.options));
  const admin = createAdminService({
    db: database.db,
    notify: notifyOrderStatus,
    simulatedChain,
    confirmationsRequired: config.depositConfirmations,
    kyc,
    userSettings,
    bus,
    sessions: app.sessions,
    adminEmails: config.adminEmails,
    jobs: jobQueue,
    outbox,
    inbox,
  });
  await app.register(adminOrderRoutes(admin));
  await app.register(adminPeopleRoutes(admin));
  await app.register(adminSettingsRoutes(admin));
  await app.register(adminJobRoutes(admin));
  await app.register(adminOutboxRoutes(admin));
  // Demo: the demo payout wallet has coins on the simulated chain (once, however many processes start).
  if (config.isDemo && simulatedChain && providers.payoutWallet) {
    await fundDemoPayoutWallet(simulatedChain, providers.payoutWallet);
  }
  await app.register(
    payoutBatchRoutes(
      createPayoutBatchService(
        {
          db: database.db,
          chain,
          network: config.bitcoinNetwork,
          wallet: providers.payoutWallet,
          feeCapPercent: config.payoutFeeCapPercent,
          notify: notifyOrderStatus,
          screenDestination: screenNothing,
        },
        { demoSigner: config.isDemo },
      ),
    ),
  );
  if (config.isDemo)
    await app.register(devRoutes(createDevService({ db: database.db, kyc, paypal: demoPayPal })));
  if (config.isDemo && simulatedChain) await app.register(chainDevRoutes(simulatedChain));

  const webApp = await registerWebApp(app, config.webDistDir);
  app.setNotFoundHandler((request, reply) => {
    if (!request.url.startsWith('/api') && (request.method === 'GET' || request.method === 'HEAD')) {
      return webApp.serveIndex(reply);
    }
    return reply.status(404).send(apiNotFound(request.method, request.url));
  });

  return app;
}
