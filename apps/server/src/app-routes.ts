import type { FastifyInstance } from 'fastify';
import type { AppConfig } from './config/config';
import type { DatabaseHandle } from './db/database';
import type { AppServices } from './app-composition';
import type { DrainingAnswers } from './app-hooks';
import { apiNotFound } from './http/errors';
import { registerRoutes } from './http/route-modules';
import { registerWebApp } from './web/web-app';
import { healthRoutes } from './health/health.routes';
import { createReadiness } from './health/health.service';
import { registerDraining } from './health/graceful-shutdown';
import { metricsRoutes } from './metrics/metrics.routes';
import { appConfigRoutes } from './app-config/app-config.routes';
import { publicAppConfig } from './app-config/public-app-config';
import { globalSettingsRoutes } from './settings/global-settings.routes';
import { createGlobalSettingsService } from './settings/global-settings.service';
import { accountsRoutes } from './auth/accounts.routes';
import { adminMfaRoutes } from './auth/admin-mfa.routes';
import { passkeyLoginRoutes, passkeyRoutes } from './passkeys/passkeys.routes';
import { userRoutes } from './users/user.routes';
import { devRoutes } from './dev/dev.routes';
import { createDevService } from './dev/dev.service';
import { userSettingsRoutes } from './settings/user-settings.routes';
import { referralRoutes } from './referrals/referral.routes';
import { createReferralService } from './referrals/referral.service';
import { kycRoutes } from './kyc/kyc.routes';
import { realtimeRoutes, type RealtimeOptions } from './realtime/realtime.routes';
import { chainDevRoutes } from './chain/chain.routes';
import { createAdminService } from './admin/admin.service';
import { adminOrderRoutes } from './admin/admin-orders.routes';
import { adminPeopleRoutes } from './admin/admin-people.routes';
import { adminSettingsRoutes } from './admin/admin-settings.routes';
import { adminJobRoutes } from './admin/admin-jobs.routes';
import { adminOutboxRoutes } from './admin/admin-outbox.routes';
import { placesRoutes } from './places/places.routes';
import { createPlacesService } from './places/places.service';
import { scamShieldRoutes } from './scam-shield/scam-shield.routes';
import { createPayoutBatchService } from './payouts/batches/payout-batches.service';
import { payoutBatchRoutes } from './payouts/batches/payout-batches.routes';
import { createAchFileService } from './payouts/ach-files/ach-files.service';
import { achFileRoutes } from './payouts/ach-files/ach-files.routes';
import { fundDemoPayoutWallet } from './payouts/batches/demo-payout-wallet';
import { priceRoutes } from './prices/price.routes';
import { caseRoutes } from './cases/cases.routes';
import { orderRoutes } from './orders/order.routes';
import { quoteRoutes } from './orders/quote.routes';
import { limitsRoutes } from './limits/limits.routes';
import { createLimitsService } from './limits/limits.service';
import { paypalRoutes } from './rails/paypal/paypal.routes';
import { lightningRoutes } from './rails/lightning/lightning.routes';
import { createDemoLightningNode } from './rails/lightning/demo-lightning-node';
import { isSanctionedAddress } from './compliance/sanctions/sanctions-screening';
import { createTaxService } from './tax/tax.service';
import { taxRoutes } from './tax/tax.routes';
import { createTinCipher } from './tax/tin-cipher';
import { payoutAddressRoutes } from './payout-addresses/payout-address.routes';
import { depositBuyRoutes } from './plans/deposit-buys/deposit-buys.routes';
import { planRoutes } from './plans/plans.routes';
import { planDevRoutes } from './plans/plans-dev.routes';
import { adminPlanRoutes } from './plans/plans-admin.routes';
import { isDemoPayPalSandbox, isSimulatedChain } from './providers/provider-registry';
import { bankRoutes } from './bank/bank.routes';
import { bankFundingRoutes } from './bank/bank-funding.routes';
import { devBankRoutes } from './dev/dev-bank.routes';
import { isDemoBank } from './providers/provider-registry';

