import type { CreateQuoteRequest } from '@offzero/shared/api/quotes';
import type { PlaceTerms } from '@offzero/shared/places/places';
import type { QuoteRow, UserRow } from '../../db/schema';
import { checkPlaceForMoneyRoute, placeTerms, recordingShieldRefusals } from '../../places/place-check';
import { priceNewQuote, type PricingDeps } from '../pricing/price-order';
import { insertQuote } from '../quote.repository';
import { assertLightningSell } from '../../rails/lightning/use-cases/sell-invoice';
import { routingFeeBudgetSats } from '../../rails/lightning/use-cases/pay-out-by-lightning';
import { findGlobalSettings } from '../../settings/global-settings.repository';
import type { OrderDeps } from './order-deps';

export interface LockedQuoteResult {
  quote: QuoteRow;
  terms: PlaceTerms | null;
  /** A buy's routing-fee budget were it paid out by Lightning; null when it cannot be. */
  lightningFeeBudgetSats: bigint | null;
}

/**
 * What a buy's Lightning payout may spend on routing, shown before paying (docs/design.md,
 * "Lightning"): null unless the rail is on, a node is present and the buy is within `max_payout_sats`.
 */
async function lightningBudget(deps: Pick<OrderDeps, 'db' | 'lightning'>, quote: QuoteRow) {
  if (quote.type !== 'buy' || !deps.lightning) return null;
  const settings = await findGlobalSettings(deps.db);
  if (!settings.lightningActive || quote.amountSats > settings.lightningMaxPayoutSats) return null;
  return routingFeeBudgetSats(quote.amountSats);
}

/**
 * Locks a quote for the signed-in customer (docs/design.md): the server's own figures at its current
 * price (orders/pricing/), after the same customer checks as saving an order, kept for the
 * `order_session_timeout` setting. Saving the order against it later carries exactly these figures,
 * whatever the price does meanwhile. A customer of a place closed for this side gets no quote, and the
 * quote carries the place's licence line and disclosures (docs/design.md, "Places and the scam shield").
 */
export async function lockQuote(
  deps: Pick<PricingDeps, 'db' | 'prices' | 'now' | 'bank'> & Pick<OrderDeps, 'lightning'>,
  user: UserRow,
  body: CreateQuoteRequest,
): Promise<LockedQuoteResult> {
  return recordingShieldRefusals(deps.db, user.id, 'quote', async () => {
    const request = { userId: user.id, side: body.type, route: 'quote' } as const;
    // The place first: a closed place is told so before anything about amounts.
    await checkPlaceForMoneyRoute(deps.db, request);
    const priced = await priceNewQuote(deps, user, body);
    // A sell to be paid by Lightning is refused at the quote already when Lightning cannot take it.
    if (body.type === 'sell' && body.deposit === 'lightning') {
      assertLightningSell(await findGlobalSettings(deps.db), deps.lightning, priced.amountSats);
    }
    const check = await checkPlaceForMoneyRoute(deps.db, { ...request, valueCents: priced.valueCents });
    const quote = await insertQuote(deps.db, priced);
    return { quote, terms: placeTerms(check), lightningFeeBudgetSats: await lightningBudget(deps, quote) };
  });
}
