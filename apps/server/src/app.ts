import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from './config/config';
import type { DatabaseHandle } from './db/database';
import { registerSecurityHeaders } from './http/security-headers';
import { registerCsrfProtection } from './http/csrf';
import { apiNotFound, registerErrorHandling } from './http/errors';
import { loggerOptions } from './http/logger';
import { registerWebApp } from './web/web-app';
import { healthRoutes } from './health/health.routes';
import { appConfigRoutes } from './app-config/app-config.routes';
import { globalSettingsRoutes } from './settings/global-settings.routes';
import { seedGlobalSettings } from './settings/global-settings.repository';
import { seedDemoAdmin } from './admin/seed-demo-admin';
import { createSessionService } from './auth/sessions';
import { createOtpService } from './auth/otp.service';
import { createAccountsService } from './auth/accounts.service';
import { accountsRoutes } from './auth/accounts.routes';
import { userRoutes } from './users/user.routes';
import { devRoutes } from './dev/dev.routes';
import { createNotificationSender } from './notifications/notification-sender';
import { registerRateLimits } from './http/rate-limits';
import { createUserSettingsService } from './settings/user-settings.service';
import { userSettingsRoutes } from './settings/user-settings.routes';
import { referralRoutes } from './referrals/referral.routes';
import { createKycService } from './kyc/kyc.service';
import { kycRoutes } from './kyc/kyc.routes';
import { createKycProvider } from './kyc/create-kyc-provider';
import { startBackgroundJobs } from './jobs/background-jobs';
import { createPriceBookFor } from './prices/create-price-book';
import { createMemoryEventBus, createRedisEventBus, type EventBus } from './realtime/event-bus';
import { realtimeRoutes, type RealtimeOptions } from './realtime/realtime.routes';
import { createEsploraChain } from './chain/esplora-chain';
import { createSimulatedChain } from './chain/simulated-chain';
import { chainDevRoutes } from './chain/chain.routes';
import { createDepositWatcher, type DepositWatcher } from './deposits/deposit-watcher';
import { adminOrderRoutes } from './admin/admin-orders.routes';
import { adminPeopleRoutes } from './admin/admin-people.routes';
import { adminSettingsRoutes } from './admin/admin-settings.routes';
import { priceRoutes } from './prices/price.routes';
import { createOrderNotifier } from './orders/order-notifications';
import { createOrderService, type OrderService } from './orders/order.service';
import { orderRoutes } from './orders/order.routes';
import { assertUsableAccountKey, DEMO_ACCOUNT_VPUB } from './deposits/deposit-address';
import { createPayPalService } from './payments/paypal.service';
import { paypalRoutes } from './payments/paypal.routes';
import { createDemoPayPalGateway } from './payments/demo-paypal-gateway';
import { createPayPalRestGateway } from './payments/paypal-rest-gateway';

export interface AppDependencies {
  config: AppConfig;
  database: DatabaseHandle;
  /** Tests pass false to keep their output quiet. */
  logger?: boolean;
  /** Tests of the realtime channel supply their own bus and timings. */
  realtime?: { bus?: EventBus; options?: RealtimeOptions };
}

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    database: DatabaseHandle;
    /** The background jobs' services, so tests can run a deposit poll or an expiry pass themselves. */
    depositWatcher: DepositWatcher;
    orderService: OrderService;
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
}: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ? loggerOptions(config.logLevel) : false,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate(
    'sessions',
    createSessionService({
      db: database.db,
      secret: config.jwtSecret,
      ttlSeconds: config.sessionTtlSeconds,
      adminEmails: config.adminEmails,
    }),
  );
  app.addHook('onClose', async () => database.close());

  // Only JSON is accepted (multipart is added per route where uploads exist); anything else is 415.
  app.removeContentTypeParser('text/plain');

  registerErrorHandling(app);
  await app.register(fastifyCookie);
  await registerSecurityHeaders(app, config);
  registerCsrfProtection(app, { secureCookie: config.publicUrl.startsWith('https://') });

  await registerRateLimits(app, config.redisUrl);

  await seedGlobalSettings(database.db, config.mode);
  if (config.isDemo) await seedDemoAdmin(database.db);
  const notifications = createNotificationSender(config, database.db, app.log);
  const accounts = createAccountsService({
    db: database.db,
    otp: createOtpService(database.db, config.jwtSecret),
    notifications,
    log: app.log,
  });

  const kyc = createKycService({
    db: database.db,
    provider: createKycProvider(config, database.db),
    log: app.log,
  });
  const userSettings = createUserSettingsService(database.db, config.bitcoinNetwork);
  const bus =
    realtime?.bus ??
    (config.redisUrl ? createRedisEventBus(config.redisUrl, app.log) : createMemoryEventBus(app.log));
  app.addHook('onClose', async () => bus.close());
  const simulatedChain = config.esploraUrl ? null : createSimulatedChain(database.db);
  const chain = simulatedChain ?? createEsploraChain({ baseUrl: config.esploraUrl! });
  const prices = createPriceBookFor(config, database.db, () => chain.feeRate(), app.log);
  await prices.refresh();
  prices.start(config.priceRefreshSeconds * 1000);
  app.addHook('onClose', async () => prices.stop());
  const notifyOrderStatus = createOrderNotifier(database.db, notifications, bus, app.log);
  const depositXpub = config.depositXpub ?? DEMO_ACCOUNT_VPUB;
  assertUsableAccountKey(depositXpub, config.bitcoinNetwork);
  const orderService = createOrderService({
    db: database.db,
    prices,
    network: config.bitcoinNetwork,
    depositXpub,
    notify: notifyOrderStatus,
  });
  const demoPayPal = config.paypal ? null : createDemoPayPalGateway();
  const paypal = createPayPalService({
    db: database.db,
    gateway: config.paypal ? createPayPalRestGateway(config.paypal) : demoPayPal!,
    notify: notifyOrderStatus,
    log: app.log,
  });
  const depositWatcher = createDepositWatcher({
    db: database.db,
    chain,
    prices,
    bus,
    notify: notifyOrderStatus,
    confirmationsRequired: config.depositConfirmations,
    log: app.log,
  });
  app.decorate('depositWatcher', depositWatcher);
  app.decorate('orderService', orderService);
  startBackgroundJobs(app, { kyc, orders: orderService, depositWatcher });

  await app.register(healthRoutes);
  await app.register(appConfigRoutes);
  await app.register(globalSettingsRoutes);
  await app.register(accountsRoutes(accounts));
  await app.register(userRoutes(accounts));
  await app.register(userSettingsRoutes(userSettings));
  await app.register(referralRoutes);
  await app.register(kycRoutes(kyc));
  await app.register(priceRoutes(prices));
  await app.register(orderRoutes(orderService));
  await app.register(paypalRoutes(paypal, demoPayPal));
  await app.register(realtimeRoutes(bus, realtime?.options));
  await app.register(
    adminOrderRoutes({
      notify: notifyOrderStatus,
      simulatedChain,
      confirmationsRequired: config.depositConfirmations,
    }),
  );
  await app.register(adminPeopleRoutes({ kyc, userSettings, bus }));
  await app.register(adminSettingsRoutes);
  if (config.isDemo) await app.register(devRoutes(kyc));
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
