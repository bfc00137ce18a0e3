/**
 * The bank with an API (docs/design.md, "Bank provider"): the one interface through which OffZero
 * creates customers' own account numbers, looks routing numbers up, sends and reads transfers of every
 * kind, and hears of money arriving. Production: Increase's REST API (`increase-bank.ts`); demo: the
 * stand-in bank kept in the database (`demo-bank.ts`), which answers the same way and signs its
 * webhooks the same way. The provider is a provider, not a rail: the rails that move money through it
 * (ach, wire, instant) call it; it knows nothing of orders.
 */

/** What a transfer is on the bank's side. ACH carries a direction; the instant networks are RTP and FedNow. */
export type BankTransferKind = 'ach_credit' | 'ach_debit' | 'wire' | 'rtp' | 'fednow';

/** The NACHA Standard Entry Class of an ACH entry: consumer (PPD), corporate (CCD), internet-authorised (WEB). */
export type AchSecCode = 'PPD' | 'CCD' | 'WEB';

/**
 * A transfer's life, in OffZero's words for every network:
 * `pending` (accepted by the bank, not yet on the network), `submitted` (on the network),
 * `settled` (the money arrived), `rejected` (refused before it moved), `returned` (sent back by the
 * receiving bank after it moved, with a return code).
 */
export type BankTransferStatus = 'pending' | 'submitted' | 'settled' | 'rejected' | 'returned';

/** How money came in: ACH, wire, or an instant network (RTP or FedNow). */
export type InboundRail = 'ach' | 'wire' | 'instant';

/** An account number of our bank account, given to one customer so their deposits name them. */
export interface BankAccountNumber {
  /** The bank's id for it (Increase: `account_number_…`). */
  id: string;
  accountNumber: string;
  routingNumber: string;
  /** The name we gave it at the bank. */
  name: string;
  status: 'active' | 'disabled' | 'canceled';
}

/** What the bank knows of a routing number: which networks reach it. */
export interface RoutingNumberInfo {
  routingNumber: string;
  bankName: string;
  ach: boolean;
  wire: boolean;
  rtp: boolean;
  fednow: boolean;
}

/** Where an outbound transfer goes (or, for an ACH debit, whom it pulls from). */
export interface BankCounterparty {
  accountNumber: string;
  routingNumber: string;
  /** The account holder's name, as the receiving bank knows them. */
  name: string;
}

export interface BankTransferRequest {
  kind: BankTransferKind;
  /** US cents, positive. */
  amountCents: bigint;
  /** One key per intended movement of money: the same key again answers the same transfer. */
  idempotencyKey: string;
  counterparty: BankCounterparty;
  /** ACH only; PPD when not given. */
  secCode?: AchSecCode;
  /** What the receiver reads on their statement (ACH descriptor, wire message, remittance text). */
  description: string;
}

/** A transfer as the bank reports it, outbound or inbound. */
export interface BankTransfer {
  /** The bank's id (Increase: `ach_transfer_…`, `inbound_ach_transfer_…`, …). */
  id: string;
  kind: BankTransferKind;
  direction: 'outbound' | 'inbound';
  amountCents: bigint;
  status: BankTransferStatus;
  /** The network's reference (ACH trace number, wire IMAD, RTP/FedNow message id) once known. */
  traceNumber: string | null;
  /** The other side's account (for an inbound transfer: who sent it, as far as the network says). */
  counterparty: BankCounterparty | null;
  /** NACHA return code (`R01`…) or the network's rejection reason, when returned or rejected. */
  returnCode: string | null;
  createdAt: Date;
  settledAt: Date | null;
}

/** Money that arrived on one of our account numbers. */
export interface InboundCredit {
  /** The bank's id of the inbound transfer. */
  transferId: string;
  rail: InboundRail;
  /** The bank's id of the account number it was sent to (`BankAccountNumber.id`). */
  accountNumberId: string;
  amountCents: bigint;
  /** The name the sender's bank put on it. */
  originatorName: string;
  /** The network's reference, unique per payment: the order's `bankTxn` when matched. */
  traceNumber: string;
  receivedAt: Date;
}

/** What a webhook delivery tells, once read back from the bank. */
export type BankEvent =
  | { kind: 'inbound_credit'; eventId: string; credit: InboundCredit }
  | { kind: 'transfer_updated'; eventId: string; transfer: BankTransfer }
  /** An event OffZero does not act on (an account number created…): stored, answered, ignored. */
  | { kind: 'other'; eventId: string; category: string };

/** The bank's answer to a call it refused or could not serve. */
export class BankError extends Error {
  constructor(
    message: string,
    /** The HTTP status the bank answered, when it answered (404: no such object). */
    public readonly status: number | null = null,
    /** The bank's error type (Increase: `invalid_parameters_error`, `idempotency_key_already_used_error`…). */
    public readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'BankError';
  }
}

/** The header Increase signs its webhooks in, and the demo bank alike. */
export const BANK_WEBHOOK_SIGNATURE_HEADER = 'increase-webhook-signature';

export interface BankProvider {
  kind: 'increase' | 'demo';
  /** Creates an account number on our bank account; the same key answers the same number. */
  createAccountNumber(input: { name: string; idempotencyKey: string }): Promise<BankAccountNumber>;
  /** The bank's knowledge of a routing number; null when it does not know it. */
  lookUpRoutingNumber(routingNumber: string): Promise<RoutingNumberInfo | null>;
  /** Sends (or, for `ach_debit`, pulls) money; the same idempotency key answers the same transfer. */
  createTransfer(request: BankTransferRequest): Promise<BankTransfer>;
  /** A transfer read back from the bank (outbound or inbound), by its id; BankError 404 when unknown. */
  getTransfer(id: string): Promise<BankTransfer>;
  /**
   * Sends an inbound transfer back to its sender (an unmatched deposit an operator refuses); the
   * answer is the inbound transfer, now `returned`. Returning one already returned answers it again.
   */
  returnInboundTransfer(id: string, reason: string): Promise<BankTransfer>;
  /**
   * Whether a delivery carries the bank's signature over these exact bytes. `maxAgeSeconds` (default
   * 300) refuses a signature older than that; null skips the age check (re-verifying a stored delivery).
   */
  verifyWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
    options?: { maxAgeSeconds?: number | null; now?: Date },
  ): Promise<boolean>;
  /**
   * Reads a verified delivery: its event id, and what it is about, read back from the bank (an event
   * names an object; the object's truth is the bank's answer, not the delivery's).
   */
  readWebhookEvent(rawBody: Buffer): Promise<BankEvent>;
}
