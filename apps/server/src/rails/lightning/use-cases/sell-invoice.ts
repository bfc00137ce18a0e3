import { randomUUID } from 'node:crypto';
import type { orders, GlobalSettingsRow } from '../../../db/schema';
import { AppError } from '../../../http/errors';
import { LIGHTNING_MESSAGES } from '../lightning-messages';
import { LightningNodeError, type LightningNode } from '../lightning-node';

/** The shortest life an invoice gets, so a quote about to lapse still shows a payable one. */
const MIN_INVOICE_SECONDS = 60;

/**
 * A sell may take a Lightning deposit when the rail is on, a node is there, and the order is within
 * `lightning.max_order_sats` (docs/design.md, "Lightning"); else a 400 the customer can act on.
 */
export function assertLightningSell(
  settings: GlobalSettingsRow,
  node: LightningNode | null,
  amountSats: bigint,
): LightningNode {
  if (!settings.lightningActive || !node) throw new AppError('BAD_REQUEST', LIGHTNING_MESSAGES.off);
  if (amountSats > settings.lightningMaxOrderSats) {
    throw new AppError('BAD_REQUEST', LIGHTNING_MESSAGES.overOrderCap(settings.lightningMaxOrderSats));
  }
  return node;
}

/** The invoice's description, which the customer's wallet shows. */
export function sellInvoiceDescription(orderId: string): string {
  return `OffZero order #${orderId.slice(0, 8)}`;
}

/** The order columns that carry a sell's invoice. */
export type SellInvoiceColumns = Pick<
  typeof orders.$inferInsert,
  'id' | 'lightningInvoice' | 'lightningPaymentHash' | 'lightningExpiresAt'
>;

/**
 * Asks the node for a sell's invoice, for exactly its satoshis and expiring with its quote, before
 * the order is written (under a new id the order then takes): a node that does not answer fails the
 * save with nothing written. An invoice whose save then finds a double-clicked twin is never shown and
 * lapses unpaid.
 */
export async function createSellInvoice(
  node: LightningNode,
  sell: { amountSats: bigint; quoteExpiresAt: Date },
  now: Date,
): Promise<SellInvoiceColumns> {
  const id = randomUUID();
  const expirySeconds = Math.max(
    MIN_INVOICE_SECONDS,
    Math.ceil((sell.quoteExpiresAt.getTime() - now.getTime()) / 1000),
  );
  let created;
  try {
    created = await node.createInvoice({
      amountSats: Number(sell.amountSats),
      description: sellInvoiceDescription(id),
      expirySeconds,
      externalId: id,
    });
  } catch (error) {
    if (error instanceof LightningNodeError) throw new AppError('UNAVAILABLE', LIGHTNING_MESSAGES.nodeDown);
    throw error;
  }
  return {
    id,
    lightningInvoice: created.invoice,
    lightningPaymentHash: created.paymentHash,
    lightningExpiresAt: new Date(now.getTime() + expirySeconds * 1000),
  };
}
