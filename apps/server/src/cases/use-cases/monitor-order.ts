import type { Database } from '../../db/database';
import type { MonitoringCaseRow } from '../../db/schema';
import {
  countEarlierTrades,
  findOrdersToMonitor,
  findMonitoredOrder,
  findOrdersBetween,
  findOtherCustomersPaying,
  findVerifiedIdentity,
  markOrderChecked,
  openCase,
} from '../cases.repository';
import { destinationOf, evaluateRules, WINDOW_MS } from '../monitoring-rules';

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
  const { db } = deps;
  const order = await findMonitoredOrder(db, orderId);
  if (!order) return [];
  const windowStart = new Date(order.createdAt.getTime() - WINDOW_MS);
  const destination = destinationOf(order);
  const [window, earlierTrades, identity, sharedDestination] = await Promise.all([
    findOrdersBetween(db, order.userId, windowStart, order.createdAt),
    countEarlierTrades(db, order),
    findVerifiedIdentity(db, order.userId),
    destination ? findOtherCustomersPaying(db, order.userId, destination) : Promise.resolve([]),
  ]);
  const findings = evaluateRules({
    order,
    window,
    earlierTrades,
    kycApprovedAt: identity.approvedAt,
    kycName: identity.name,
    sharedDestination,
  });
  const opened: MonitoringCaseRow[] = [];
  for (const finding of findings) {
    const row = await openCase(db, { userId: order.userId, ...finding, now: deps.now() });
    if (row) opened.push(row);
  }
  await markOrderChecked(db, order.id, order.updatedAt);
  return opened;
}

/** How many changed orders one sweep checks; the next sweep takes the rest. */
export const SWEEP_BATCH = 200;

/** The sweep: every order changed since the rules last ran on it (a flag set, a deposit credited…). */
export async function monitorChangedOrders(
  deps: MonitoringDeps,
): Promise<{ checked: number; opened: number }> {
  const ids = await findOrdersToMonitor(deps.db, SWEEP_BATCH);
  let opened = 0;
  for (const id of ids) opened += (await monitorOrder(deps, id)).length;
  return { checked: ids.length, opened };
}
