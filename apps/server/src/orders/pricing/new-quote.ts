import type { CreateQuoteRequest } from '@offzero/shared/api/quotes';
import { btcNumberToSats, usdNumberToCents, type Cents, type Sats } from '@offzero/shared/money/money';
import {
  midMarketPriceCents,
  quoteBuyFromUsd,
  quoteSellFromBtc,
  sellDeadEndMessage,
  smallestSellSats,
  spreadAgainstMidCents,
} from '@offzero/shared/quotes/quote';
import type { PriceSnapshotRow, UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { findGlobalSettings } from '../../settings/global-settings.repository';
import type { NewQuote } from '../quote.repository';
import { assertCustomerMayTrade, assertMayTrade, assertWithinLimits } from '../use-cases/assert-may-trade';
import { chooseSellPayout } from '../use-cases/choose-sell-payout';
import { parseMoney } from './client-figures';
import { ENTER_AMOUNT, type PricingDeps } from './priced-order';
import { currentPrice } from './served-prices';

export const BUY_TOO_SMALL = 'This amount does not cover the fees. Enter a larger amount.';

/**
 * The figures of a quote to lock for the signed-in customer (docs/design.md): the server's own at its
 * current price, after the same customer checks as saving an order, kept for the
 * `order_session_timeout` setting.
 */
export async function priceNewQuote(
  deps: Pick<PricingDeps, 'db' | 'prices' | 'now' | 'bank'>,
  user: UserRow,
  body: CreateQuoteRequest,
): Promise<NewQuote> {
  const settings = await findGlobalSettings(deps.db);
  const expiresAt = new Date(deps.now().getTime() + settings.orderSessionTimeoutSeconds * 1000);

  if (body.type === 'buy') {
    const valueCents = parseMoney(() => usdNumberToCents(body.value));
    if (valueCents <= 0n) throw new AppError('BAD_REQUEST', ENTER_AMOUNT);
    await assertMayTrade(deps.db, user, settings, valueCents, 'buy');
    const snapshot = currentPrice(deps);
    const quote = quoteBuyFromUsd({
      valueCents,
      sellPriceCents: snapshot.sellPriceCents,
      feeBps: settings.platformFeeBps,
      networkFeeSats: snapshot.networkFeeSats,
    });
    if (!quote) throw new AppError('BAD_REQUEST', BUY_TOO_SMALL);
    return {
      userId: user.id,
      type: 'buy',
      amountSats: quote.amountSats,
      valueCents: quote.valueCents,
      priceCents: quote.priceCents,
      platformFeeCents: quote.platformFeeCents,
      networkFeeCents: quote.networkFeeCents,
      bankFeeCents: 0n,
      ...market(snapshot, quote.amountSats),
      paymentMethod: null,
      priceSnapshotId: snapshot.id,
      expiresAt,
    };
  }

  const amountSats = parseMoney(() => btcNumberToSats(body.amount));
  if (amountSats <= 0n) throw new AppError('BAD_REQUEST', ENTER_AMOUNT);
  await assertCustomerMayTrade(deps.db, user, 'sell');
  const snapshot = currentPrice(deps);
  const payout = await chooseSellPayout(deps, user, settings, body.method);
  const pricing = {
    buyPriceCents: snapshot.buyPriceCents,
    feeBps: settings.platformFeeBps,
    bankChargesCents: payout.bankChargesCents,
  };
  const quote = quoteSellFromBtc({ ...pricing, amountSats });
  if (!quote) {
    // Nothing would be left to receive: name the smallest amount that works for this method.
    const smallest = smallestSellSats({ ...pricing, minOrderCents: settings.minOrderCents });
    if (smallest === null) throw new AppError('BAD_REQUEST', 'Selling is not possible at the current fee.');
    throw new AppError('BAD_REQUEST', sellDeadEndMessage(payout.method, smallest));
  }
  assertWithinLimits(settings, quote.valueCents);
  return {
    userId: user.id,
    type: 'sell',
    amountSats: quote.amountSats,
    valueCents: quote.valueCents,
    priceCents: quote.priceCents,
    platformFeeCents: quote.platformFeeCents,
    networkFeeCents: 0n,
    bankFeeCents: quote.bankFeeCents,
    ...market(snapshot, quote.amountSats),
    paymentMethod: payout.method,
    priceSnapshotId: snapshot.id,
    expiresAt,
  };
}

/** The mid-market price and the spread against it on this amount: the all-in price the customer sees. */
function market(snapshot: PriceSnapshotRow, amountSats: Sats): { midPriceCents: Cents; spreadCents: Cents } {
  return {
    midPriceCents: midMarketPriceCents(snapshot.sellPriceCents, snapshot.buyPriceCents),
    spreadCents: spreadAgainstMidCents({
      amountSats,
      sellPriceCents: snapshot.sellPriceCents,
      buyPriceCents: snapshot.buyPriceCents,
    }),
  };
}
