import type { Database } from '../../db/database';
import type { MonitoringCaseRow } from '../../db/schema';
import {
  countEarlierTrades,
  findMonitoredOrders,
  findOrdersInSpans,
  findOrdersToMonitor,
  findOtherCustomersPayingSame,
  findVerifiedIdentities,
  markOrdersChecked,
  openCase,
  type OrderSpan,
} from '../cases.repository';
import { evaluateRules, mayBeLargeFirstTrade, WINDOW_MS, type MonitoredOrder } from '../monitoring-rules';

export interface MonitoringDeps {
  db: Database;
  now: () => Date;
}

/**
 * Runs every monitoring rule on one order as the database has it now, and opens the cases it finds.
 * Safe to run twice or in several processes at once: a case opens once per event, and once per
 * customer and rule while one is not closed (the unique indexes of `monitoring_cases`).
 */
export async function monitorOrder(deps: MonitoringDeps, orderId: string): Promise<MonitoringCaseRow[]> {
  return monitorOrders(deps, [orderId]);
}

/**
 * The rules on many orders at once, as `monitorOrder` on each in the order they were created, with
 * the facts of the whole batch read in a handful of statements (not a handful per order): the saves
 * of a busy minute are checked by one job run.
 */
export async function monitorOrders(
  deps: MonitoringDeps,
  orderIds: readonly string[],
): Promise<MonitoringCaseRow[]> {
  const { db } = deps;
  const batch = (await findMonitoredOrders(db, [...new Set(orderIds)])).sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime(),
  );
  if (batch.length === 0) return [];
  const userIds = [...new Set(batch.map((order) => order.userId))];
  const [windowOrders, identities, sharedDestinations] = await Promise.all([
    findOrdersInSpans(db, windowSpans(batch)),
    findVerifiedIdentities(db, userIds),
    findOtherCustomersPayingSame(
      db,
      batch.map((order) => order.id),
    ),
  ]);
  const opened: MonitoringCaseRow[] = [];
  for (const order of batch) {
    const identity = identities.get(order.userId) ?? { approvedAt: null, name: null };
    const windowStart = order.createdAt.getTime() - WINDOW_MS;
    const window = windowOrders.filter(
      (other) =>
        other.userId === order.userId &&
        other.createdAt.getTime() >= windowStart &&
        other.createdAt.getTime() <= order.createdAt.getTime(),
    );
    // Counted only for an order that could be a large first trade: the one rule that reads it.
    const earlierTrades = mayBeLargeFirstTrade(order, identity.approvedAt)
      ? await countEarlierTrades(db, order)
      : null;
    const findings = evaluateRules({
      order,
      window,
      earlierTrades,
      kycApprovedAt: identity.approvedAt,
      kycName: identity.name,
      sharedDestination: sharedDestinations.get(order.id) ?? [],
    });
    for (const finding of findings) {
      const row = await openCase(db, { userId: order.userId, ...finding, now: deps.now() });
      if (row) opened.push(row);
    }
  }
  await markOrdersChecked(
    db,
    batch.map((order) => ({ orderId: order.id, orderUpdatedAt: order.updatedAt })),
  );
  return opened;
}

/** Each customer's 24-hour windows of the batch, overlapping ones merged: one range read per gap. */
function windowSpans(batch: readonly MonitoredOrder[]): OrderSpan[] {
  const spans: OrderSpan[] = [];
  const byUser = new Map<string, OrderSpan[]>();
  // The batch is sorted by creation, so each customer's windows arrive in order.
  for (const order of batch) {
    const from = new Date(order.createdAt.getTime() - WINDOW_MS);
    const userSpans = byUser.get(order.userId) ?? [];
    const last = userSpans.at(-1);
    if (last && from.getTime() <= last.until.getTime()) {
      last.until = order.createdAt;
    } else {
      const span = { userId: order.userId, from, until: order.createdAt };
      userSpans.push(span);
      spans.push(span);
    }
    byUser.set(order.userId, userSpans);
  }
  return spans;
}

/** How many changed orders one sweep checks; the next sweep takes the rest. */
export const SWEEP_BATCH = 200;

/** The sweep: every order changed since the rules last ran on it (a flag set, a deposit credited…). */
export async function monitorChangedOrders(
  deps: MonitoringDeps,
): Promise<{ checked: number; opened: number }> {
  const ids = await findOrdersToMonitor(deps.db, SWEEP_BATCH);
  const opened = await monitorOrders(deps, ids);
  return { checked: ids.length, opened: opened.length };
}
