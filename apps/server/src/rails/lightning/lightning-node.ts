/**
 * A Lightning node the operator runs (docs/design.md, "Lightning"): it issues the invoices sells are
 * paid by and pays the invoices buys are paid out to. Production: phoenixd's HTTP API; demo: a stand-in
 * node kept in the database. Amounts are whole satoshis.
 */
export interface LightningNode {
  kind: 'phoenixd' | 'demo';
  /** A BOLT11 invoice for exactly `amountSats`, payable until `expirySeconds` from now. */
  createInvoice(request: CreateInvoiceRequest): Promise<CreatedInvoice>;
  /**
   * Pays a BOLT11 invoice once and waits for the outcome. `amountSats` is given only for an invoice that
   * names no amount. A payment the node could not finish either way comes back `pending`.
   */
  payInvoice(request: PayInvoiceRequest): Promise<OutgoingPayment>;
  /** An invoice this node issued, paid or not; null when the node does not know the hash. */
  incomingPayment(paymentHash: string): Promise<IncomingPayment | null>;
  /** A payment this node sent, by the id it gave it; null when unknown. */
  outgoingPayment(paymentId: string): Promise<OutgoingPayment | null>;
  /** A payment this node sent, by the invoice's payment hash (after a crash the id may be unknown). */
  outgoingPaymentByHash(paymentHash: string): Promise<OutgoingPayment | null>;
  /** Reads a payment notification the node posted, refusing one whose signature does not match. */
  verifyWebhook(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): PaymentReceivedEvent;
}

export interface CreateInvoiceRequest {
  amountSats: number;
  description: string;
  expirySeconds: number;
  /** Our reference for the invoice (the order id). */
  externalId: string;
}

export interface CreatedInvoice {
  invoice: string;
  paymentHash: string;
}

export interface PayInvoiceRequest {
  invoice: string;
  amountSats?: number;
}

export type OutgoingPayment =
  | {
      status: 'settled';
      paymentId: string;
      paymentHash: string;
      preimage: string;
      amountSats: number;
      feeSats: number;
    }
  | { status: 'failed'; paymentId: string | null; paymentHash: string | null; reason: string }
  | { status: 'pending'; paymentId: string | null; paymentHash: string | null };

export interface IncomingPayment {
  paymentHash: string;
  isPaid: boolean;
  receivedSats: number;
  preimage: string | null;
  externalId: string | null;
  completedAt: Date | null;
}

export interface PaymentReceivedEvent {
  type: 'payment_received';
  paymentHash: string;
  amountSats: number;
  externalId: string | null;
}

/** A notification whose signature does not match, or a body that is not one. */
export class LightningWebhookError extends Error {}

/** The node answered in a way we cannot use (down, refused our password, unreadable reply). */
export class LightningNodeError extends Error {}
