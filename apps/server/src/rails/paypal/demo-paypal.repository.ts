import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { demoPaypalOrders, demoPaypalState } from '../../db/schema';

export type DemoPayPalOrderRow = typeof demoPaypalOrders.$inferSelect;

/**
 * The demo PayPal sandbox's storage. Every change is one conditional UPDATE, so two processes acting
 * on one PayPal order at once (two captures, an approve and a cancel) leave exactly one winner.
 */

export async function insertDemoPayPalOrder(
  db: Database,
  order: { id: string; referenceId: string; valueCents: bigint },
): Promise<void> {
  await db.insert(demoPaypalOrders).values(order);
}

export async function findDemoPayPalOrder(db: Database, id: string): Promise<DemoPayPalOrderRow | undefined> {
  const [row] = await db.select().from(demoPaypalOrders).where(eq(demoPaypalOrders.id, id));
  return row;
}

export async function findDemoPayPalOrderByCapture(
  db: Database,
  captureId: string,
): Promise<DemoPayPalOrderRow | undefined> {
  const [row] = await db.select().from(demoPaypalOrders).where(eq(demoPaypalOrders.captureId, captureId));
  return row;
}

/** APPROVED from CREATED only; undefined when the order is not waiting for approval. */
export async function approveDemoPayPalOrder(
  db: Database,
  id: string,
): Promise<DemoPayPalOrderRow | undefined> {
  const [row] = await db
    .update(demoPaypalOrders)
    .set({ status: 'APPROVED', updatedAt: new Date() })
    .where(and(eq(demoPaypalOrders.id, id), eq(demoPaypalOrders.status, 'CREATED')))
    .returning();
  return row;
}

/** VOIDED unless already captured. */
export async function voidDemoPayPalOrder(db: Database, id: string): Promise<void> {
  await db
    .update(demoPaypalOrders)
    .set({ status: 'VOIDED', updatedAt: new Date() })
    .where(and(eq(demoPaypalOrders.id, id), ne(demoPaypalOrders.status, 'COMPLETED')));
}

/** Captures an APPROVED order; undefined when it is not (any more) approved. */
export async function captureDemoPayPalOrder(
  db: Database,
  id: string,
  capture: { captureId: string; requestId: string },
): Promise<DemoPayPalOrderRow | undefined> {
  const [row] = await db
    .update(demoPaypalOrders)
    .set({
      status: 'COMPLETED',
      captureId: capture.captureId,
      captureRequestId: capture.requestId,
      updatedAt: new Date(),
    })
    .where(and(eq(demoPaypalOrders.id, id), eq(demoPaypalOrders.status, 'APPROVED')))
    .returning();
  return row;
}

/** Records the refund of a capture not refunded yet; undefined when there is none such. */
export async function refundDemoPayPalCapture(
  db: Database,
  captureId: string,
  refundId: string,
): Promise<DemoPayPalOrderRow | undefined> {
  const [row] = await db
    .update(demoPaypalOrders)
    .set({ refundId, updatedAt: new Date() })
    .where(and(eq(demoPaypalOrders.captureId, captureId), isNull(demoPaypalOrders.refundId)))
    .returning();
  return row;
}

/** The sandbox's webhook signing key: the first process to ask creates it, every process reads that one. */
export async function demoPayPalWebhookKey(db: Database, candidate: Buffer): Promise<Buffer> {
  await db.insert(demoPaypalState).values({ id: 1, webhookKey: candidate }).onConflictDoNothing();
  const [row] = await db
    .select({ webhookKey: demoPaypalState.webhookKey })
    .from(demoPaypalState)
    .where(eq(demoPaypalState.id, 1));
  if (!row) throw new Error('The demo PayPal sandbox has no webhook key.');
  return Buffer.from(row.webhookKey);
}
