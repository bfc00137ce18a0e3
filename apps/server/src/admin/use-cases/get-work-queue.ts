import type { Database } from '../../db/database';
import { findWorkQueue } from '../admin-orders.repository';

/**
 * What needs a person now, oldest first: buy payments to check, bitcoin to send, sell payouts whose
 * deposit has its confirmations, and flagged orders.
 */
export async function getWorkQueue(deps: { db: Database; confirmationsRequired: number }) {
  return findWorkQueue(deps.db, deps.confirmationsRequired);
}
