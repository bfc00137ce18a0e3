import { and, eq, isNull } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { quotes, type QuoteRow } from '../db/schema';

/** The SQL of locked quotes (docs/design.md). */

export type NewQuote = Omit<typeof quotes.$inferInsert, 'id' | 'orderId' | 'usedAt' | 'createdAt'>;

export async function insertQuote(db: Database, values: NewQuote): Promise<QuoteRow> {
  const [quote] = await db.insert(quotes).values(values).returning();
  if (!quote) throw new Error('quote insert returned nothing');
  return quote;
}

/** The customer's own quote; another customer's id reads as no quote at all. */
export async function findCustomerQuote(
  db: Database,
  userId: string,
  quoteId: string,
): Promise<QuoteRow | undefined> {
  const [quote] = await db
    .select()
    .from(quotes)
    .where(and(eq(quotes.id, quoteId), eq(quotes.userId, userId)))
    .limit(1);
  return quote;
}

/**
 * Marks the quote used by `orderId`, in the transaction that saves that order. Answers false when
 * another order claimed it first: only one of two concurrent saves can.
 */
export async function claimQuote(
  tx: Transaction,
  quoteId: string,
  orderId: string,
  at: Date,
): Promise<boolean> {
  const claimed = await tx
    .update(quotes)
    .set({ orderId, usedAt: at })
    .where(and(eq(quotes.id, quoteId), isNull(quotes.usedAt)))
    .returning({ id: quotes.id });
  return claimed.length === 1;
}
