import { and, eq, gte, inArray, isNotNull, ne, notInArray, or, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { orders, payoutAddresses, payoutBatchClaims } from '../db/schema';
import { hasOrderPayoutIn } from '../payouts/payout.repository';

type Reader = Database | Transaction;

/** Whether the customer has ever saved a buy (their first buy is the one the scam question guards). */
export async function hasEarlierBuy(db: Reader, userId: string, exceptOrderId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.type, 'buy'),
        exceptOrderId ? ne(orders.id, exceptOrderId) : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The value of the customer's buys since `since` that still count (not expired or cancelled). */
export async function sumBuysSince(
  db: Reader,
  userId: string,
  since: Date,
  exceptOrderId?: string,
): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${orders.valueCents}), 0)::text` })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.type, 'buy'),
        gte(orders.createdAt, since),
        notInArray(orders.status, ['expired', 'cancelled']),
        exceptOrderId ? ne(orders.id, exceptOrderId) : undefined,
      ),
    );
  return BigInt(row?.total ?? '0');
}

/**
 * Whether OffZero has paid this destination for this customer before (a completed buy of theirs to the
 * address, or to the address-book entry), or they proved it theirs with a signature: then no cooling-off
 * applies. Another customer's payouts count for nothing: a scammer's address is paid for many victims.
 */
export async function isKnownDestination(
  db: Reader,
  destination: { userId: string; walletAddress: string | null; payoutAddressId: string | null },
): Promise<boolean> {
  const { walletAddress, payoutAddressId } = destination;
  const paid = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.userId, destination.userId),
        eq(orders.type, 'buy'),
        eq(orders.status, 'completed'),
        or(
          walletAddress ? eq(orders.walletAddress, walletAddress) : undefined,
          payoutAddressId ? eq(orders.payoutAddressId, payoutAddressId) : undefined,
        ),
      ),
    )
    .limit(1);
  if (paid.length > 0) return true;
  const proven = await db
    .select({ id: payoutAddresses.id })
    .from(payoutAddresses)
    .where(
      and(
        eq(payoutAddresses.userId, destination.userId),
        isNotNull(payoutAddresses.provenAt),
        or(
          payoutAddressId ? eq(payoutAddresses.id, payoutAddressId) : undefined,
          walletAddress ? eq(payoutAddresses.address, walletAddress) : undefined,
        ),
      ),
    )
    .limit(1);
  return proven.length > 0;
}

/** Whether the buy's bitcoin payout has started: a live payout row, or a payout batch holding it. */
export async function hasPayoutStarted(tx: Transaction, orderId: string): Promise<boolean> {
  // Live or done: every state but failed and cancelled (a returned payout did leave).
  if (await hasOrderPayoutIn(tx, orderId, ['requested', 'submitted', 'settled', 'returned'])) return true;
  const [claimed] = await tx
    .select({ orderId: payoutBatchClaims.orderId })
    .from(payoutBatchClaims)
    .where(inArray(payoutBatchClaims.orderId, [orderId]))
    .limit(1);
  return claimed !== undefined;
}
