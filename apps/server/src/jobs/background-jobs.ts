import type { FastifyInstance } from 'fastify';
import type { KycService } from '../kyc/kyc.service';
import type { OrderService } from '../orders/order.service';
import type { DepositWatcher } from '../deposits/deposit-watcher';

/**
 * Periodic work inside the server process. Each job is safe to run in several processes at once
 * (single conditional UPDATE statements), and all stop when the app closes.
 */
export function startBackgroundJobs(
  app: FastifyInstance,
  deps: { kyc: KycService; orders: OrderService; depositWatcher: DepositWatcher },
): void {
  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, name: string, job: () => Promise<unknown>) => {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      job()
        .catch((error: unknown) => app.log.error({ err: error, job: name }, 'background job failed'))
        .finally(() => {
          running = false;
        });
    }, ms);
    timer.unref();
    timers.push(timer);
  };

  const autoApprove = app.config.kycAutoApproveSeconds;
  if (autoApprove !== undefined) {
    every(2_000, 'kyc-auto-approve', () => deps.kyc.autoApproveOlderThan(autoApprove));
  }

  every(app.config.chainPollSeconds * 1000, 'deposit-watcher', () => deps.depositWatcher.pollOnce());
  every(5_000, 'expire-overdue-orders', () => deps.orders.expireOverdue());

  app.addHook('onClose', async () => {
    for (const timer of timers) clearInterval(timer);
  });
}
