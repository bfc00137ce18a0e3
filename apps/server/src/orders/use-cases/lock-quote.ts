import type { CreateQuoteRequest } from '@offzero/shared/api/quotes';
import type { PlaceTerms } from '@offzero/shared/places/places';
import type { QuoteRow, UserRow } from '../../db/schema';
import { checkPlaceForMoneyRoute, placeTerms, recordingShieldRefusals } from '../../places/place-check';
import { priceNewQuote, type PricingDeps } from '../pricing/price-order';
import { insertQuote } from '../quote.repository';

/**
 * Locks a quote for the signed-in customer (docs/design.md): the server's own figures at its current
 * price (orders/pricing/), after the same customer checks as saving an order, kept for the
 * `order_session_timeout` setting. Saving the order against it later carries exactly these figures,
 * whatever the price does meanwhile. A customer of a place closed for this side gets no quote, and the
 * quote carries the place's licence line and disclosures (docs/design.md, "Places and the scam shield").
 */
export async function lockQuote(
  deps: Pick<PricingDeps, 'db' | 'prices' | 'now'>,
  user: UserRow,
  body: CreateQuoteRequest,
): Promise<{ quote: QuoteRow; terms: PlaceTerms | null }> {
  return recordingShieldRefusals(deps.db, user.id, 'quote', async () => {
    const request = { userId: user.id, side: body.type, route: 'quote' } as const;
    // The place first: a closed place is told so before anything about amounts.
    await checkPlaceForMoneyRoute(deps.db, request);
    const priced = await priceNewQuote(deps, user, body);
    const check = await checkPlaceForMoneyRoute(deps.db, { ...request, valueCents: priced.valueCents });
    return { quote: await insertQuote(deps.db, priced), terms: placeTerms(check) };
  });
}
