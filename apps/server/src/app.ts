import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from './config/config';
import { toFastifyTrustProxy } from './config/trust-proxy';
import type { DatabaseHandle } from './db/database';
import { isApiPath, securityHeaderWriter } from './http/security-headers';
import { registerCsrfProtection } from './http/csrf';
import { addressTextRefusal, registerTextInputRules } from './http/text-input';
import { registerIdempotency } from './http/idempotency';
import { apiNotFound, registerErrorHandling } from './http/errors';
import { loggerOptions } from './http/logger';
import { LevelAwareLogController, requestLoggerFactory } from './http/request-logger';
import { registerOpenApi } from './http/openapi';
import { registerRoutes } from './http/route-modules';
import { registerWebApp } from './web/web-app';
import { sendRefusalPage } from './web/refusal-page';
import { startLoadShedding } from './http/load-shedding';
import { healthRoutes } from './health/health.routes';
import { createReadiness } from './health/health.service';
import { drainingAnswers, registerDraining } from './health/graceful-shutdown';
import { createAppMetrics, observeHttpRequests } from './metrics/app-metrics';
import { metricsRoutes } from './metrics/metrics.routes';
import { appConfigRoutes } from './app-config/app-config.routes';
import { publicAppConfig } from './app-config/public-app-config';
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
import { createPayoutBatchService } from './payouts/batches/payout-batches.service';
import { payoutBatchRoutes } from './payouts/batches/payout-batches.routes';
import { fundDemoPayoutWallet } from './payouts/batches/demo-payout-wallet';
import { priceRoutes } from './prices/price.routes';
import { createOrderNotifier } from './orders/order-notifications';
import { createCasesService, type CasesService } from './cases/cases.service';
import { caseRoutes } from './cases/cases.routes';
import { createOutboxService, type OutboxService } from './outbox/outbox.service';
import { createInboxService, type InboxService } from './inbox/inbox.service';
import { createOrderService, type OrderService } from './orders/order.service';
import { orderRoutes } from './orders/order.routes';
import { quoteRoutes } from './orders/quote.routes';
import { limitsRoutes } from './limits/limits.routes';
import { createLimitsService } from './limits/limits.service';
import { createPayPalService } from './payments/paypal.service';
import { paypalRoutes } from './payments/paypal.routes';
import { registerBlockedPlaces } from './compliance/blocked-places/blocked-places';
import { packagedIpCountryDatabase } from './compliance/blocked-places/ip-country';
import {
  createSanctionsListService,
  SANCTIONS_REFRESH_EVERY_MS,
} from './compliance/sanctions/sanctions-list.service';
import { createTaxService } from './tax/tax.service';
import { taxRoutes } from './tax/tax.routes';
import { createTinCipher } from './tax/tin-cipher';
import { createPayoutAddressService, type ScreenAddress } from './payout-addresses/payout-address.service';
import { assertAddressNotSanctioned, isSanctionedAddress } from './compliance/sanctions/sanctions-screening';
import { payoutAddressRoutes } from './payout-addresses/payout-address.routes';
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
  app.decorate('adminMfa', createAdminMfaService({ db: database.db, serverSecret: config.jwtSecret }));
  app.addHook('onClose', async () => {
    app.sessions.close();
    await database.close();
  });

  // Only JSON is accepted (multipart is added per route where uploads exist); anything else is 415.
  app.removeContentTypeParser('text/plain');

  registerErrorHandling(app);
  // Every request's first step, in one hook: its security headers (a refusal carries them too), its
  // connection's end after the answer while the process drains (health/graceful-shutdown.ts), then
  // the load check, which refuses it at once while the process is overloaded, then the text rule on
  // its query string and path parameters (docs/design.md; a body is checked once parsed). A refused
  // page's address is told as a page (web/refusal-page.ts), an API call as JSON, as their headers say.
  const writeSecurityHeaders = await securityHeaderWriter(config);
  const loadShedding = startLoadShedding(app, config.loadShedding);
  const answers = drainingAnswers(app.server);
  app.addHook('onRequest', (request, reply, done) => {
    writeSecurityHeaders(request, reply);
    answers.closeIfDraining(reply);
    const refusal = loadShedding.refusal(request, reply) ?? addressTextRefusal(request);
    if (refusal && !isApiPath(request.url)) {
      sendRefusalPage(reply, refusal);
      return;
    }
    done(refusal);
  });
  // Before any route, so the OpenAPI document sees every one of them.
  if (config.processRole !== 'worker') await registerOpenApi(app);
  registerTextInputRules(app);
  await registerRateLimits(app, config.redisUrl);
  registerMutationLimits(app, config.mutationLimits);
  // After the limits: a call refused as too many never claims its Idempotency-Key.
  registerIdempotency(app, database.db);
  // Routes marked `blockedPlaces` answer 451 to clients in a blocked country (docs/design.md).
  registerBlockedPlaces(app, {
    blockedCountries: config.blockedCountries,
    lookup: packagedIpCountryDatabase(),
  });
  // Last of the per-route hooks, so it runs first: a forged call is refused before anything counts it.
  registerCsrfProtection(app, { secureCookie: config.publicUrl.startsWith('https://') });

  await seedGlobalSettings(database.db, config.mode);
  if (config.isDemo) await seedDemoAdmin(database.db);
  const notifications = { email: providers.email, sms: providers.sms };

  const bus =
    realtime?.bus ??
    (config.redisUrl ? createRedisEventBus(config.redisUrl, app.log) : createMemoryEventBus(app.log));
  app.addHook('onClose', async () => bus.close());
  // Every e-mail, SMS and realtime event a state change causes is written into the outbox with the
  // change, delivered right after the commit and retried by the deliver-outbox job (docs/design.md).
  const outbox = createOutboxService({
    db: database.db,
    channels: notifications,
    bus,
    log: app.log,
    publicUrl: config.publicUrl,
  });
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
  const { chain } = providers;
  // Every address entering the address book, and every xpub address about to be paid, is screened
  // against the sanctions list (docs/design.md).
  const screenAddress: ScreenAddress = (address, { tx }) =>
    assertAddressNotSanctioned(tx ?? database.db, address, 'address');
  const payoutAddresses = createPayoutAddressService({
    db: database.db,
    network: config.bitcoinNetwork,
    publicUrl: config.publicUrl,
    cooldownHours: config.payoutAddressCooldownHours,
    outbox,
    screenAddress,
  });
  const userSettings = createUserSettingsService(database.db, config.bitcoinNetwork, payoutAddresses);
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
  // The sanctions list (docs/design.md) is loaded at start by a process that works jobs, then daily by
  // the sanctions-refresh job; every process screens against the copy kept in the database.
  const sanctionsList = createSanctionsListService({
    db: database.db,
    url: config.sanctionsListUrl,
    log: app.log,
  });
  if (runsBackgroundJobs(config.processRole)) {
    await sanctionsList.refresh().catch(() => undefined); // recorded and logged; the last good list stays
  }
  const metrics = createAppMetrics({ db: database.db, prices, sanctionsList, log: app.log });
  observeHttpRequests(app, metrics);
  countJobRun = (job, outcome) => metrics.jobRuns.inc({ job, outcome });
  // Transaction monitoring: its rules run as jobs on every order saved, credited or changed (flagged,
  // paid, moved), and a sweep catches any change whose job was lost (docs/design.md).
  const cases = createCasesService({ db: database.db, queue: jobQueue, log: app.log });
  const notifyCustomer = createOrderNotifier(outbox);
  const notifyOrderStatus: typeof notifyCustomer = async (order) => {
    if ('id' in order && typeof order.id === 'string') cases.orderChanged(order.id);
    await notifyCustomer(order);
  };
  const orderService = createOrderService({
    db: database.db,
    prices,
    network: config.bitcoinNetwork,
    depositXpub: providers.depositAccountKey,
    notify: notifyOrderStatus,
    onSaved: (order) => cases.orderChanged(order.id),
    depositConfirmations: config.depositConfirmations,
    payoutAddresses,
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
    onCredited: (order) => {
      metrics.depositsCredited.inc();
      cases.orderChanged(order.id);
    },
  });
  app.decorate('depositWatcher', depositWatcher);
  app.decorate('orderService', orderService);
  app.decorate('jobQueue', jobQueue);
  app.decorate('cases', cases);
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
    monitorOrders: (data) => cases.runMonitorJob(data),
    beforeStop: () => cases.flush(),
    refreshSanctionsList: { everyMs: SANCTIONS_REFRESH_EVERY_MS, run: () => sanctionsList.refresh() },
  });

  const readiness = createReadiness({
    database,
    mode: config.mode,
    redisUrl: config.redisUrl,
    log: app.log,
  });
  app.addHook('onClose', async () => readiness.close());
  registerDraining(app, readiness, answers);
  await registerRoutes(app, healthRoutes(readiness));
  await registerRoutes(app, metricsRoutes(metrics, config));
  // A worker (PROCESS_ROLE=worker) runs the background jobs only: its port answers health checks and
  // metrics.
  if (config.processRole === 'worker') {
    app.setNotFoundHandler((request, reply) =>
      reply.status(404).send(apiNotFound(request.method, request.url)),
    );
    return app;
  }
  await registerRoutes(app, appConfigRoutes);
  await registerRoutes(app, globalSettingsRoutes(createGlobalSettingsService(database.db)));
  await registerRoutes(app, accountsRoutes(accounts, app.adminMfa));
  await registerRoutes(app, adminMfaRoutes(app.adminMfa));
  await registerRoutes(app, userRoutes(accounts));
  await registerRoutes(app, userSettingsRoutes(userSettings));
  await registerRoutes(app, payoutAddressRoutes(payoutAddresses, config.bitcoinNetwork));
  await registerRoutes(app, referralRoutes(createReferralService(database.db)));
  await registerRoutes(app, kycRoutes(kyc));
  await registerRoutes(app, priceRoutes(prices));
  await registerRoutes(app, quoteRoutes(orderService));
  await registerRoutes(app, orderRoutes(orderService));
  await registerRoutes(app, limitsRoutes(createLimitsService({ db: database.db })));
  await registerRoutes(
    app,
    taxRoutes(
      createTaxService({
        db: database.db,
        cipher: createTinCipher(config.dataEncryption),
        currentKey: config.dataEncryption.current,
        issuer: {
          companyName: config.companyName,
          postalAddress: config.postalAddress,
          supportEmail: config.supportEmail,
        },
      }),
    ),
  );
  await registerRoutes(app, paypalRoutes(paypal, demoPayPal));
  // Its own scope: the websocket plugin decorates and hooks what it registers on.
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
    sanctionsList,
    payoutDestinations: { db: database.db, chain, network: config.bitcoinNetwork, screenAddress },
  });
  await registerRoutes(app, adminOrderRoutes(admin));
  await registerRoutes(app, adminPeopleRoutes(admin));
  await registerRoutes(app, adminSettingsRoutes(admin));
  await registerRoutes(app, adminJobRoutes(admin));
  await registerRoutes(app, adminOutboxRoutes(admin));
  await registerRoutes(app, caseRoutes(cases));
  // Demo: the demo payout wallet has coins on the simulated chain (once, however many processes start).
  if (config.isDemo && simulatedChain && providers.payoutWallet) {
    await fundDemoPayoutWallet(simulatedChain, providers.payoutWallet);
  }
  await registerRoutes(
    app,
    payoutBatchRoutes(
      createPayoutBatchService(
        {
          db: database.db,
          chain,
          network: config.bitcoinNetwork,
          wallet: providers.payoutWallet,
          feeCapPercent: config.payoutFeeCapPercent,
          notify: notifyOrderStatus,
          // Screened again when a batch is built: the list may have changed since the buy was saved.
          screenDestination: async (db, address) =>
            (await isSanctionedAddress(db, address)) ? 'the address is on the sanctions list' : null,
        },
        { demoSigner: config.isDemo },
      ),
    ),
  );
  if (config.isDemo)
    await registerRoutes(app, devRoutes(createDevService({ db: database.db, kyc, paypal: demoPayPal })));
  if (config.isDemo && simulatedChain) await registerRoutes(app, chainDevRoutes(simulatedChain));

  const webApp = await registerWebApp(app, config.webDistDir, publicAppConfig(config, providers));
  app.setNotFoundHandler((request, reply) => {
    if (!request.url.startsWith('/api') && (request.method === 'GET' || request.method === 'HEAD')) {
      return webApp.serveIndex(request, reply);
    }
    return reply.status(404).send(apiNotFound(request.method, request.url));
  });

  return app;
}
