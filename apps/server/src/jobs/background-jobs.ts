import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/config';
import type { DatabaseHandle } from '../db/database';
import type { KycService } from '../kyc/kyc.service';
import type { OrderService } from '../orders/order.service';
import type { DepositWatcher } from '../rails/onchain/deposit-watcher';
import { PROCESS_INBOX_JOB } from '../inbox/inbox.service';
import { MONITOR_ORDER_JOB, MONITOR_SWEEP_EVERY_MS, MONITOR_SWEEP_JOB } from '../cases/cases.service';
import { createInProcessJobQueue } from './in-process-job-queue';
import type { JobQueue, JobQueueOptions } from './job-queue';
import { createPgBossJobQueue } from './pg-boss-job-queue';
import { RUN_PLANS_EVERY_MS, RUN_PLANS_JOB } from '../plans/plans.service';
import { INSTANT_PAYOUTS_JOB } from '../payouts/instant/instant-payouts';

export const JOB_NAMES = {
  kycAutoApprove: 'kyc-auto-approve',
  depositWatcher: 'deposit-watcher',
  expireOverdueOrders: 'expire-overdue-orders',
  priceRefresh: 'price-refresh',
  retention: 'retention',
  deliverOutbox: 'deliver-outbox',
  processInbox: PROCESS_INBOX_JOB,
  reconcilePayPal: 'reconcile-paypal',
  reconcileLightning: 'reconcile-lightning',
  monitorOrder: MONITOR_ORDER_JOB,
  monitorChangedOrders: MONITOR_SWEEP_JOB,
  sanctionsRefresh: 'sanctions-refresh',
  instantPayouts: INSTANT_PAYOUTS_JOB,
  runPlans: RUN_PLANS_JOB,
  settleDemoBank: 'demo-bank-settle',
} as const;

/**
 * The backstop of instant payouts: a sell's credit queues its pass at once and the bank's webhook ends
 * the transfer at once; this catches a lost kick or webhook (docs/design.md, "Instant payouts").
 */
export const INSTANT_PAYOUTS_EVERY_MS = 30_000;

/** How often the demo bank settles the instant transfers whose time has come. */
export const DEMO_BANK_SETTLE_EVERY_MS = 1_000;

/** How often PayPal orders not settled are read back from PayPal (docs/design.md). */
export const PAYPAL_RECONCILE_EVERY_MS = 10 * 60_000;

/** How often open Lightning invoices and payouts are asked of the node (docs/design.md, "Lightning"). */
export const LIGHTNING_RECONCILE_EVERY_MS = 15_000;

/** How often stored webhooks not yet applied (their job lost, or a try failed) are swept. */
export const INBOX_SWEEP_EVERY_MS = 5_000;

/**
 * How often the outbox is swept. A change's own process delivers its rows right after the commit; the
 * sweep delivers what that process could not (it died, or a try failed and its backoff ran out).
 */
export const OUTBOX_SWEEP_EVERY_MS = 2_000;

const RETENTION_EVERY_MS = 60 * 60_000;

/**
 * The job engine of this database: pg-boss on PostgreSQL (durable, shared by every process), the
 * in-process queue on the embedded database (which only one process can open).
 */
export function createJobQueue(database: DatabaseHandle, options: JobQueueOptions): JobQueue {
  if (database.kind === 'postgres') {
    if (!database.url) throw new Error('A PostgreSQL database handle without its URL cannot run jobs');
    return createPgBossJobQueue({ ...options, connectionString: database.url });
  }
  return createInProcessJobQueue(options);
}

/**
 * The periodic work, as jobs on `queue` (docs/design.md): each runs once per period across all
 * processes, a failing run is retried and then parked with its error. A `web` process
 * (PROCESS_ROLE=web) registers and schedules none: its `worker` or `all` siblings do. The queue
 * starts here and stops when the app closes.
 */
