import { desc, eq } from 'drizzle-orm';
import type { Database } from '../db/database';
import { outboxMessages, users } from '../db/schema';
import { isUuid } from '../http/ids';

export type OutboxMessageRow = typeof outboxMessages.$inferSelect;

const OUTBOX_SHOWN = 100;

export async function userExists(db: Database, userId: string): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  return user !== undefined;
}

/** The demo outbox's newest messages, to one address or to anyone. */
export async function findOutboxMessages(db: Database, to: string | undefined): Promise<OutboxMessageRow[]> {
  return db
    .select()
    .from(outboxMessages)
    .where(to ? eq(outboxMessages.to, to) : undefined)
    .orderBy(desc(outboxMessages.createdAt))
    .limit(OUTBOX_SHOWN);
}
