import { and, eq, isNull } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { fourEyesApprovals, type FourEyesApprovalRow } from '../db/schema';

export type FourEyesAction = FourEyesApprovalRow['action'];

/** The open request for this order and action, if any (locked when read in a transaction). */
export async function findOpenApproval(
  tx: Transaction,
  orderId: string,
  action: FourEyesAction,
): Promise<FourEyesApprovalRow | null> {
  const [row] = await tx
    .select()
    .from(fourEyesApprovals)
    .where(
      and(
        eq(fourEyesApprovals.orderId, orderId),
        eq(fourEyesApprovals.action, action),
        isNull(fourEyesApprovals.approvedAt),
      ),
    )
    .for('update');
  return row ?? null;
}

export async function insertApproval(
  tx: Transaction,
  values: {
    orderId: string;
    action: FourEyesAction;
    requestedByUserId: string;
    requestedByEmail: string;
    details: Record<string, string>;
  },
): Promise<FourEyesApprovalRow> {
  const [row] = await tx.insert(fourEyesApprovals).values(values).returning();
  if (!row) throw new Error('four-eyes insert returned nothing');
  return row;
}

/** The requesting admin asked again with other details: the open request now stands for those. */
export async function replaceApprovalDetails(
  tx: Transaction,
  id: string,
  details: Record<string, string>,
): Promise<FourEyesApprovalRow> {
  const [row] = await tx
    .update(fourEyesApprovals)
    .set({ details, createdAt: new Date() })
    .where(and(eq(fourEyesApprovals.id, id), isNull(fourEyesApprovals.approvedAt)))
    .returning();
  if (!row) throw new Error('four-eyes request closed while locked');
  return row;
}

export async function closeApproval(
  db: Database | Transaction,
  id: string,
  approvedByUserId: string,
): Promise<FourEyesApprovalRow | null> {
  const [row] = await db
    .update(fourEyesApprovals)
    .set({ approvedByUserId, approvedAt: new Date() })
    .where(and(eq(fourEyesApprovals.id, id), isNull(fourEyesApprovals.approvedAt)))
    .returning();
  return row ?? null;
}

/** The open requests of an order (the back office's order page shows them). */
export async function listOpenApprovals(db: Database, orderId: string): Promise<FourEyesApprovalRow[]> {
  return db
    .select()
    .from(fourEyesApprovals)
    .where(and(eq(fourEyesApprovals.orderId, orderId), isNull(fourEyesApprovals.approvedAt)));
}
