import { and, asc, count, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { orders, payoutAddresses, users, type OrderRow, type PayoutAddressRow } from '../db/schema';
import { setTravelRuleWalletAddress } from '../orders/travel-rule.repository';

/** The SQL of the payout address book (`payout_addresses`) and of a buy's payout destination. */

type Db = Database | Transaction;

export type NewPayoutAddress = Pick<
  typeof payoutAddresses.$inferInsert,
  'userId' | 'label' | 'address' | 'xpub' | 'isDefault' | 'confirmTokenHash' | 'confirmTokenExpiresAt'
>;

const active = (userId: string | SQL) =>
  and(eq(payoutAddresses.userId, userId), isNull(payoutAddresses.removedAt));

/**
 * An address as the book compares it: a bech32 address (`bc1`, `tb1`, `bcrt1`) is one address in upper
 * or lower case (BIP-173), so it compares lower-cased; a base58 address is case-sensitive, as it is.
 */
const canonicalAddress = (address: string | SQL | typeof payoutAddresses.address) =>
  sql`(case when ${address} ~* '^(bc|tb|bcrt)1' then lower(${address}) else ${address} end)`;

/** The entry holds this address, in whichever case a bech32 address was typed. */
const holdsAddress = (address: string | SQL) =>
  sql`${canonicalAddress(payoutAddresses.address)} = ${canonicalAddress(address)}`;

/** The customer's entries that are not removed, oldest first. */
export function listPayoutAddresses(db: Db, userId: string): Promise<PayoutAddressRow[]> {
  return db
    .select()
    .from(payoutAddresses)
    .where(active(userId))
    .orderBy(asc(payoutAddresses.createdAt), asc(payoutAddresses.id));
}

/** One of the customer's entries that is not removed (another customer's id finds nothing). */
export async function findPayoutAddress(
  db: Db,
  userId: string,
  id: string,
): Promise<PayoutAddressRow | undefined> {
  const [row] = await db
    .select()
    .from(payoutAddresses)
    .where(and(active(userId), eq(payoutAddresses.id, id)));
  return row;
}

/**
 * The id of the customer's entry of this plain address (`findPayoutAddressByAddress`) as a subquery,
 * for a statement that reads it along with other things.
 */
export function activeEntryIdOfAddress(db: Db, userId: string | SQL, address: string | SQL) {
  return db
    .select({ id: payoutAddresses.id })
    .from(payoutAddresses)
    .where(and(active(userId), holdsAddress(address)));
}

/** An entry by id whatever its owner or state (a buy's entry, read for its payout). */
export async function findPayoutAddressById(db: Db, id: string): Promise<PayoutAddressRow | undefined> {
  const [row] = await db.select().from(payoutAddresses).where(eq(payoutAddresses.id, id));
  return row;
}

export async function findPayoutAddressByAddress(
  db: Db,
  userId: string,
  address: string,
): Promise<PayoutAddressRow | undefined> {
  const [row] = await db
    .select()
    .from(payoutAddresses)
    .where(and(active(userId), holdsAddress(address)));
  return row;
}

export async function findPayoutAddressByXpub(
  db: Db,
  userId: string,
  xpub: string,
): Promise<PayoutAddressRow | undefined> {
  const [row] = await db
    .select()
    .from(payoutAddresses)
    .where(and(active(userId), eq(payoutAddresses.xpub, xpub)));
  return row;
}

export async function countPayoutAddresses(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(payoutAddresses).where(active(userId));
  return row?.n ?? 0;
}

/** Serialises changes of one customer's book (the entry limit, the one default) across processes. */
export async function lockAddressBook(tx: Transaction, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
}

export async function insertPayoutAddress(
  tx: Transaction,
  values: NewPayoutAddress,
): Promise<PayoutAddressRow> {
  const [row] = await tx.insert(payoutAddresses).values(values).returning();
  if (!row) throw new Error('payout address insert returned nothing');
  return row;
}

/** The customer's e-mail (every change of the book is told to it). */
export async function findCustomerEmail(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email;
}

/**
 * Confirms the entry when the token's hash matches, has not expired and was not used: one statement,
 * so two clicks at once confirm once. The token is cleared (single use).
 */
export async function confirmPayoutAddress(
  tx: Transaction,
  where: { userId: string; id: string; tokenHash: string; now: Date; usableAt: Date },
): Promise<PayoutAddressRow | undefined> {
  const [row] = await tx
    .update(payoutAddresses)
    .set({
      confirmedAt: where.now,
      usableAt: where.usableAt,
      confirmTokenHash: null,
      confirmTokenExpiresAt: null,
    })
    .where(
      and(
        active(where.userId),
        eq(payoutAddresses.id, where.id),
        eq(payoutAddresses.confirmTokenHash, where.tokenHash),
        sql`${payoutAddresses.confirmTokenExpiresAt} > ${where.now}`,
        isNull(payoutAddresses.confirmedAt),
      ),
    )
    .returning();
  return row;
}

export async function setConfirmToken(
  tx: Transaction,
  id: string,
  token: { hash: string; expiresAt: Date },
): Promise<void> {
  await tx
    .update(payoutAddresses)
    .set({ confirmTokenHash: token.hash, confirmTokenExpiresAt: token.expiresAt })
    .where(and(eq(payoutAddresses.id, id), isNull(payoutAddresses.confirmedAt)));
}

export async function markPayoutAddressRemoved(
  tx: Transaction,
  id: string,
  now: Date,
): Promise<PayoutAddressRow | undefined> {
  const [row] = await tx
    .update(payoutAddresses)
    .set({ removedAt: now, isDefault: false, confirmTokenHash: null, confirmTokenExpiresAt: null })
    .where(and(eq(payoutAddresses.id, id), isNull(payoutAddresses.removedAt)))
    .returning();
  return row;
}

export async function markPayoutAddressProven(
  db: Db,
  id: string,
  now: Date,
): Promise<PayoutAddressRow | undefined> {
  const [row] = await db
    .update(payoutAddresses)
    .set({ provenAt: now })
    .where(and(eq(payoutAddresses.id, id), isNull(payoutAddresses.removedAt)))
    .returning();
  return row;
}

/** Makes the entry the customer's one default (the Settings wallet card). */
export async function setDefaultPayoutAddress(tx: Transaction, userId: string, id: string): Promise<void> {
  await tx
    .update(payoutAddresses)
    .set({ isDefault: false })
    .where(and(active(userId), eq(payoutAddresses.isDefault, true), ne(payoutAddresses.id, id)));
  await tx.update(payoutAddresses).set({ isDefault: true }).where(eq(payoutAddresses.id, id));
}

/**
 * Takes the xpub entry's next derivation index: one atomic increment, so two payouts running at once
 * (in any process) never get the same index.
 */
export async function takeNextPayoutIndex(db: Db, id: string): Promise<number> {
  const [row] = await db
    .update(payoutAddresses)
    .set({ nextIndex: sql`${payoutAddresses.nextIndex} + 1` })
    .where(eq(payoutAddresses.id, id))
    .returning({ next: payoutAddresses.nextIndex });
  if (!row) throw new Error('payout address vanished while taking an index');
  return row.next - 1;
}

// ---------------------------------------------------------------------------------------------------
// A buy's payout destination (columns of `orders` that belong to the address book)

export async function findBuyOrder(db: Db, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.type, 'buy')));
  return row;
}

