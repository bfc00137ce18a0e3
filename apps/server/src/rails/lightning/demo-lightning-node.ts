import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { hex } from '@scure/base';
import type { BitcoinNetwork } from '@offzero/shared/bitcoin/address';
import { Bolt11Error, bolt11ExpiresAt, decodeBolt11, encodeBolt11 } from '@offzero/shared/bitcoin/bolt11';
import type { Database } from '../../db/database';
import { demoLightningInvoices, demoLightningPayments } from '../../db/schema';
import type { IncomingPayment, LightningNode, OutgoingPayment } from './lightning-node';
import { verifyPhoenixdWebhook } from './phoenixd-node';

/**
 * The demo's stand-in Lightning nodes (docs/design.md, "Lightning"): `operator` stands in for the
 * operator's phoenixd, `wallet` for a customer's wallet. Both issue real BOLT11 invoices signed with
 * their own fixed demo key, and pay each other's invoices; their state is in the database, so every
 * process sees one demo network. An invoice of no demo node has no route.
 */
export type DemoNodeName = 'operator' | 'wallet';

/** The demo's webhook secret: its notifications are signed like phoenixd's. */
export const DEMO_LIGHTNING_WEBHOOK_SECRET = 'offzero-demo-lightning-webhook';

export function demoNodeKey(node: DemoNodeName): Uint8Array {
  return createHash('sha256').update(`offzero demo lightning node: ${node}`).digest();
}

/** The routing fee the demo network charges: 1 sat plus 0.1%, like a short real route. */
export function demoRoutingFeeSats(amountSats: number): number {
  return 1 + Math.floor(amountSats / 1000);
}

export function createDemoLightningNode(
  db: Database,
  network: BitcoinNetwork,
  node: DemoNodeName,
): LightningNode {
  const key = demoNodeKey(node);
  return {
    kind: 'demo',
    async createInvoice(request) {
      const preimage = randomBytes(32);
      const paymentHash = createHash('sha256').update(preimage).digest('hex');
      const now = Date.now();
      const invoice = encodeBolt11(
        {
          network,
          amountMsat: request.amountSats > 0 ? BigInt(request.amountSats) * 1000n : null,
          timestamp: Math.floor(now / 1000),
          expirySeconds: request.expirySeconds,
          paymentHash,
          paymentSecret: randomBytes(32).toString('hex'),
          description: request.description,
        },
        key,
      );
      await db.insert(demoLightningInvoices).values({
        paymentHash,
        node,
        invoice,
        preimage: hex.encode(preimage),
        amountSats: request.amountSats > 0 ? BigInt(request.amountSats) : null,
        externalId: request.externalId,
        expiresAt: new Date((Math.floor(now / 1000) + request.expirySeconds) * 1000),
      });
      return { invoice, paymentHash };
    },

    payInvoice: (request) => payDemoInvoice(db, node, request.invoice, request.amountSats),

    async incomingPayment(paymentHash) {
      const [row] = await db
        .select()
        .from(demoLightningInvoices)
        .where(and(eq(demoLightningInvoices.paymentHash, paymentHash), eq(demoLightningInvoices.node, node)));
      if (!row) return null;
      const result: IncomingPayment = {
        paymentHash,
        isPaid: row.paidAt !== null,
        receivedSats: Number(row.receivedSats ?? 0n),
        preimage: row.preimage,
        externalId: row.externalId,
        completedAt: row.paidAt,
      };
      return result;
    },

    async outgoingPayment(paymentId) {
      if (!/^[0-9a-f-]{36}$/.test(paymentId)) return null;
      const [row] = await db
        .select()
        .from(demoLightningPayments)
        .where(and(eq(demoLightningPayments.paymentId, paymentId), eq(demoLightningPayments.node, node)));
      return row ? toOutgoing(row) : null;
    },

    async outgoingPaymentByHash(paymentHash) {
      const rows = await db
        .select()
        .from(demoLightningPayments)
        .where(and(eq(demoLightningPayments.paymentHash, paymentHash), eq(demoLightningPayments.node, node)));
      const settled = rows.find((row) => row.status === 'settled');
      const chosen = settled ?? rows.at(-1);
      return chosen ? toOutgoing(chosen) : null;
    },

    verifyWebhook: (rawBody, headers) =>
      verifyPhoenixdWebhook(rawBody, headers, DEMO_LIGHTNING_WEBHOOK_SECRET),
  };
}

