import type { CreateQuoteRequest, LockedQuote } from '@offzero/shared/api/quotes';
import { hasSettings } from '@offzero/shared/rails/rails';
import {
  btcNumberToSats,
  centsToUsdNumber,
  satsToBtcNumber,
  usdNumberToCents,
} from '@offzero/shared/money/money';
import {
  midMarketPriceCents,
  quoteBuyFromUsd,
  quoteSellFromBtc,
  spreadAgainstMidCents,
} from '@offzero/shared/quotes/quote';

/**
 * What `POST /api/quotes` answers for a request, computed with the shared maths from the price and the
 * settings the test serves: the web tests' stand-in for the server's locked quote.
 */
export function lockedQuoteAnswer(
  body: CreateQuoteRequest,
  price: { sellPrice: number; buyPrice: number; networkFee: number },
  settings: {
    order: { platform_fees: number; order_session_timeout: number };
    zelle: object;
    instant?: object;
    ach: object;
    wire: object;
  },
  id = 'quote-1',
): { quote: LockedQuote } {
  const sellPriceCents = usdNumberToCents(price.sellPrice);
  const buyPriceCents = usdNumberToCents(price.buyPrice);
  const feeBps = Math.round(settings.order.platform_fees * 100);
  const expiresAt = new Date(Date.now() + settings.order.order_session_timeout * 1000).toISOString();
  const market = (amountSats: bigint) => ({
    midMarketPrice: centsToUsdNumber(midMarketPriceCents(sellPriceCents, buyPriceCents)),
    spread: centsToUsdNumber(spreadAgainstMidCents({ amountSats, sellPriceCents, buyPriceCents })),
  });
  if (body.type === 'buy') {
    const quote = quoteBuyFromUsd({
      valueCents: usdNumberToCents(body.value),
      sellPriceCents,
      feeBps,
      networkFeeSats: btcNumberToSats(price.networkFee),
    });
    if (!quote) throw new Error('no buy quote for this amount');
    return {
      quote: {
        id,
        type: 'buy',
        price: centsToUsdNumber(quote.priceCents),
        amount: satsToBtcNumber(quote.amountSats),
        value: centsToUsdNumber(quote.valueCents),
        platformFee: centsToUsdNumber(quote.platformFeeCents),
        networkFee: centsToUsdNumber(quote.networkFeeCents),
        ...market(quote.amountSats),
        expiresAt,
      },
    };
  }
  // A rail without a settings group charges nothing.
  const group: { bank_charges?: number } = (hasSettings(body.method) ? settings[body.method] : {}) ?? {};
  const quote = quoteSellFromBtc({
    amountSats: btcNumberToSats(body.amount),
    buyPriceCents,
    feeBps,
    bankChargesCents: usdNumberToCents(group.bank_charges ?? 0),
  });
  if (!quote) throw new Error('no sell quote for this amount');
  return {
    quote: {
      id,
      type: 'sell',
      method: body.method,
      price: centsToUsdNumber(quote.priceCents),
      amount: satsToBtcNumber(quote.amountSats),
      value: centsToUsdNumber(quote.valueCents),
      platformFee: centsToUsdNumber(quote.platformFeeCents),
      bankFee: centsToUsdNumber(quote.bankFeeCents),
      ...market(quote.amountSats),
      expiresAt,
    },
  };
}