export type { RealtimeOptions };

/** What route registration needs beside the services. */
interface RouteInput {
  config: AppConfig;
  database: DatabaseHandle;
  services: AppServices;
  answers: DrainingAnswers;
  realtimeOptions?: RealtimeOptions;
}

/**
 * Registers every route module (the one place that does: the lint rule on route modules), then the
 * web app and the not-found answers. A worker process answers health checks and metrics only.
 */
export async function registerAppRoutes(app: FastifyInstance, input: RouteInput): Promise<void> {
  const { config, database, services } = input;
  const readiness = createReadiness({
    database,
    mode: config.mode,
    redisUrl: config.redisUrl,
    log: app.log,
  });
  app.addHook('onClose', async () => readiness.close());
  registerDraining(app, readiness, input.answers);
  await registerRoutes(app, healthRoutes(readiness));
  await registerRoutes(app, metricsRoutes(services.metrics, config));
  // A worker (PROCESS_ROLE=worker) runs the background jobs only: its port answers health checks and
  // metrics.
  if (config.processRole === 'worker') {
    app.setNotFoundHandler((request, reply) =>
      reply.status(404).send(apiNotFound(request.method, request.url)),
    );
    return;
  }
  await registerCustomerRoutes(app, input);
  await registerBackOfficeRoutes(app, input);
  await registerDemoRoutes(app, input);

  const webApp = await registerWebApp(app, config.webDistDir, publicAppConfig(config, app.providers));
  app.setNotFoundHandler((request, reply) => {
    if (!request.url.startsWith('/api') && (request.method === 'GET' || request.method === 'HEAD')) {
      return webApp.serveIndex(request, reply);
    }
    return reply.status(404).send(apiNotFound(request.method, request.url));
  });
}

/** What the web app and a signed-in customer call: accounts, settings, orders, tax, PayPal, realtime. */
async function registerCustomerRoutes(
  app: FastifyInstance,
  { config, database, services, realtimeOptions }: RouteInput,
): Promise<void> {
  const { accounts, orderService } = services;
  await registerRoutes(app, appConfigRoutes);
  await registerRoutes(app, globalSettingsRoutes(createGlobalSettingsService(database.db)));
  await registerRoutes(app, accountsRoutes(accounts, app.adminMfa));
  await registerRoutes(app, adminMfaRoutes(app.adminMfa));
  await registerRoutes(app, passkeyRoutes(services.passkeys));
  await registerRoutes(app, passkeyLoginRoutes(services.passkeys));
  await registerRoutes(app, userRoutes(accounts));
  await registerRoutes(app, userSettingsRoutes(services.userSettings));
  await registerRoutes(app, payoutAddressRoutes(services.payoutAddresses, config.bitcoinNetwork));
  await registerRoutes(app, planRoutes(services.plans));
  await registerRoutes(app, depositBuyRoutes(services.plans.depositBuys));
  await registerRoutes(app, referralRoutes(createReferralService(database.db)));
  await registerRoutes(app, kycRoutes(services.kyc));
  await registerRoutes(app, priceRoutes(services.prices));
  await registerRoutes(app, quoteRoutes(orderService));
  await registerRoutes(app, orderRoutes(orderService));
  await registerRoutes(app, scamShieldRoutes(orderService));
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
  await registerRoutes(app, paypalRoutes(services.paypal, demoPayPalOf(app)));
  if (services.lightning) {
    // Demo: the customer's wallet is a second stand-in node on the same demo network.
    const demoWallet = config.isDemo
      ? createDemoLightningNode(database.db, config.bitcoinNetwork, 'wallet')
      : null;
    await registerRoutes(app, lightningRoutes(services.lightning, demoWallet));
  }
  await registerRoutes(app, bankRoutes(app.providers.bank, services.bankWebhooks));
  await registerRoutes(app, bankFundingRoutes(services.bankFunding));
  // Its own scope: the websocket plugin decorates and hooks what it registers on.
  await app.register(realtimeRoutes(services.bus, realtimeOptions));
}