export async function startBackgroundJobs(
  app: FastifyInstance,
  deps: {
    queue: JobQueue;
    kyc: KycService;
    orders: OrderService;
    depositWatcher: DepositWatcher;
    /** Fetches prices from the providers and stores them (only this job does). */
    refreshPrices?: () => Promise<void>;
    /** Deletes and thins old rows (docs/design.md). */
    retention?: () => Promise<unknown>;
    /** Delivers the outbox's due rows (docs/design.md). */
    deliverOutbox?: () => Promise<unknown>;
    /** Applies stored webhooks: the one a run names (sent on receipt), or every due one (the sweep). */
    processInbox?: (data: unknown) => Promise<unknown>;
    /** Sends due instant sell payouts and reads back those in flight (docs/design.md, "Instant payouts"). */
    instantPayouts?: () => Promise<unknown>;
    /** Reads back PayPal orders not settled and applies what PayPal says. */
    reconcilePayPal?: () => Promise<unknown>;
    /** Asks the Lightning node about open sell invoices and payouts whose outcome is not recorded. */
    reconcileLightning?: () => Promise<unknown>;
    /** Runs the monitoring rules: on the order a run names (sent on each change), or the sweep. */
    monitorOrders?: (data: unknown) => Promise<unknown>;
    /** Reloads the sanctions list from its source (daily; docs/design.md). */
    refreshSanctionsList?: { everyMs: number; run: () => Promise<unknown> };
    /** Makes the recurring buys' due runs and carries those on their way (docs/design.md, "Recurring buys"). */
    runPlans?: () => Promise<unknown>;
    /** Demo: the demo bank settles its instant transfers by itself (docs/design.md, "Bank provider"). */
    settleDemoBank?: () => Promise<unknown>;
    /** Queues work gathered in memory (orders to monitor) before the queue stops. */
    beforeStop?: () => Promise<void>;
  },
): Promise<void> {
  const { queue } = deps;
  app.addHook('onClose', async () => {
    await deps.beforeStop?.();
    await queue.stop();
  });
  if (runsBackgroundJobs(app.config.processRole)) {
    const every = (ms: number, name: string, job: () => Promise<unknown>) => {
      queue.register(name, () => job());
      queue.schedule(name, ms);
    };

    const autoApprove = app.config.kycAutoApproveSeconds;
    if (autoApprove !== undefined) {
      every(2_000, JOB_NAMES.kycAutoApprove, () => deps.kyc.autoApproveOlderThan(autoApprove));
    }
    every(app.config.chainPollSeconds * 1000, JOB_NAMES.depositWatcher, () => deps.depositWatcher.pollOnce());
    every(5_000, JOB_NAMES.expireOverdueOrders, () => deps.orders.expireOverdue());
    if (deps.refreshPrices) {
      every(app.config.priceRefreshSeconds * 1000, JOB_NAMES.priceRefresh, deps.refreshPrices);
    }
    if (deps.retention) every(RETENTION_EVERY_MS, JOB_NAMES.retention, deps.retention);
    if (deps.deliverOutbox) every(OUTBOX_SWEEP_EVERY_MS, JOB_NAMES.deliverOutbox, deps.deliverOutbox);
    if (deps.reconcilePayPal)
      every(PAYPAL_RECONCILE_EVERY_MS, JOB_NAMES.reconcilePayPal, deps.reconcilePayPal);
    if (deps.reconcileLightning)
      every(LIGHTNING_RECONCILE_EVERY_MS, JOB_NAMES.reconcileLightning, deps.reconcileLightning);
    if (deps.instantPayouts) every(INSTANT_PAYOUTS_EVERY_MS, JOB_NAMES.instantPayouts, deps.instantPayouts);
    const { monitorOrders } = deps;
    if (monitorOrders) {
      queue.register(JOB_NAMES.monitorOrder, monitorOrders);
      every(MONITOR_SWEEP_EVERY_MS, JOB_NAMES.monitorChangedOrders, () => monitorOrders(null));
    }
    if (deps.refreshSanctionsList) {
      every(deps.refreshSanctionsList.everyMs, JOB_NAMES.sanctionsRefresh, deps.refreshSanctionsList.run);
    }
    if (deps.runPlans) every(RUN_PLANS_EVERY_MS, JOB_NAMES.runPlans, deps.runPlans);
    if (deps.settleDemoBank) every(DEMO_BANK_SETTLE_EVERY_MS, JOB_NAMES.settleDemoBank, deps.settleDemoBank);
    if (deps.processInbox) {
      queue.register(JOB_NAMES.processInbox, deps.processInbox);
      queue.schedule(JOB_NAMES.processInbox, INBOX_SWEEP_EVERY_MS);
    }
  }
  await queue.start();
}

/** Which process roles run the background jobs. */
export function runsBackgroundJobs(role: AppConfig['processRole']): boolean {
  return role === 'all' || role === 'worker';
}
