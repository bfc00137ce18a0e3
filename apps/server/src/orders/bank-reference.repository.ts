import { and, eq, ne, sql } from 'drizzle-orm';
import type { Transaction } from '../db/database';
import { orders, type OrderRow } from '../db/schema';

/**
 * A bank reference as it is compared between orders: without case and without any spaces, so
 * "ZL 2026 0042", "zl2026 0042" and "ZL20260042" are one reference (banks and customers write the
 * same reference with different spacing and case).
 */
export function normalizeBankReference(reference: string): string {
  return reference.replace(/\s+/g, '').toLowerCase();
}

/**
 * Serialises, until the transaction ends, everyone recording this (normalised) reference: two orders
 * given the same reference at once cannot both miss each other.
 */
export async function lockBankReference(tx: Transaction, normalized: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`bank-reference:${normalized}`}))`);
}

/** Another order that already carries this reference (compared as `normalizeBankReference` does). */
export async function findOtherOrderWithBankReference(
  tx: Transaction,
  normalized: string,
  exceptOrderId: string,
): Promise<Pick<OrderRow, 'id'> | undefined> {
  const [other] = await tx
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        ne(orders.id, exceptOrderId),
        eq(sql`lower(regexp_replace(${orders.bankTxn}, '\\s', '', 'g'))`, normalized),
      ),
    )
    .limit(1);
  return other;
}

/** Stores the customer's reference on a processing order, with the flag it earned (if any). */
export async function setBankReferenceAndFlag(
  tx: Transaction,
  orderId: string,
  change: { bankTxn: string; flag?: { flag: string; flagNote: string } },
  now: Date,
): Promise<OrderRow | undefined> {
  const [updated] = await tx
    .update(orders)
    .set({ bankTxn: change.bankTxn, ...change.flag, updatedAt: now })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'processing')))
    .returning();
  return updated;
}
