import type { CreateQuoteRequest } from '@offzero/shared/api/quotes';
import type { QuoteRow, UserRow } from '../../db/schema';
import { priceNewQuote, type PricingDeps } from '../pricing/price-order';
import { insertQuote } from '../quote.repository';

/**
 * Locks a quote for the signed-in customer (docs/design.md): the server's own figures at its current
 * price (orders/pricing/), after the same customer checks as saving an order, kept for the
 * `order_session_timeout` setting. Saving the order against it later carries exactly these figures,
 * whatever the price does meanwhile.
 */
export async function lockQuote(
  deps: Pick<PricingDeps, 'db' | 'prices' | 'now' | 'bank'>,
  user: UserRow,
  body: CreateQuoteRequest,
): Promise<QuoteRow> {
  return insertQuote(deps.db, await priceNewQuote(deps, user, body));
}
