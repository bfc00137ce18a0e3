import type { FastifyInstance } from 'fastify';
import type { AppConfig } from './config/config';
import type { DatabaseHandle } from './db/database';
import { createAppMetrics, observeHttpRequests, type AppMetrics } from './metrics/app-metrics';
import { seedGlobalSettings } from './settings/global-settings.repository';
import { seedDemoAdmin } from './admin/seed-demo-admin';
import { createOtpService } from './auth/otp.service';
import { createAccountsService, type AccountsService } from './auth/accounts.service';
import { createRegistrationTokens } from './auth/registration-token';
import { createUserSettingsService, type UserSettingsService } from './settings/user-settings.service';
import { createPasskeysService, type PasskeysService } from './passkeys/passkeys.service';
import { countPasskeys, payoutHoldUntil } from './passkeys/passkey.repository';
import { createKycService, type KycService } from './kyc/kyc.service';
import {
  applyTransferUpdate,
  kickInstantPayouts,
  runInstantPayouts,
} from './payouts/instant/instant-payouts';
import { createJobQueue, runsBackgroundJobs, startBackgroundJobs } from './jobs/background-jobs';
import type { JobQueue, JobRunOutcome } from './jobs/job-queue';
import { applyRetention } from './jobs/retention.repository';
import { createPriceBook, type PriceBook } from './prices/price-book';
import { createMemoryEventBus, createRedisEventBus, type EventBus } from './realtime/event-bus';
import { createDepositWatcher, type DepositWatcher } from './rails/onchain/deposit-watcher';
import { createOrderNotifier, type OrderNotifier } from './orders/order-notifications';
import { createCasesService, type CasesService } from './cases/cases.service';
import { createOutboxService, type OutboxService } from './outbox/outbox.service';
import { createInboxService, type InboxService } from './inbox/inbox.service';
import { createOrderService, type OrderService } from './orders/order.service';
import { createPayPalService, type PayPalService } from './rails/paypal/paypal.service';
import { createLightningService, type LightningService } from './rails/lightning/lightning.service';
import {
  createSanctionsListService,
  SANCTIONS_REFRESH_EVERY_MS,
  type SanctionsListService,
} from './compliance/sanctions/sanctions-list.service';
import {
  createPayoutAddressService,
  type PayoutAddressService,
  type ScreenAddress,
} from './payout-addresses/payout-address.service';
import { assertAddressNotSanctioned } from './compliance/sanctions/sanctions-screening';
import { createPlansService, subscribePlansToBank, type PlansService } from './plans/plans.service';
import { isDemoBank, type Providers } from './providers/provider-registry';
import { createBankWebhooks, type BankWebhooks } from './bank/bank-webhooks';
import { createBankFundingService, type BankFundingService } from './bank/bank-funding.service';

/** What building the app needs to make its services. */
export interface CompositionInput {
  config: AppConfig;
  database: DatabaseHandle;
  providers: Providers;
  /** A realtime bus a test supplies instead of the configured one. */
  bus?: EventBus;
}

/** The services the app's routes and background jobs share, made once per app. */
export interface AppServices {
  bus: EventBus;
  outbox: OutboxService;
  inbox: InboxService;
  jobQueue: JobQueue;
  accounts: AccountsService;
  kyc: KycService;
  screenAddress: ScreenAddress;
  payoutAddresses: PayoutAddressService;
  userSettings: UserSettingsService;
  passkeys: PasskeysService;
  prices: PriceBook;
  sanctionsList: SanctionsListService;
  metrics: AppMetrics;
  cases: CasesService;
  /** Tells the customer of an order's change, and has its monitoring rules run again. */
  notifyOrderStatus: OrderNotifier;
  orderService: OrderService;
  paypal: PayPalService;
  depositWatcher: DepositWatcher;
  /** The Lightning rail's webhook and reconcile job; null without a node. */
  lightning: LightningService | null;
  /** Recurring buys: plans and the run job (docs/design.md, "Recurring buys"). */
  plans: PlansService;
  /** The bank's verified webhooks, to which features subscribe (inbound credits, transfer updates). */
  bankWebhooks: BankWebhooks;
  /** Customers' own account numbers and the bank credits matched to their buys. */
  bankFunding: BankFundingService;
}

/**
 * Seeds what the database must hold, makes every service, decorates the app with those tests drive,
 * and starts the background jobs (in a process that works them).
 */
