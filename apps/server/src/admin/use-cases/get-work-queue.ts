import type { SanctionsListService } from '../../compliance/sanctions/sanctions-list.service';
import type { Database } from '../../db/database';
import { findWorkQueue } from '../admin-orders.repository';

/**
 * What needs a person now, oldest first: buy payments to check, bitcoin to send, sell payouts whose
 * deposit has its confirmations, and flagged orders; and the alerts of the system itself (a sanctions
 * list that failed to refresh).
 */
export async function getWorkQueue(deps: {
  db: Database;
  confirmationsRequired: number;
  sanctionsList: Pick<SanctionsListService, 'health'>;
}) {
  const [queue, sanctions] = await Promise.all([
    findWorkQueue(deps.db, deps.confirmationsRequired),
    deps.sanctionsList.health(),
  ]);
  const alerts = sanctions.alert ? [{ id: 'sanctions-list', message: sanctions.alert }] : [];
  return { ...queue, alerts };
}
