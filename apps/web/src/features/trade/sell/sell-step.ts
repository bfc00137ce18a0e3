import type { Order } from '@offzero/shared/api/orders';
import type { Sats } from '@offzero/shared/money/money';
import type { HeldSellQuote } from '../api/lock-quote';
import type { TileMethod } from '../components/method-tile';
import { depositOf } from './sell-deposit-step';

/** The sell flow's steps: quote → payment_method → confirmation → QRCODE → success. */
export type SellStep =
  | { step: 'quote' }
  | { step: 'tax_details' }
  | { step: 'payment_method' }
  /** `quote` is the server's locked quote; null when the amount typed cannot be sold by this method. */
  | { step: 'confirmation'; method: TileMethod; quote: HeldSellQuote | null }
  | { step: 'QRCODE'; order: Order }
  | { step: 'success'; order: Order; txid: string; amountSats: Sats | null };

/** A pending sell whose deposit window is still open goes straight back to its deposit screen. */
export function sellStartOf(pending: Order | null | undefined): SellStep {
  return pending?.type === 'sell' &&
    pending.status === 'pending' &&
    depositOf(pending) &&
    Date.parse(pending.expiresAt) > Date.now()
    ? { step: 'QRCODE', order: pending }
    : { step: 'quote' };
}