export async function composeServices(app: FastifyInstance, input: CompositionInput): Promise<AppServices> {
  const { config, database } = input;
  await seedGlobalSettings(database.db, config.mode);
  if (config.isDemo) await seedDemoAdmin(database.db);
  // Job outcomes are counted once the metrics exist (they read the price book, made below).
  let countJobRun: (job: string, outcome: JobRunOutcome) => void = () => undefined;
  const messaging = composeMessaging(app, input, (job, outcome) => countJobRun(job, outcome));
  const kyc = createKycService({
    db: database.db,
    provider: input.providers.kyc,
    outbox: messaging.outbox,
    inbox: messaging.inbox,
    log: app.log,
  });
  const addressBook = composeAddressBook(input, messaging.outbox);
  const passkeys = composePasskeys(app, input, messaging);
  const bankWebhooks = composeBank(app, input, messaging.inbox);
  const market = await startMarketData(app, input);
  const metrics = createAppMetrics({ db: database.db, ...market, log: app.log });
  observeHttpRequests(app, metrics);
  countJobRun = (job, outcome) => metrics.jobRuns.inc({ job, outcome });
  const orders = composeOrders(app, input, {
    ...messaging,
    prices: market.prices,
    metrics,
    payoutAddresses: addressBook.payoutAddresses,
  });
  app.decorate('depositWatcher', orders.depositWatcher);
  const instantPayouts = () =>
    runInstantPayouts({
      db: database.db,
      bank: input.providers.bank,
      confirmationsRequired: config.depositConfirmations,
      notify: orders.notifyOrderStatus,
    });
  app.decorate('runInstantPayouts', instantPayouts);
  app.decorate('orderService', orders.orderService);
  app.decorate('lightning', orders.lightning);
  app.decorate('jobQueue', messaging.jobQueue);
  app.decorate('cases', orders.cases);
  const bankFunding = createBankFundingService({
    db: database.db,
    bank: input.providers.bank,
    webhooks: bankWebhooks,
    notify: orders.notifyOrderStatus,
    metrics,
    companyName: config.companyName,
    log: app.log,
  });
  const { outbox, inbox, jobQueue } = messaging;
  const plans = createPlansService({
    db: database.db,
    now: () => new Date(),
    bank: input.providers.bank,
    orders: orders.orderService,
    notify: orders.notifyOrderStatus,
    log: app.log,
  });
  app.decorate('plans', plans);
  // Instant payouts hear their transfers; plans hear their debits and unmatched credits.
  bankWebhooks.onTransferUpdated(applyTransferUpdate(orders.notifyOrderStatus));
  subscribePlansToBank(plans, bankWebhooks);
  await startBackgroundJobs(app, {
    queue: jobQueue,
    kyc,
    orders: orders.orderService,
    depositWatcher: orders.depositWatcher,
    refreshPrices: () => market.prices.refresh(),
    retention: async () => ({ ...(await applyRetention(database.db)), jobRuns: await jobQueue.prune() }),
    deliverOutbox: () => outbox.deliverDue(),
    processInbox: (data) => inbox.process(data),
    reconcilePayPal: () => orders.paypal.reconcile(),
    ...(orders.lightning ? { reconcileLightning: () => orders.lightning!.reconcile() } : {}),
    instantPayouts,
    monitorOrders: (data) => orders.cases.runMonitorJob(data),
    runPlans: () => plans.runDue(),
    beforeStop: () => orders.cases.flush(),
    refreshSanctionsList: { everyMs: SANCTIONS_REFRESH_EVERY_MS, run: () => market.sanctionsList.refresh() },
    settleDemoBank: demoBankSettler(input.providers),
  });
  return {
    ...messaging,
    kyc,
    ...addressBook,
    passkeys,
    ...market,
    metrics,
    ...orders,
    plans,
    bankWebhooks,
    bankFunding,
  };
}

/** Passkeys and the step-up guard every guarded change calls (`app.stepUp`). */
function composePasskeys(
  app: FastifyInstance,
  { config, database, providers }: CompositionInput,
  messaging: { outbox: OutboxService; accounts: AccountsService },
): PasskeysService {
  const passkeys = createPasskeysService({
    db: database.db,
    publicUrl: config.publicUrl,
    otp: createOtpService(database.db, config.jwtSecret),
    notifications: { email: providers.email, sms: providers.sms },
    outbox: messaging.outbox,
    findUser: (userId) => messaging.accounts.findUser(userId),
    findUserByEmail: (email) => messaging.accounts.findUserByEmail(email),
    log: app.log,
  });
  app.decorate('stepUp', passkeys.stepUp);
  return passkeys;
}

/** The realtime bus, the outbox and inbox, the job engine, and the accounts that send one-time codes. */
function composeMessaging(
  app: FastifyInstance,
  { config, database, providers, bus: givenBus }: CompositionInput,
  onRun: (job: string, outcome: JobRunOutcome) => void,
) {
  const notifications = { email: providers.email, sms: providers.sms };
  const bus =
    givenBus ??
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
  const jobQueue = createJobQueue(database, { log: app.log, onRun });
  // Provider webhooks are stored before they are answered and applied by the process-inbox job.
  const inbox = createInboxService({ db: database.db, queue: jobQueue, log: app.log });
  app.decorate('inbox', inbox);
  return { bus, outbox, accounts, jobQueue, inbox };
}

