import type { RailId } from '@offzero/shared/rails/rails';
import type { Cents } from '@offzero/shared/money/money';
import type { BankProvider } from '../bank/bank-provider';
import type { LightningNode } from './lightning/lightning-node';
import type { Database, Transaction } from '../db/database';
import type { GlobalSettingsRow, OrderRow, PayoutRow, UserSettingsRow } from '../db/schema';

/**
 * What one rail does on the server (docs/design.md, "Rails"): each rail lives in one folder under
 * `rails/<rail>/` and exports one `RailHandler`, registered once in `rails/rail-registry.ts`. What
 * customers and operators see of a rail (label, directions, settings group, arrival words) is in the
 * shared registry `@offzero/shared/rails/rails`; this is only its behaviour. A rail folder imports no
 * other rail folder.
 */
export interface RailHandler {
  id: RailId;
  /** The bank charges the rail costs an order under the operator's settings (zero when it has none). */
  chargesCents(settings: GlobalSettingsRow, direction: 'buy' | 'sell'): Cents;
  /** Whether the operator has the rail switched on. */
  isActive(settings: GlobalSettingsRow): boolean;
  /**
   * For a buy paid by the customer: a copy of where they send the money, kept with the order.
   * Throws a 400 AppError with the customer's words when the rail is off.
   */
  receivingDetails?(settings: GlobalSettingsRow): Record<string, string>;
  /**
   * For a sell paid out on this rail: which of the customer's own details it pays into, and the
   * customer's words when one is missing (the product specification's payout-method checks).
   */
  sellPayout?: SellPayoutDetails;
  /** How a payment on this rail is detected ("customer says so", "provider webhook", "chain scan"). */
  detection: PaymentDetection;
  /** The one sender of this rail's payouts, when it pays out (see payouts/). */
  payoutSender?: PayoutSender;
}

export interface SellPayoutDetails {
  /** What the customer reads when their settings lack a detail this rail needs. */
  missingDetailsMessage: string;
  /** A copy of the customer's details to pay into, kept with the order; null when one it needs is missing. */
  details(own: UserSettingsRow): Record<string, string> | null;
  /**
   * Whether the rail reaches those details (the customer's bank on an instant network), and within the
   * operator's limit; the customer's words when not, null when it does.
   */
  refusal?(check: SellPayoutCheck): Promise<string | null>;
}

export interface SellPayoutCheck {
  bank: Pick<BankProvider, 'lookUpRoutingNumber'>;
  settings: GlobalSettingsRow;
  details: Record<string, string>;
  /** What the customer is to receive, when known (a quote asks before it is priced). */
  valueCents?: Cents | undefined;
}

export type PaymentDetection =
  /** The customer says they paid; an operator confirms it ("Mark payment received"). */
  | { kind: 'customer-reports' }
  /** The provider tells the server through a verified webhook, read back by a reconcile job. */
  | { kind: 'provider-webhook'; webhookPath: string }
  /** The server watches the chain for the order's deposit address. */
  | { kind: 'chain-scan' };

/**
 * Sends one payout whose intent (`requested` → `submitted`) the payouts feature has already committed
 * (docs/design.md, "Payouts"). It moves the money or bitcoin once and says what happened; the payouts
 * feature records it. A sender never writes the payout row itself and is never called twice for one row.
 */
export interface PayoutSender {
  /** `manual`: an operator pays outside and records the reference; `automatic`: the server sends. */
  mode: 'manual' | 'automatic';
  send(
    deps: { db: Database | Transaction; bank?: BankProvider; lightning?: LightningNode },
    payout: PayoutRow,
    order: OrderRow,
  ): Promise<PayoutSendResult>;
}

export type PayoutSendResult =
  | {
      outcome: 'settled';
      reference: string;
      txid?: string;
      vout?: number;
      /** A Lightning payment's proof: the preimage of its payment hash, and the routing fee paid. */
      proof?: { preimage: string; feeSats: bigint };
    }
  | { outcome: 'submitted'; reference: string }
  | { outcome: 'failed'; reason: string }
  /** The rail took it and gave it back (a bank refusal or return): the payout ends `returned`. */
  | { outcome: 'returned'; reference: string; reason: string };
