import type { CaseUpdateRequest } from '@offzero/shared/api/cases';
import type { SignedInUser } from '../auth/sessions';
import type { Database } from '../db/database';
import type { CaseFilters } from './cases.repository';
import { getCase } from './use-cases/get-case';
import { listCases } from './use-cases/list-cases';
import { monitorChangedOrders, monitorOrder, monitorOrders, SWEEP_BATCH } from './use-cases/monitor-order';
import { updateMonitoringCase } from './use-cases/update-case';

/** The `monitor-order` job: the rules on the orders it names (`orderIds`, or one `orderId`). */
export const MONITOR_ORDER_JOB = 'monitor-order';
/**
 * Orders changed in a process are gathered this long, then queued as one job: a save costs its
 * share of one job run, not a job of its own, and its cases still open within about a second.
 */
export const MONITOR_GATHER_MS = 200;
/** At most this many orders per job; more are queued at once as another job. */
export const MONITOR_JOB_MAX_ORDERS = SWEEP_BATCH;
/** The `monitor-changed-orders` job: the rules on every order changed since they last ran on it. */
export const MONITOR_SWEEP_JOB = 'monitor-changed-orders';
/** How often the sweep runs: it catches changes whose own `monitor-order` job was lost. */
export const MONITOR_SWEEP_EVERY_MS = 30_000;

/** Something that queues jobs (the app's job engine). */
interface JobSender {
  send(name: string, data?: object | null, options?: { singletonKey?: string }): Promise<void>;
}

/**
 * Transaction monitoring (docs/design.md): rules run as jobs on every saved, credited or flagged order
 * and open cases that only staff see; staff review, annotate and close them.
 */
export function createCasesService(deps: {
  db: Database;
  queue: JobSender | null;
  log: { warn(obj: object, msg: string): void };
  now?: () => Date;
}) {
  const wired = { db: deps.db, now: deps.now ?? (() => new Date()) };
  /** Orders changed here and not yet queued (a save and its notice name the same order: one entry). */
  let gathered = new Set<string>();
  let gatherTimer: NodeJS.Timeout | null = null;

  function queueGathered(): Promise<void> {
    if (gatherTimer) clearTimeout(gatherTimer);
    gatherTimer = null;
    const orderIds = [...gathered];
    gathered = new Set();
    if (!deps.queue || orderIds.length === 0) return Promise.resolve();
    return deps.queue
      .send(MONITOR_ORDER_JOB, { orderIds })
      .catch((error: unknown) =>
        deps.log.warn(
          { err: error, orders: orderIds.length },
          'could not queue the monitoring job; the sweep will run it',
        ),
      );
  }

  return {
    /**
     * Queues the rules for an order that was saved, credited or flagged, with the other orders
     * changed in the next moment. A lost send (or a process that dies first) costs nothing but time:
     * the sweep finds the change.
     */
    orderChanged(orderId: string): void {
      if (!deps.queue) return;
      gathered.add(orderId);
      if (gathered.size >= MONITOR_JOB_MAX_ORDERS) {
        void queueGathered();
      } else if (!gatherTimer) {
        gatherTimer = setTimeout(() => void queueGathered(), MONITOR_GATHER_MS);
        gatherTimer.unref();
      }
    },
    /** Queues what is gathered now (the app is closing). */
    flush: (): Promise<void> => queueGathered(),
    /** The `monitor-order` job's handler; without orders named, the sweep. */
    async runMonitorJob(data: unknown): Promise<unknown> {
      const orderIds = orderIdsOf(data);
      if (!orderIds) return monitorChangedOrders(wired);
      const opened = await monitorOrders(wired, orderIds);
      return { checked: orderIds.length, opened: opened.map((row) => row.id) };
    },
    monitorOrder: (orderId: string) => monitorOrder(wired, orderId),
    monitorChangedOrders: () => monitorChangedOrders(wired),
    list: (filters: CaseFilters) => listCases(wired, filters),
    get: (caseId: string) => getCase(wired, caseId),
    update: (request: { staff: SignedInUser; caseId: string; change: CaseUpdateRequest }) =>
      updateMonitoringCase(wired, request),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The orders a `monitor-order` job names: `{ orderIds }`, or `{ orderId }` as queued before batches. */
function orderIdsOf(data: unknown): string[] | null {
  if (!data || typeof data !== 'object') return null;
  const named =
    'orderIds' in data && Array.isArray(data.orderIds)
      ? (data.orderIds as unknown[])
      : 'orderId' in data
        ? [data.orderId]
        : null;
  if (!named) return null;
  return named.filter((id): id is string => typeof id === 'string' && UUID.test(id));
}

export type CasesService = ReturnType<typeof createCasesService>;