/** Demo: the job by which the demo bank settles its instant transfers; none with a real bank. */
function demoBankSettler({ bank }: Providers): (() => Promise<number>) | undefined {
  return isDemoBank(bank) ? () => bank.settleDue() : undefined;
}

/**
 * The bank's webhooks (docs/design.md, "Bank provider"). The demo bank delivers its own to the same
 * receiver the route calls, from whichever process changed its state (a worker has no routes).
 */
function composeBank(
  app: FastifyInstance,
  { providers }: CompositionInput,
  inbox: InboxService,
): BankWebhooks {
  const bankWebhooks = createBankWebhooks({ bank: providers.bank, inbox, log: app.log });
  app.decorate('bankWebhooks', bankWebhooks);
  const { bank } = providers;
  if (isDemoBank(bank))
    bank.setWebhookSink((delivery) => bankWebhooks.receive(delivery.rawBody, delivery.headers));
  return bankWebhooks;
}

/** The payout address book and the settings that name its default entry. */
function composeAddressBook({ config, database }: CompositionInput, outbox: OutboxService) {
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
    // After a recovery without a passkey, new destinations wait out its hold (docs/design.md, "Passkeys").
    payoutHoldUntil: (userId, tx) => payoutHoldUntil(tx ?? database.db, userId, new Date()),
    hasPasskey: async (userId, tx) => (await countPasskeys(tx ?? database.db, userId)) > 0,
  });
  const userSettings = createUserSettingsService(database.db, config.bitcoinNetwork, payoutAddresses);
  return { screenAddress, payoutAddresses, userSettings };
}

/** The price book and the sanctions list, loaded before the first request. */
async function startMarketData(app: FastifyInstance, { config, database, providers }: CompositionInput) {
  const prices = createPriceBook({
    db: database.db,
    sources: providers.priceSources,
    feeRate: () => providers.chain.feeRate(),
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
  return { prices, sanctionsList };
}

/** Orders, their monitoring, and the two ways money arrives: PayPal and bitcoin deposits. */
function composeOrders(
  app: FastifyInstance,
  { config, database, providers }: CompositionInput,
  deps: {
    outbox: OutboxService;
    inbox: InboxService;
    jobQueue: JobQueue;
    prices: PriceBook;
    metrics: AppMetrics;
    payoutAddresses: PayoutAddressService;
  },
) {
  // Transaction monitoring: its rules run as jobs on every order saved, credited or changed (flagged,
  // paid, moved), and a sweep catches any change whose job was lost (docs/design.md).
  const cases = createCasesService({ db: database.db, queue: deps.jobQueue, log: app.log });
  const notifyCustomer = createOrderNotifier(deps.outbox);
  let payLightningBuys: (() => Promise<unknown>) | null = null;
  const kickInstant = kickInstantPayouts(deps.jobQueue, app.log);
  const notifyOrderStatus: OrderNotifier = async (order) => {
    if ('id' in order && typeof order.id === 'string') cases.orderChanged(order.id);
    await notifyCustomer(order);
    kickInstant(order);
    // A buy to a Lightning destination is paid out as soon as it is paid (docs/design.md, "Lightning").
    if (
      payLightningBuys &&
      'type' in order &&
      order.type === 'buy' &&
      'status' in order &&
      order.status === 'processing'
    ) {
      void payLightningBuys().catch((error: unknown) =>
        app.log.warn({ err: error }, 'lightning payout pass failed'),
      );
    }
  };
  const orderService = createOrderService({
    db: database.db,
    prices: deps.prices,
    network: config.bitcoinNetwork,
    depositXpub: providers.depositAccountKey,
    notify: notifyOrderStatus,
    onSaved: (order) => cases.orderChanged(order.id),
    depositConfirmations: config.depositConfirmations,
    payoutAddresses: deps.payoutAddresses,
    lightning: providers.lightning,
    bank: providers.bank,
  });
  const paypal = createPayPalService({
    db: database.db,
    gateway: providers.paypal,
    notify: notifyOrderStatus,
    inbox: deps.inbox,
    log: app.log,
  });
  const depositWatcher = createDepositWatcher({
    db: database.db,
    chain: providers.chain,
    prices: deps.prices,
    notify: notifyOrderStatus,
    confirmationsRequired: config.depositConfirmations,
    log: app.log,
    onCredited: (order) => {
      deps.metrics.depositsCredited.inc();
      cases.orderChanged(order.id);
    },
  });
  const lightning = providers.lightning
    ? createLightningService({
        db: database.db,
        node: providers.lightning,
        notify: notifyOrderStatus,
        confirmationsRequired: config.depositConfirmations,
        network: config.bitcoinNetwork,
        log: app.log,
      })
    : null;
  if (lightning) payLightningBuys = () => lightning.payDueBuys();
  return { cases, notifyOrderStatus, orderService, paypal, depositWatcher, lightning };
}
