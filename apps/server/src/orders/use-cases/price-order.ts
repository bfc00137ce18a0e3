import { BUY_CHECK_MESSAGES, type SaveOrderRequest } from '@offzero/shared/api/orders';
import { isValidBitcoinAddress } from '@offzero/shared/bitcoin/address';
import {
  btcNumberToSats,
  MoneyParseError,
  usdNumberToCents,
  type Cents,
  type Sats,
} from '@offzero/shared/money/money';
import { quoteBuyFromUsd, quoteSellFromBtc, quotesMatch } from '@offzero/shared/quotes/quote';
import type { GlobalSettingsRow, PaymentMethod, PriceSnapshotRow, UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { PRICES_UNAVAILABLE } from '../../prices/price-book';
import { findServedSnapshotsAt } from '../../prices/price-snapshot.repository';
import { findGlobalSettings } from '../../settings/global-settings.repository';
import { assertMayTrade, assertWithinLimits } from './assert-may-trade';
import { chooseSellPayout } from './choose-sell-payout';
import type { OrderDeps } from './order-deps';

/**
 * The server's own figures for an order the client proposes (DESIGN.md section 2): the buy and sell
 * maths of packages/shared recomputed from a price the server really served, after the customer
 * checks. The client's figures only have to agree within 1 cent and 100 satoshis; the server's are kept.
 */

/** How long after a price was served the server still honours a quote made from it (DESIGN.md). */
export const QUOTE_PRICE_GRACE_MS = 2 * 60_000;
export const PRICE_CHANGED = 'The price has changed. Review the new quote and confirm again.';
/** A sell deposit must arrive within 20 minutes (spec section 9). */
export const DEPOSIT_WINDOW_MS = 1_200_000;

export interface Figures {
  amountSats: Sats;
  valueCents: Cents;
  priceCents: Cents;
  platformFeeCents: Cents;
  networkFeeCents: Cents;
  bankFeeCents: Cents;
}

export interface PricedBuy {
  figures: Figures;
  snapshot: PriceSnapshotRow;
  /** The customer's own address, where their bitcoin is paid out. */
  walletAddress: string;
  /** The quote lock: the order session timeout of the settings. */
  quoteExpiresAt: Date;
}

export interface PricedSell {
  figures: Figures;
  snapshot: PriceSnapshotRow;
  paymentMethod: Exclude<PaymentMethod, 'paypal'>;
  receivingDetails: Record<string, string>;
  /** The deposit window. */
  quoteExpiresAt: Date;
}

type PricingDeps = Pick<OrderDeps, 'db' | 'prices' | 'network' | 'now'>;

/** A buy: the customer's USD at a served sell price, less the platform fee and one payout's network fee. */
export async function priceBuyOrder(
  deps: PricingDeps,
  user: UserRow,
  body: SaveOrderRequest,
): Promise<PricedBuy> {
  const { settings, client } = await checkCustomer(deps, user, body);
  const walletAddress = body.walletAddress?.trim() ?? '';
  if (!isValidBitcoinAddress(walletAddress, deps.network)) {
    throw new AppError('BAD_REQUEST', BUY_CHECK_MESSAGES.invalidAddress);
  }
  for (const snapshot of await servedPricesAt(deps, 'sell', client.priceCents)) {
    const quote = quoteBuyFromUsd({
      valueCents: client.valueCents,
      sellPriceCents: snapshot.sellPriceCents,
      feeBps: settings.platformFeeBps,
      networkFeeSats: snapshot.networkFeeSats,
    });
    if (
      quote &&
      quotesMatch(quote, {
        ...quote,
        amountSats: client.amountSats,
        platformFeeCents: client.platformFeeCents,
        networkFeeCents: client.networkFeeCents,
      })
    ) {
      const { amountSats, valueCents, priceCents, platformFeeCents, networkFeeCents } = quote;
      return {
        snapshot,
        figures: { amountSats, valueCents, priceCents, platformFeeCents, networkFeeCents, bankFeeCents: 0n },
        walletAddress,
        quoteExpiresAt: new Date(deps.now().getTime() + settings.orderSessionTimeoutSeconds * 1000),
      };
    }
  }
  throw new AppError('PRICE_CHANGED', PRICE_CHANGED);
}

/** A sell: the customer's BTC at a served buy price, less the platform fee and the method's bank charges. */
export async function priceSellOrder(
  deps: PricingDeps,
  user: UserRow,
  body: SaveOrderRequest,
): Promise<PricedSell> {
  const { settings, client } = await checkCustomer(deps, user, body);
  const payout = await chooseSellPayout(deps.db, user, settings, body.bankAccount?.method);
  for (const snapshot of await servedPricesAt(deps, 'buy', client.priceCents)) {
    const quote = quoteSellFromBtc({
      amountSats: client.amountSats,
      buyPriceCents: snapshot.buyPriceCents,
      feeBps: settings.platformFeeBps,
      bankChargesCents: payout.bankChargesCents,
    });
    if (
      quote &&
      quotesMatch(quote, {
        ...quote,
        valueCents: client.valueCents,
        platformFeeCents: client.platformFeeCents,
        bankFeeCents: client.bankFeeCents,
      })
    ) {
      const { amountSats, valueCents, priceCents, platformFeeCents, bankFeeCents } = quote;
      // The client's value may be a cent off the server's; the limits hold for what would be paid.
      assertWithinLimits(settings, valueCents);
      return {
        snapshot,
        figures: { amountSats, valueCents, priceCents, platformFeeCents, networkFeeCents: 0n, bankFeeCents },
        paymentMethod: payout.method,
        receivingDetails: payout.details,
        quoteExpiresAt: new Date(deps.now().getTime() + DEPOSIT_WINDOW_MS),
      };
    }
  }
  throw new AppError('PRICE_CHANGED', PRICE_CHANGED);
}

/** The settings, the client's figures as integers, and the customer checks, before any maths. */
async function checkCustomer(
  deps: PricingDeps,
  user: UserRow,
  body: SaveOrderRequest,
): Promise<{ settings: GlobalSettingsRow; client: Figures }> {
  const settings = await findGlobalSettings(deps.db);
  const client = parseClientFigures(body);
  await assertMayTrade(deps.db, user, settings, client.valueCents, body.type);
  return { settings, client };
}

function parseClientFigures(body: SaveOrderRequest): Figures {
  try {
    const figures = {
      amountSats: btcNumberToSats(body.amount),
      valueCents: usdNumberToCents(body.value),
      priceCents: usdNumberToCents(body.price),
      platformFeeCents: usdNumberToCents(body.platformFee),
      networkFeeCents: body.type === 'buy' ? usdNumberToCents(body.networkFee ?? 0) : 0n,
      bankFeeCents: body.type === 'sell' ? usdNumberToCents(body.bankFee ?? 0) : 0n,
    };
    if (figures.amountSats <= 0n || figures.valueCents <= 0n || figures.priceCents <= 0n) {
      throw new AppError('BAD_REQUEST', 'Enter an amount greater than zero.');
    }
    return figures;
  } catch (error) {
    if (error instanceof MoneyParseError) throw new AppError('BAD_REQUEST', error.message);
    throw error;
  }
}

/**
 * The prices the customer may have been quoted: those the server served in the last two minutes at
 * exactly the rate the client sent (the sell rate for a buy, the buy rate for a sell), newest first.
 * Refuses to quote at all while prices are stale.
 */
async function servedPricesAt(
  deps: PricingDeps,
  side: 'sell' | 'buy',
  priceCents: Cents,
): Promise<PriceSnapshotRow[]> {
  if (deps.prices.isStale() || !deps.prices.current()) throw new AppError('UNAVAILABLE', PRICES_UNAVAILABLE);
  const since = new Date(deps.now().getTime() - QUOTE_PRICE_GRACE_MS);
  return findServedSnapshotsAt(deps.db, side, priceCents, since);
}
