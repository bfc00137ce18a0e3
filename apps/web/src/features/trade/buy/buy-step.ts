import type { Order } from '@offzero/shared/api/orders';
import { formatUsd } from '@offzero/shared/money/money';
import { centsOf } from '../../../lib/format';
import type { HeldBuyQuote } from '../api/lock-quote';
import type { BuyPayoutTarget } from './buy-confirmation-step';
import { EMPTY_ENTRY, type AmountEntry } from '../utils/quote-fields';

/**
 * The buy flow's steps: quote → confirmation → checkout → success; a new customer's first buy answers
 * the scam question after confirmation, and one someone asked to buy sees the guidance instead.
 */
export type BuyStep =
  | { step: 'quote' }
  | { step: 'confirmation'; quote: HeldBuyQuote }
  | { step: 'scam-question'; quote: HeldBuyQuote; target: BuyPayoutTarget }
  | { step: 'scam-guidance' }
  | { step: 'checkout'; order: Order }
  | { step: 'success'; order: Order };

/** Mid-flow: the tabs stay put while the customer confirms, answers or pays. */
export function isBuyInProgress(state: BuyStep): boolean {
  return state.step === 'confirmation' || state.step === 'checkout' || state.step === 'scam-question';
}

export interface BuyStart {
  state: BuyStep;
  entry: AmountEntry;
  address: string | null;
  orderId: string | null;
}

/**
 * Where a buy starts: at the quote, or for a pending order at checkout while its quote holds, else at
 * the quote with the same amount, to lock a new quote for it.
 */
export function buyStartOf(pending: Order | null | undefined, kept: AmountEntry | undefined): BuyStart {
  if (!pending || pending.type !== 'buy' || pending.status !== 'pending') {
    return { state: { step: 'quote' }, entry: kept ?? EMPTY_ENTRY, address: null, orderId: null };
  }
  const cents = centsOf(pending.value);
  const entry: AmountEntry = { source: 'usd', text: cents === null ? '' : formatUsd(cents) };
  const address = typeof pending.walletAddress === 'string' ? pending.walletAddress : null;
  const state: BuyStep =
    Date.parse(pending.expiresAt) > Date.now() ? { step: 'checkout', order: pending } : { step: 'quote' };
  return { state, entry, address, orderId: pending._id };
}
