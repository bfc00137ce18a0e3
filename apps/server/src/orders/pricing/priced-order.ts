import type { Cents, Sats } from '@offzero/shared/money/money';
import type { GlobalSettingsRow, PaymentMethod, PriceSnapshotRow } from '../../db/schema';
import type { OrderDeps } from '../use-cases/order-deps';

/** What pricing reads: the database, the prices this process serves, the chain's network and the clock. */
export type PricingDeps = Pick<OrderDeps, 'db' | 'prices' | 'network' | 'now' | 'bank'>;

export const PRICE_CHANGED = 'The price has changed. Review the new quote and confirm again.';
export const ENTER_AMOUNT = 'Enter an amount greater than zero.';
/** A sell deposit must arrive within 20 minutes. */
export const DEPOSIT_WINDOW_MS = 1_200_000;

export interface Figures {
  amountSats: Sats;
  valueCents: Cents;
  priceCents: Cents;
  platformFeeCents: Cents;
  networkFeeCents: Cents;
  bankFeeCents: Cents;
}

export interface PricedBuy {
  figures: Figures;
  /** The settings the order was checked and priced with; its trading limits are counted with them too. */
  settings: GlobalSettingsRow;
  snapshot: Pick<PriceSnapshotRow, 'id'>;
  /** The locked quote these figures come from, which the save claims (docs/design.md). */
  quoteId?: string;
  /**
   * The customer's own address, where their bitcoin is paid out; null when the buy names an xpub
   * entry of the address book instead (its address is derived at payout).
   */
  walletAddress: string | null;
  /** The quote lock: the order session timeout of the settings. */
  quoteExpiresAt: Date;
  /** Whether pricing screened `walletAddress` against the sanctions list (the quote path does not). */
  addressScreened: boolean;
}

export interface PricedSell {
  figures: Figures;
  /** The settings the order was checked and priced with; its trading limits are counted with them too. */
  settings: GlobalSettingsRow;
  snapshot: Pick<PriceSnapshotRow, 'id'>;
  /** The locked quote these figures come from, which the save claims (docs/design.md). */
  quoteId?: string;
  paymentMethod: Exclude<PaymentMethod, 'paypal'>;
  receivingDetails: Record<string, string>;
  /** The deposit window. */
  quoteExpiresAt: Date;
}
