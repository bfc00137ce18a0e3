import type { CreateQuoteRequest } from '@offzero/shared/api/quotes';
import type { QuoteRow, UserRow } from '../../db/schema';
import { priceNewQuote, type PricingDeps } from '../pricing/price-order';
import { insertQuote } from '../quote.repository';
import { assertLightningSell } from '../../rails/lightning/use-cases/sell-invoice';
import { findGlobalSettings } from '../../settings/global-settings.repository';
import type { OrderDeps } from './order-deps';

/**
 * Locks a quote for the signed-in customer (docs/design.md): the server's own figures at its current
 * price (orders/pricing/), after the same customer checks as saving an order, kept for the
 * `order_session_timeout` setting. Saving the order against it later carries exactly these figures,
 * whatever the price does meanwhile.
 */
export async function lockQuote(
  deps: Pick<PricingDeps, 'db' | 'prices' | 'now'> & Pick<OrderDeps, 'lightning'>,
  user: UserRow,
  body: CreateQuoteRequest,
): Promise<QuoteRow> {
  const quote = await priceNewQuote(deps, user, body);
  // A sell to be paid by Lightning is refused at the quote already when Lightning cannot take it.
  if (body.type === 'sell' && body.deposit === 'lightning') {
    assertLightningSell(await findGlobalSettings(deps.db), deps.lightning, quote.amountSats);
  }
  return insertQuote(deps.db, quote);
}