function toOutgoing(row: typeof demoLightningPayments.$inferSelect): OutgoingPayment {
  if (row.status === 'settled' && row.preimage) {
    return {
      status: 'settled',
      paymentId: row.paymentId,
      paymentHash: row.paymentHash,
      preimage: row.preimage,
      amountSats: Number(row.amountSats),
      feeSats: Number(row.feeSats),
    };
  }
  return {
    status: 'failed',
    paymentId: row.paymentId,
    paymentHash: row.paymentHash,
    reason: row.reason ?? 'failed',
  };
}

/** Pays one demo invoice once: the payee's invoice is marked paid by one conditional update. */
async function payDemoInvoice(
  db: Database,
  payer: DemoNodeName,
  invoiceText: string,
  amountSats: number | undefined,
): Promise<OutgoingPayment> {
  let decoded;
  try {
    decoded = decodeBolt11(invoiceText);
  } catch (error) {
    return { status: 'failed', paymentId: null, paymentHash: null, reason: (error as Bolt11Error).message };
  }
  const { paymentHash } = decoded;
  const fail = async (reason: string): Promise<OutgoingPayment> => {
    const [row] = await db
      .insert(demoLightningPayments)
      .values({ node: payer, paymentHash, status: 'failed', amountSats: 0n, feeSats: 0n, reason })
      .returning();
    return { status: 'failed', paymentId: row!.paymentId, paymentHash, reason };
  };
  if (bolt11ExpiresAt(decoded) * 1000 <= Date.now()) return fail('The invoice has expired.');
  const amount = decoded.amountMsat !== null ? Number(decoded.amountMsat / 1000n) : amountSats;
  if (amount === undefined || amount <= 0) return fail('The invoice names no amount.');
  return db
    .transaction(async (tx): Promise<OutgoingPayment> => {
      const [payee] = await tx
        .update(demoLightningInvoices)
        .set({ paidAt: new Date(), receivedSats: BigInt(amount) })
        .where(
          and(
            eq(demoLightningInvoices.paymentHash, paymentHash),
            isNull(demoLightningInvoices.paidAt),
            gt(demoLightningInvoices.expiresAt, new Date()),
          ),
        )
        .returning();
      // Paying one's own invoice, or a forged copy of another's, finds no route: the update is rolled back.
      if (payee && (payee.node === payer || payee.invoice !== decoded.invoice)) {
        throw new DemoPaymentRefused('No route to the payee.');
      }
      if (!payee) {
        const [known] = await tx
          .select()
          .from(demoLightningInvoices)
          .where(eq(demoLightningInvoices.paymentHash, paymentHash));
        const reason =
          !known || known.invoice !== decoded.invoice
            ? 'No route to the payee.'
            : known.paidAt
              ? 'The invoice is already paid.'
              : 'The invoice has expired.';
        const [row] = await tx
          .insert(demoLightningPayments)
          .values({ node: payer, paymentHash, status: 'failed', amountSats: 0n, feeSats: 0n, reason })
          .returning();
        return { status: 'failed', paymentId: row!.paymentId, paymentHash, reason };
      }
      const feeSats = demoRoutingFeeSats(amount);
      const [row] = await tx
        .insert(demoLightningPayments)
        .values({
          node: payer,
          paymentHash,
          status: 'settled',
          amountSats: BigInt(amount),
          feeSats: BigInt(feeSats),
          preimage: payee.preimage,
        })
        .returning();
      return {
        status: 'settled',
        paymentId: row!.paymentId,
        paymentHash,
        preimage: payee.preimage,
        amountSats: amount,
        feeSats,
      };
    })
    .catch((error: unknown) => {
      if (error instanceof DemoPaymentRefused) return fail(error.message);
      throw error;
    });
}

class DemoPaymentRefused extends Error {}
