import type { CaseUpdateRequest } from '@offzero/shared/api/cases';
import type { SignedInUser } from '../auth/sessions';
import type { Database } from '../db/database';
import type { CaseFilters } from './cases.repository';
import { getCase } from './use-cases/get-case';
import { listCases } from './use-cases/list-cases';
import { monitorChangedOrders, monitorOrder } from './use-cases/monitor-order';
import { updateMonitoringCase } from './use-cases/update-case';

/** The `monitor-order` job: the rules on the order it names. */
export const MONITOR_ORDER_JOB = 'monitor-order';
/** The `monitor-changed-orders` job: the rules on every order changed since they last ran on it. */
export const MONITOR_SWEEP_JOB = 'monitor-changed-orders';
/** How often the sweep runs: it catches changes whose own `monitor-order` job was lost. */
export const MONITOR_SWEEP_EVERY_MS = 30_000;

/** Something that queues jobs (the app's job engine). */
interface JobSender {
  send(name: string, data?: object | null, options?: { singletonKey?: string }): Promise<void>;
}

/**
 * Transaction monitoring (DESIGN.md 7.9): rules run as jobs on every saved, credited or flagged order
 * and open cases that only staff see; staff review, annotate and close them.
 */
export function createCasesService(deps: {
  db: Database;
  queue: JobSender | null;
  log: { warn(obj: object, msg: string): void };
  now?: () => Date;
}) {
  const wired = { db: deps.db, now: deps.now ?? (() => new Date()) };
  return {
    /**
     * Queues the rules for an order that was saved, credited or flagged. A lost send costs nothing
     * but time: the sweep finds the change.
     */
    orderChanged(orderId: string): void {
      if (!deps.queue) return;
      deps.queue
        .send(MONITOR_ORDER_JOB, { orderId }, { singletonKey: orderId })
        .catch((error: unknown) =>
          deps.log.warn({ err: error, orderId }, 'could not queue the monitoring job; the sweep will run it'),
        );
    },
    /** The `monitor-order` job's handler. */
    async runMonitorJob(data: unknown): Promise<unknown> {
      const orderId =
        data && typeof data === 'object' && 'orderId' in data && typeof data.orderId === 'string'
          ? data.orderId
          : null;
      if (!orderId) return monitorChangedOrders(wired);
      const opened = await monitorOrder(wired, orderId);
      return { opened: opened.map((row) => row.id) };
    },
    monitorOrder: (orderId: string) => monitorOrder(wired, orderId),
    monitorChangedOrders: () => monitorChangedOrders(wired),
    list: (filters: CaseFilters) => listCases(wired, filters),
    get: (caseId: string) => getCase(wired, caseId),
    update: (request: { staff: SignedInUser; caseId: string; change: CaseUpdateRequest }) =>
      updateMonitoringCase(wired, request),
  };
}

export type CasesService = ReturnType<typeof createCasesService>;