/** The back office: orders, people, settings, jobs, outbox, cases, the ACH file and bitcoin payout batches. */
async function registerBackOfficeRoutes(
  app: FastifyInstance,
  { config, database, services }: RouteInput,
): Promise<void> {
  const { chain } = app.providers;
  const simulatedChain = simulatedChainOf(app);
  const admin = createAdminService({
    db: database.db,
    notify: services.notifyOrderStatus,
    simulatedChain,
    confirmationsRequired: config.depositConfirmations,
    kyc: services.kyc,
    userSettings: services.userSettings,
    bus: services.bus,
    sessions: app.sessions,
    adminEmails: config.adminEmails,
    jobs: services.jobQueue,
    outbox: services.outbox,
    inbox: services.inbox,
    sanctionsList: services.sanctionsList,
    bank: app.providers.bank,
    payoutDestinations: {
      db: database.db,
      chain,
      network: config.bitcoinNetwork,
      screenAddress: services.screenAddress,
    },
  });
  await registerRoutes(app, adminOrderRoutes(admin));
  await registerRoutes(app, adminPeopleRoutes(admin));
  await registerRoutes(app, adminSettingsRoutes(admin));
  await registerRoutes(app, adminJobRoutes(admin));
  await registerRoutes(app, adminOutboxRoutes(admin));
  await registerRoutes(app, placesRoutes(createPlacesService(database.db)));
  await registerRoutes(app, caseRoutes(services.cases));
  await registerRoutes(
    app,
    achFileRoutes(
      createAchFileService({
        db: database.db,
        confirmationsRequired: config.depositConfirmations,
        origination: config.achOrigination,
      }),
    ),
  );
  await registerRoutes(app, adminPlanRoutes(services.plans));
  // Demo: the demo payout wallet has coins on the simulated chain (once, however many processes start).
  const { payoutWallet } = app.providers;
  if (config.isDemo && simulatedChain && payoutWallet) {
    await fundDemoPayoutWallet(simulatedChain, payoutWallet);
  }
  await registerRoutes(
    app,
    payoutBatchRoutes(
      createPayoutBatchService(
        {
          db: database.db,
          chain,
          network: config.bitcoinNetwork,
          wallet: payoutWallet,
          feeCapPercent: config.payoutFeeCapPercent,
          notify: services.notifyOrderStatus,
          // Screened again when a batch is built: the list may have changed since the buy was saved.
          screenDestination: async (db, address) =>
            (await isSanctionedAddress(db, address)) ? 'the address is on the sanctions list' : null,
        },
        { demoSigner: config.isDemo },
      ),
    ),
  );
}

/** Demo mode's `/api/dev/*` helpers (docs/design.md, API); production has none. */
async function registerDemoRoutes(app: FastifyInstance, { config, database, services }: RouteInput) {
  if (!config.isDemo) return;
  await registerRoutes(
    app,
    devRoutes(createDevService({ db: database.db, kyc: services.kyc, paypal: demoPayPalOf(app) })),
  );
  await registerRoutes(app, planDevRoutes(services.plans));
  const simulatedChain = simulatedChainOf(app);
  if (simulatedChain) await registerRoutes(app, chainDevRoutes(simulatedChain));
  const { bank } = app.providers;
  if (isDemoBank(bank)) await registerRoutes(app, devBankRoutes(bank));
}

function demoPayPalOf(app: FastifyInstance) {
  return isDemoPayPalSandbox(app.providers.paypal) ? app.providers.paypal : null;
}

function simulatedChainOf(app: FastifyInstance) {
  return isSimulatedChain(app.providers.chain) ? app.providers.chain : null;
}
