import type { LockedQuote } from '@offzero/shared/api/quotes';
import { centsToUsdNumber, satsToBtcNumber } from '@offzero/shared/money/money';
import type { PlaceTerms } from '@offzero/shared/places/places';
import type { QuoteRow } from '../db/schema';

/** A locked quote as `POST /api/quotes` answers it (docs/design.md): a buy's network fee or a sell's bank fee. */
export function toQuoteResponse(
  quote: QuoteRow,
  terms: PlaceTerms | null = null,
  lightningFeeBudgetSats: bigint | null = null,
): LockedQuote {
  const common = {
    id: quote.id,
    type: quote.type,
    price: centsToUsdNumber(quote.priceCents),
    amount: satsToBtcNumber(quote.amountSats),
    value: centsToUsdNumber(quote.valueCents),
    platformFee: centsToUsdNumber(quote.platformFeeCents),
    midMarketPrice: centsToUsdNumber(quote.midPriceCents),
    spread: centsToUsdNumber(quote.spreadCents),
    expiresAt: quote.expiresAt.toISOString(),
    // The customer's place: its licence line and disclosures (docs/design.md, "Places and the scam shield").
    ...(terms ? { place: terms } : {}),
  };
  if (quote.type === 'buy') {
    return {
      ...common,
      networkFee: centsToUsdNumber(quote.networkFeeCents),
      // Shown beside a Lightning destination before paying (docs/design.md, "Lightning").
      ...(lightningFeeBudgetSats !== null ? { lightningFeeBudgetSats: Number(lightningFeeBudgetSats) } : {}),
    };
  }
  return {
    ...common,
    bankFee: centsToUsdNumber(quote.bankFeeCents),
    ...(quote.paymentMethod && quote.paymentMethod !== 'paypal' ? { method: quote.paymentMethod } : {}),
  };
}
