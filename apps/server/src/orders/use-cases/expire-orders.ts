import { AppError } from '../../http/errors';
import { moveOrder } from '../order-state';
import { findOverduePendingOrders } from '../order.repository';
import type { OrderDeps } from './order-deps';

/** At most this many orders per pass; the job runs every few seconds. */
const EXPIRY_BATCH = 100;

/**
 * Expires pending buys whose quote lock ran out unpaid, and sells whose deposit window closed with
 * no deposit. Safe in several processes (the state machine locks each order). Answers how many it
 * expired.
 */
export async function expireOverdueOrders(deps: Pick<OrderDeps, 'db' | 'notify' | 'now'>): Promise<number> {
  const due = await findOverduePendingOrders(deps.db, deps.now(), EXPIRY_BATCH);
  let expired = 0;
  for (const { id, type } of due) {
    try {
      const moved = await deps.db.transaction((tx) =>
        moveOrder(tx, {
          orderId: id,
          from: ['pending'],
          to: 'expired',
          actor: 'system:expiry',
          reason: type === 'buy' ? 'quote expired before payment' : 'no deposit within the 20-minute window',
        }),
      );
      expired += 1;
      await deps.notify(moved);
    } catch (error) {
      // Another process or the customer moved it first.
      if (!(error instanceof AppError)) throw error;
    }
  }
  return expired;
}
