import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/database';
import { orders } from '../db/schema';

/**
 * Links a pending order to the PayPal order created for it. The column is unique, so a PayPal order
 * already linked to another order makes this throw a unique violation.
 */
export async function linkPayPalOrder(
  db: Database,
  orderId: string,
  paypalOrderId: string,
  now: Date,
): Promise<void> {
  await db
    .update(orders)
    .set({ paypalOrderId, updatedAt: now })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'pending')));
}
