import { and, eq, sql } from 'drizzle-orm';
import type { Transaction } from '../db/database';
import { travelRuleRecords, type TravelRuleRecordRow } from '../db/schema';

export type NewTravelRuleRecord = Omit<
  typeof travelRuleRecords.$inferInsert,
  'id' | 'createdAt' | 'updatedAt'
>;

/**
 * Writes the order's Travel Rule record, or replaces it when the order was re-quoted (one record per
 * order, always matching the order's latest figures and answer).
 */
export async function upsertTravelRuleRecord(
  tx: Transaction,
  record: NewTravelRuleRecord,
): Promise<TravelRuleRecordRow> {
  const [saved] = await tx
    .insert(travelRuleRecords)
    .values(record)
    .onConflictDoUpdate({
      target: travelRuleRecords.orderId,
      set: {
        customerName: record.customerName,
        customerAddress: record.customerAddress,
        paymentIdentifier: record.paymentIdentifier,
        amountSats: record.amountSats,
        valueCents: record.valueCents,
        walletAddress: record.walletAddress,
        ownWallet: record.ownWallet,
        institution: record.institution,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  if (!saved) throw new Error('travel rule record upsert returned nothing');
  return saved;
}

/** Records how a buy was paid once the customer chose it (a no-op for orders below the threshold). */
export async function setTravelRulePaymentIdentifier(
  tx: Transaction,
  orderId: string,
  paymentIdentifier: string,
): Promise<void> {
  await tx
    .update(travelRuleRecords)
    .set({ paymentIdentifier, updatedAt: sql`now()` })
    .where(eq(travelRuleRecords.orderId, orderId));
}

/**
 * Records the address an xpub buy actually pays once it is derived (its record was kept at save with
 * no address yet); an address already recorded is never replaced.
 */
export async function setTravelRuleWalletAddress(
  tx: Transaction,
  orderId: string,
  walletAddress: string,
): Promise<void> {
  await tx
    .update(travelRuleRecords)
    .set({ walletAddress, updatedAt: sql`now()` })
    .where(and(eq(travelRuleRecords.orderId, orderId), eq(travelRuleRecords.walletAddress, '')));
}

export async function findTravelRuleRecord(
  tx: Transaction,
  orderId: string,
): Promise<TravelRuleRecordRow | undefined> {
  const [record] = await tx.select().from(travelRuleRecords).where(eq(travelRuleRecords.orderId, orderId));
  return record;
}
