import { useMutation } from '@tanstack/react-query';
import { quoteResponseSchema, type CreateQuoteRequest, type LockedQuote } from '@offzero/shared/api/quotes';
import { btcNumberToSats, usdNumberToCents, type Cents, type Sats } from '@offzero/shared/money/money';
import type { BuyQuote, SellQuote } from '@offzero/shared/quotes/quote';
import type { SellPayoutRail } from '@offzero/shared/rails/rails';
import { apiPost } from '../../../lib/api-client';

/**
 * `POST /api/quotes` (docs/design.md): the server locks a quote's figures until its expiry. The
 * confirmation step shows exactly these, and Pay or Send saves the order with the quote's id, so the
 * figures on screen are the figures of the order.
 */

interface HeldCommon {
  id: string;
  /** When the lock ends (epoch milliseconds): the confirmation's countdown. */
  expiresAtMs: number;
  /** The mid-market price and what the rate costs against it on this amount: the all-in price. */
  midPriceCents: Cents;
  spreadCents: Cents;
  /** The licence line and disclosures of the customer's place (docs/design.md, "Places and the scam shield"). */
  place?: { licence: string; disclosures: string } | undefined;
}

export type HeldBuyQuote = BuyQuote &
  HeldCommon & {
    type: 'buy';
    /** What a Lightning payout of this buy may spend on routing; absent when Lightning cannot pay it. */
    lightningFeeBudgetSats?: Sats;
  };
export type HeldSellQuote = SellQuote & HeldCommon & { type: 'sell'; method: SellPayoutRail };
export type HeldQuote = HeldBuyQuote | HeldSellQuote;

/** The server's quote as integers, once, at the edge. */
export function toHeldQuote(quote: LockedQuote): HeldQuote {
  const common = {
    id: quote.id,
    expiresAtMs: Date.parse(quote.expiresAt),
    midPriceCents: usdNumberToCents(quote.midMarketPrice),
    spreadCents: usdNumberToCents(quote.spread),
    ...(quote.place ? { place: { licence: quote.place.licence, disclosures: quote.place.disclosures } } : {}),
    amountSats: btcNumberToSats(quote.amount),
    valueCents: usdNumberToCents(quote.value),
    priceCents: usdNumberToCents(quote.price),
    platformFeeCents: usdNumberToCents(quote.platformFee),
  };
  if (quote.type === 'buy') {
    return {
      ...common,
      type: 'buy',
      networkFeeCents: usdNumberToCents(quote.networkFee ?? 0),
      ...(quote.lightningFeeBudgetSats !== undefined
        ? { lightningFeeBudgetSats: BigInt(quote.lightningFeeBudgetSats) }
        : {}),
    };
  }
  const bankFeeCents = usdNumberToCents(quote.bankFee ?? 0);
  return {
    ...common,
    type: 'sell',
    method: quote.method ?? 'zelle',
    bankFeeCents,
    grossCents: common.valueCents + common.platformFeeCents + bankFeeCents,
  };
}

export async function lockQuote(body: CreateQuoteRequest, idempotencyKey?: string): Promise<HeldQuote> {
  const answer = await apiPost('/quotes', body, { schema: quoteResponseSchema, idempotencyKey });
  return toHeldQuote(answer.quote);
}

export function useLockQuote() {
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: CreateQuoteRequest; idempotencyKey?: string }) =>
      lockQuote(body, idempotencyKey),
  });
}
