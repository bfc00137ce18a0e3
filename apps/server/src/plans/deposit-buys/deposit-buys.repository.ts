import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { DepositBuyStatus } from '@offzero/shared/api/deposit-buys';
import type { BankCreditRow } from '../../bank/bank-credits.repository';
import type { Database, Transaction } from '../../db/database';
import {
  bankInboundCredits,
  depositBuys,
  depositBuySettings,
  orderEvents,
  type DepositBuyRow,
  type DepositBuySettingRow,
  type OrderRow,
} from '../../db/schema';

type Db = Database | Transaction;

export async function findDepositBuySetting(db: Db, userId: string): Promise<DepositBuySettingRow | null> {
  const [row] = await db.select().from(depositBuySettings).where(eq(depositBuySettings.userId, userId));
  return row ?? null;
}

export async function saveDepositBuySetting(
  db: Db,
  setting: Omit<DepositBuySettingRow, 'updatedAt'>,
  now: Date,
): Promise<DepositBuySettingRow> {
  const [row] = await db
    .insert(depositBuySettings)
    .values({ ...setting, updatedAt: now })
    .onConflictDoUpdate({
      target: depositBuySettings.userId,
      set: {
        enabled: setting.enabled,
        payoutAddressId: setting.payoutAddressId,
        scamCheck: setting.scamCheck,
        updatedAt: now,
      },
    })
    .returning();
  if (!row) throw new Error('deposit buy setting not saved');
  return row;
}

/** The credit the bank reported under this trace number and transfer, as stored by inbound matching. */
export async function findStoredCredit(
  db: Db,
  credit: { traceNumber: string; transferId: string },
): Promise<BankCreditRow | null> {
  const [row] = await db
    .select()
    .from(bankInboundCredits)
    .where(
      and(
        eq(bankInboundCredits.traceNumber, credit.traceNumber),
        eq(bankInboundCredits.bankTransferId, credit.transferId),
      ),
    );
  return row ?? null;
}

export async function findCredit(db: Db, creditId: string): Promise<BankCreditRow | null> {
  const [row] = await db.select().from(bankInboundCredits).where(eq(bankInboundCredits.id, creditId));
  return row ?? null;
}

export async function lockCredit(tx: Transaction, creditId: string): Promise<BankCreditRow | null> {
  const [row] = await tx
    .select()
    .from(bankInboundCredits)
    .where(eq(bankInboundCredits.id, creditId))
    .for('update');
  return row ?? null;
}

/** The reason an unmatched credit shows in "Unmatched bank credits" (only while it is unmatched). */
export async function setUnmatchedReason(db: Db, creditId: string, reason: string): Promise<void> {
  await db
    .update(bankInboundCredits)
    .set({ reason })
    .where(and(eq(bankInboundCredits.id, creditId), eq(bankInboundCredits.status, 'unmatched')));
}

/** The credit paid the deposit's buy: matched to its order by the bank, as an automatic match is. */
export async function markCreditBought(
  tx: Transaction,
  creditId: string,
  orderId: string,
  now: Date,
): Promise<void> {
  const [row] = await tx
    .update(bankInboundCredits)
    .set({ status: 'matched', orderId, reason: null, resolvedBy: 'bank', resolvedAt: now })
    .where(and(eq(bankInboundCredits.id, creditId), eq(bankInboundCredits.status, 'unmatched')))
    .returning({ id: bankInboundCredits.id });
  if (!row) throw new Error('the bank credit was not unmatched any more');
}

/** Claims the credit's buy: one per credit, so the same credit reported again makes none (null). */
export async function insertDepositBuy(
  tx: Transaction,
  row: { creditId: string; userId: string; amountCents: bigint },
): Promise<DepositBuyRow | null> {
  const [inserted] = await tx
    .insert(depositBuys)
    .values({ ...row, status: 'claimed' })
    .onConflictDoNothing()
    .returning();
  return inserted ?? null;
}

export type DepositBuyPatch = Partial<Omit<typeof depositBuys.$inferInsert, 'id' | 'creditId' | 'userId'>>;

/** Moves a deposit buy on only from the states given: a second worker's same step changes nothing. */
export async function updateDepositBuy(
  db: Db,
  id: string,
  from: readonly DepositBuyStatus[],
  patch: DepositBuyPatch,
): Promise<DepositBuyRow | null> {
  const [row] = await db
    .update(depositBuys)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(depositBuys.id, id), inArray(depositBuys.status, [...from])))
    .returning();
  return row ?? null;
}

/**
 * Takes over a claimed buy left by a worker that stopped: one worker wins (the claim's time moves on),
 * so two run jobs never make the same buy side by side.
 */
export async function takeStaleDepositBuy(db: Db, id: string, staleAt: Date): Promise<DepositBuyRow | null> {
  const [row] = await db
    .update(depositBuys)
    .set({ updatedAt: sql`now()` })
    .where(
      and(eq(depositBuys.id, id), eq(depositBuys.status, 'claimed'), lte(depositBuys.updatedAt, staleAt)),
    )
    .returning();
  return row ?? null;
}

/** Keeps the buy's quote, only if it has none yet: the first worker's quote is the buy's one. */
export async function setDepositBuyQuote(db: Db, id: string, quoteId: string): Promise<DepositBuyRow | null> {
  const [row] = await db
    .update(depositBuys)
    .set({ quoteId, updatedAt: sql`now()` })
    .where(and(eq(depositBuys.id, id), eq(depositBuys.status, 'claimed'), isNull(depositBuys.quoteId)))
    .returning();
  return row ?? null;
}

export async function findDepositBuy(db: Db, id: string): Promise<DepositBuyRow | null> {
  const [row] = await db.select().from(depositBuys).where(eq(depositBuys.id, id));
  return row ?? null;
}

/**
 * The deposit buys the job carries on: claimed ones left by a worker that stopped (older than `staleAt`),
 * and held ones whose hold is over.
 */
export async function findDepositBuysToCarry(
  db: Db,
  at: { staleAt: Date; now: Date },
  limit = 200,
): Promise<DepositBuyRow[]> {
  return db
    .select()
    .from(depositBuys)
    .where(
      or(
        and(eq(depositBuys.status, 'claimed'), lte(depositBuys.updatedAt, at.staleAt)),
        and(eq(depositBuys.status, 'holding'), lte(depositBuys.releaseAt, at.now)),
      ),
    )
    .limit(limit);
}

export async function findDepositBuyOfOrder(db: Db, orderId: string): Promise<DepositBuyRow | null> {
  const [row] = await db.select().from(depositBuys).where(eq(depositBuys.orderId, orderId));
  return row ?? null;
}

/** The order's timeline step: the deposit arrived, from whom (the receipt names the originator). */
export async function recordDepositEvent(
  tx: Transaction,
  order: Pick<OrderRow, 'id' | 'status'>,
  credit: BankCreditRow,
): Promise<void> {
  await tx.insert(orderEvents).values({
    orderId: order.id,
    fromStatus: order.status,
    toStatus: order.status,
    actor: 'bank',
    reason: `deposit ${credit.traceNumber} from ${credit.originatorName} bought bitcoin`,
    details: {
      event: 'bank_credit',
      traceNumber: credit.traceNumber,
      rail: credit.rail,
      amountCents: credit.amountCents.toString(),
      receivedAt: credit.receivedAt.toISOString(),
      originatorName: credit.originatorName,
    },
  });
}
