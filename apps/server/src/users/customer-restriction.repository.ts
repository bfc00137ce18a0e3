import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { users } from '../db/schema';
import { forgetCachedSessions } from '../auth/sessions';

/**
 * Restricts a customer after money came back out of one of their orders (a payment reversed, a
 * deposit that vanished): they can still sign in and read everything, but not trade. The first reason
 * stays; a later one does not overwrite it. Returns whether this call restricted them.
 */
export async function restrictCustomer(
  db: Database | Transaction,
  userId: string,
  reason: string,
): Promise<boolean> {
  const changed = await db
    .update(users)
    .set({ restrictedAt: new Date(), restrictedReason: reason, updatedAt: new Date() })
    .where(and(eq(users.id, userId), isNull(users.restrictedAt)))
    .returning({ id: users.id });
  forgetCachedSessions(userId);
  return changed.length > 0;
}

/** Lifts a customer's restriction (staff looked into it); false when they were not restricted. */
export async function liftCustomerRestriction(db: Database | Transaction, userId: string): Promise<boolean> {
  const changed = await db
    .update(users)
    .set({ restrictedAt: null, restrictedReason: null, updatedAt: new Date() })
    .where(and(eq(users.id, userId), isNotNull(users.restrictedAt)))
    .returning({ id: users.id });
  forgetCachedSessions(userId);
  return changed.length > 0;
}
