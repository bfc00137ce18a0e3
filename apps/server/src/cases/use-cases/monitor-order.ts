import type { Database } from '../../db/database';
import type { MonitoringCaseRow } from '../../db/schema';
import {
  countEarlierTrades,
  findCasesInTheWay,
  findMonitoredOrders,
  findOrdersInSpans,
  findOrdersToMonitor,
  findVerifiedIdentities,
  markOrdersChecked,
  openCase,
  type OrderSpan,
} from '../cases.repository';
import { destinationKey, findFirstPaymentsTo, SHARED_DESTINATION_SHOWN } from '../destination-payments.repository';
import {
  destinationOf,
  evaluateRules,
  mayBeLargeFirstTrade,
  WINDOW_MS,
  type Finding,
  type MonitoredOrder,
} from '../monitoring-rules';

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
  // A finding whose customer already has an open case of its rule, or whose event already opened
  // one, would be refused by the unique indexes: it is not tried, and a customer whose velocity case
  // is open needs no count of their window (only its structuring-band orders, unless that case is
  // open too). The indexes still decide between processes racing.
  const taken = await findCasesInTheWay(
    db,
    userIds,
    batch.map((order) => `order:${order.id}`),
  );
  const windowNeeded = (userId: string): WindowNeed =>
    !taken.has(`${userId} velocity`) ? 'all' : !taken.has(`${userId} structuring`) ? 'banded' : 'none';
  const destinationKeys = new Map<string, string>();
  for (const order of batch) {
    // With the customer's shared-destination case open, no other payer can open another.
    const destination = taken.has(`${order.userId} shared_destination`) ? null : destinationOf(order);
    if (destination) destinationKeys.set(order.id, destinationKey(destination));
  }
  const [windowOrders, identities, payments] = await Promise.all([
    findOrdersInSpans(db, windowSpans(batch, windowNeeded)),
    findVerifiedIdentities(db, userIds),
    findFirstPaymentsTo(db, [...new Set(destinationKeys.values())]),
  ]);
  const found: { order: MonitoredOrder; finding: Finding }[] = [];
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
    const key = destinationKeys.get(order.id);
    const sharedDestination = key
      ? (payments.get(key) ?? [])
          .filter((payment) => payment.userId !== order.userId)
          .slice(0, SHARED_DESTINATION_SHOWN)
      : [];
    const findings = evaluateRules({
      order,
      window,
      earlierTrades,
      kycApprovedAt: identity.approvedAt,
      kycName: identity.name,
      sharedDestination,
    });
    for (const finding of findings) found.push({ order, finding });
  }
  const opened: MonitoringCaseRow[] = [];
  for (const { order, finding } of found) {
    const perRule = `${order.userId} ${finding.rule}`;
    if (taken.has(perRule) || taken.has(`${perRule} ${finding.triggerKey}`)) continue;
    const row = await openCase(db, { userId: order.userId, ...finding, now: deps.now() });
    if (row) {
      opened.push(row);
      taken.add(perRule);
    }
  }
  await markOrdersChecked(db, checkedVersions(batch));
  return opened;
}

const checkedVersions = (batch: readonly (MonitoredOrder & { updatedAt: Date })[]) =>
  batch.map((order) => ({ orderId: order.id, orderUpdatedAt: order.updatedAt }));

/** What of a customer's 24-hour windows the rules still need. */
type WindowNeed = 'all' | 'banded' | 'none';

/** Each customer's 24-hour windows of the batch, overlapping ones merged: one range read per gap. */
function windowSpans(batch: readonly MonitoredOrder[], needed: (userId: string) => WindowNeed): OrderSpan[] {
  const spans: OrderSpan[] = [];
  const byUser = new Map<string, OrderSpan[]>();
  // The batch is sorted by creation, so each customer's windows arrive in order.
  for (const order of batch) {
    const need = needed(order.userId);
    if (need === 'none') continue;
    const from = new Date(order.createdAt.getTime() - WINDOW_MS);
    const userSpans = byUser.get(order.userId) ?? [];
    const last = userSpans.at(-1);
    if (last && from.getTime() <= last.until.getTime()) {
      last.until = order.createdAt;
    } else {
      const span = { userId: order.userId, from, until: order.createdAt, bandedOnly: need === 'banded' };
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
