import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import {
  bankAccountNumbers,
  bankInboundCredits,
  kycRecords,
  orderEvents,
  orders,
  users,
  type OrderRow,
} from '../db/schema';

export type BankAccountNumberRow = typeof bankAccountNumbers.$inferSelect;
export type BankCreditRow = typeof bankInboundCredits.$inferSelect;
type NewBankCredit = typeof bankInboundCredits.$inferInsert;

export async function findFundingAccount(
  db: Database | Transaction,
  by: { userId: string } | { bankAccountNumberId: string },
): Promise<BankAccountNumberRow | null> {
  const [row] = await db
    .select()
    .from(bankAccountNumbers)
    .where(
      'userId' in by
        ? eq(bankAccountNumbers.userId, by.userId)
        : eq(bankAccountNumbers.bankAccountNumberId, by.bankAccountNumberId),
    );
  return row ?? null;
}

/** Keeps the customer's account number; the first of two concurrent first calls wins, both read it. */
export async function saveFundingAccount(
  db: Database,
  row: typeof bankAccountNumbers.$inferInsert,
): Promise<BankAccountNumberRow> {
  await db.insert(bankAccountNumbers).values(row).onConflictDoNothing({ target: bankAccountNumbers.userId });
  const saved = await findFundingAccount(db, { userId: row.userId });
  if (!saved) throw new Error('the funding account vanished after it was saved');
  return saved;
}

/** The customer's verified (KYC) name, when they are verified. */
export async function findVerifiedName(db: Database | Transaction, userId: string): Promise<string | null> {
  const [row] = await db
    .select({
      legalName: kycRecords.legalName,
      status: kycRecords.status,
      first: users.firstName,
      last: users.lastName,
    })
    .from(users)
    .leftJoin(kycRecords, eq(kycRecords.userId, users.id))
    .where(eq(users.id, userId));
  if (row?.status !== 'GREEN') return null;
  return row.legalName?.trim() || `${row.first} ${row.last}`.trim();
}

/**
 * Stores a credit once per trace number (and bank transfer): null when that trace (or transfer) was
 * stored before — the same payment reported twice.
 */
export async function insertBankCredit(tx: Transaction, row: NewBankCredit): Promise<BankCreditRow | null> {
  const [inserted] = await tx.insert(bankInboundCredits).values(row).onConflictDoNothing().returning();
  return inserted ?? null;
}

/**
 * The customer's unpaid buys a bank credit may pay, oldest first, locked: pending, or processing by
 * ACH or wire while the payment is not confirmed yet (docs/design.md, "Bank provider").
 */
export async function lockUnpaidBankBuys(tx: Transaction, userId: string): Promise<OrderRow[]> {
  return tx
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.type, 'buy'),
        isNull(orders.paymentConfirmedAt),
        or(
          and(
            eq(orders.status, 'pending'),
            or(isNull(orders.paymentMethod), inArray(orders.paymentMethod, ['ach', 'wire'])),
          ),
          and(eq(orders.status, 'processing'), inArray(orders.paymentMethod, ['ach', 'wire'])),
        ),
      ),
    )
    .orderBy(asc(orders.createdAt), asc(orders.id))
    .for('update');
}

export async function lockBankCredit(tx: Transaction, id: string): Promise<BankCreditRow | null> {
  const [row] = await tx.select().from(bankInboundCredits).where(eq(bankInboundCredits.id, id)).for('update');
  return row ?? null;
}

export async function resolveBankCredit(
  tx: Transaction,
  id: string,
  change: { status: 'matched' | 'returned'; orderId?: string; resolvedBy: string; now: Date },
): Promise<BankCreditRow> {
  const [row] = await tx
    .update(bankInboundCredits)
    .set({
      status: change.status,
      orderId: change.orderId ?? null,
      resolvedBy: change.resolvedBy,
      resolvedAt: change.now,
    })
    .where(and(eq(bankInboundCredits.id, id), eq(bankInboundCredits.status, 'unmatched')))
    .returning();
  if (!row) throw new Error('the bank credit was not unmatched any more');
  return row;
}

/** The step in the order's timeline: the money arrived at the bank (no status change by itself). */
export async function recordBankCreditEvent(
  tx: Transaction,
  order: Pick<OrderRow, 'id' | 'status'>,
  credit: Pick<BankCreditRow, 'traceNumber' | 'rail' | 'amountCents' | 'receivedAt'>,
  actor: string,
): Promise<void> {
  await tx.insert(orderEvents).values({
    orderId: order.id,
    fromStatus: order.status,
    toStatus: order.status,
    actor,
    reason: `bank credit ${credit.traceNumber} matched`,
    details: {
      event: 'bank_credit',
      traceNumber: credit.traceNumber,
      rail: credit.rail,
      amountCents: credit.amountCents.toString(),
      receivedAt: credit.receivedAt.toISOString(),
    },
  });
}

/** Credits by status, newest first (the work queue lists the unmatched ones). */
export async function listBankCredits(
  db: Database,
  filter: { status?: BankCreditRow['status']; orderId?: string; limit?: number },
): Promise<(BankCreditRow & { email: string | null })[]> {
  const rows = await db
    .select({ credit: bankInboundCredits, email: users.email })
    .from(bankInboundCredits)
    .leftJoin(users, eq(users.id, bankInboundCredits.userId))
    .where(
      and(
        filter.status ? eq(bankInboundCredits.status, filter.status) : sql`true`,
        filter.orderId ? eq(bankInboundCredits.orderId, filter.orderId) : sql`true`,
      ),
    )
    .orderBy(desc(bankInboundCredits.receivedAt), desc(bankInboundCredits.id))
    .limit(filter.limit ?? 200);
  return rows.map((row) => ({ ...row.credit, email: row.email }));
}

/** The bank's trace number as the order's bank reference (it replaces what the customer typed). */
export async function setOrderBankTxn(
  tx: Transaction,
  orderId: string,
  traceNumber: string,
): Promise<OrderRow> {
  const [row] = await tx
    .update(orders)
    .set({ bankTxn: traceNumber, updatedAt: new Date() })
    .where(eq(orders.id, orderId))
    .returning();
  if (!row) throw new Error('the order vanished while its bank credit was applied');
  return row;
}

/** A return the bank refused: the credit waits for a person again. */
export async function releaseReturnClaim(db: Database, id: string): Promise<void> {
  await db
    .update(bankInboundCredits)
    .set({ status: 'unmatched', resolvedBy: null, resolvedAt: null })
    .where(and(eq(bankInboundCredits.id, id), eq(bankInboundCredits.status, 'returned')));
}
