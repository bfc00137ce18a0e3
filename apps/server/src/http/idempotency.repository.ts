import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/database';
import { idempotencyKeys, type IdempotencyKeyRow } from '../db/schema';

/** The SQL of `idempotency_keys` (docs/design.md); the rules are in idempotency.ts. */

export interface KeyScope {
  userId: string;
  route: string;
  key: string;
}

/** Claims the key for a new call; undefined when another call holds it already. */
export async function claimKey(
  db: Database,
  scope: KeyScope,
  requestHash: string,
): Promise<IdempotencyKeyRow | undefined> {
  const [claimed] = await db
    .insert(idempotencyKeys)
    .values({ ...scope, requestHash })
    .onConflictDoNothing()
    .returning();
  return claimed;
}

export async function findKey(db: Database, scope: KeyScope): Promise<IdempotencyKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.userId, scope.userId),
        eq(idempotencyKeys.route, scope.route),
        eq(idempotencyKeys.key, scope.key),
      ),
    );
  return row;
}

/** Deletes the row if it was created before `cutoffSeconds` ago (an expired key, or a call that died). */
export async function deleteKeyOlderThan(db: Database, id: string, cutoffSeconds: number): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.id, id),
        lt(idempotencyKeys.createdAt, sql`now() - make_interval(secs => ${cutoffSeconds})`),
      ),
    );
}

/** Keeps the answer of a finished call, to be replayed. */
export async function storeAnswer(
  db: Database,
  id: string,
  answer: { statusCode: number; body: string },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ state: 'done', statusCode: answer.statusCode, responseBody: answer.body })
    .where(eq(idempotencyKeys.id, id));
}

/** Frees the key of a call that failed on our side, so the same key may be tried again. */
export async function releaseKey(db: Database, id: string): Promise<void> {
  await db.delete(idempotencyKeys).where(eq(idempotencyKeys.id, id));
}