/**
 * The derivation index an xpub buy holds, claimed under the order's row lock: the index it already
 * holds, or (none yet, or `replacing` the one it holds because that address has history) the entry's
 * next one. Two resolvers of the same buy (any processes) end with one index, and no index is taken
 * twice.
 */
export async function claimPayoutIndex(
  db: Database,
  where: { orderId: string; entryId: string; replacing: number | null },
): Promise<number> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select({ payoutIndex: orders.payoutIndex })
      .from(orders)
      .where(eq(orders.id, where.orderId))
      .for('update');
    if (!order) throw new Error('order vanished while claiming a payout index');
    if (order.payoutIndex !== null && order.payoutIndex !== where.replacing) return order.payoutIndex;
    const index = await takeNextPayoutIndex(tx, where.entryId);
    await tx
      .update(orders)
      .set({ payoutIndex: index, updatedAt: new Date() })
      .where(eq(orders.id, where.orderId));
    return index;
  });
}

/**
 * Records the derived address an xpub buy pays, once, for the index it holds: a resolver whose index
 * was replaced meanwhile, or that lost the race, gets nothing back. The order's Travel Rule record
 * (kept at save, before any address was derived) takes the same address.
 */
export async function recordDerivedPayoutAddress(
  db: Db,
  orderId: string,
  destination: { address: string; index: number },
): Promise<OrderRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(orders)
      .set({ walletAddress: destination.address, updatedAt: new Date() })
      .where(
        and(eq(orders.id, orderId), isNull(orders.walletAddress), eq(orders.payoutIndex, destination.index)),
      )
      .returning();
    if (row) await setTravelRuleWalletAddress(tx, orderId, destination.address);
    return row;
  });
}
