import type { LimitTier } from '@offzero/shared/api/limits';
import { BUY_CHECK_MESSAGES, type SaveOrderRequest } from '@offzero/shared/api/orders';
import { bitcoinAddressProblem } from '@offzero/shared/bitcoin/address';
import { addressRefusal } from '@offzero/shared/bitcoin/address-field';
import {
  quoteBuyFromUsd,
  quoteSellFromBtc,
  quotesMatch,
  sellDeadEndMessage,
  smallestSellSats,
} from '@offzero/shared/quotes/quote';
import type { Transaction } from '../../db/database';
import type { GlobalSettingsRow, UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { activeSellPayoutRail } from '../../rails/rail-registry';
import { readGlobalSettings } from '../../settings/global-settings-cache';
import { sanctionedAddressRefusal } from '../../compliance/sanctions/sanctions-screening';
import { findBuyerVerdicts, type BuyerVerdicts } from '../customer.repository';
import { lockBuyerForSave, lockCustomerForSave } from '../order.repository';
import { assertCustomerMayTrade, assertMayTrade, assertWithinLimits } from '../use-cases/assert-may-trade';
import { assertW9OnFile } from '../use-cases/assert-w9-on-file';
import { chooseSellPayout } from '../use-cases/choose-sell-payout';
import { buyWalletAddress, parseClientFigures } from './client-figures';
import { priceBuyFromQuote, priceSellFromQuote } from './locked-quote';
import {
  DEPOSIT_WINDOW_MS,
  ENTER_AMOUNT,
  PRICE_CHANGED,
  type Figures,
  type PricedBuy,
  type PricedSell,
  type PricingDeps,
} from './priced-order';
import { firstServedPriceAt, servedPricesAt } from './served-prices';

/**
 * Pricing an order, in one place (docs/design.md, "Orders: money, quotes and states"): the server's
 * own figures for an order the client proposes, the buy and sell maths of packages/shared recomputed
 * from a price the server really served, or the figures of the customer's locked quote, after the
 * customer checks. The client's figures only have to agree within 1 cent and 100 satoshis; the
 * server's are kept. Everything outside this folder prices through this file.
 */

export { claimOrderQuote } from './locked-quote';
export { BUY_TOO_SMALL, priceNewQuote } from './new-quote';
export { priceDeposits, type DepositPricingInput } from './price-deposits';
export {
  DEPOSIT_WINDOW_MS,
  ENTER_AMOUNT,
  PRICE_CHANGED,
  type Figures,
  type PricedBuy,
  type PricedSell,
  type PricingDeps,
} from './priced-order';
export { QUOTE_PRICE_GRACE_MS } from './served-prices';

/**
 * What pricing settles before the customer's save lock. A sell, and a buy against a locked quote, are
 * priced in full. A buy priced by the server only has its figures checked for form and the settings
 * read: it is priced under the lock, in the statement that takes it (lockPricedOrder).
 */
export type BuyPricing = { side: 'buy'; quoted: PricedBuy } | { side: 'buy'; settings: GlobalSettingsRow };
export interface SellPricing {
  side: 'sell';
  priced: PricedSell;
}

/** Prices an order being saved (or a buy re-quoted), against its locked quote (`quoteId`) or not. */
export async function priceOrder(
  deps: PricingDeps,
  side: 'buy',
  user: UserRow,
  body: SaveOrderRequest,
): Promise<BuyPricing>;
export async function priceOrder(
  deps: PricingDeps,
  side: 'sell',
  user: UserRow,
  body: SaveOrderRequest,
): Promise<SellPricing>;
export async function priceOrder(
  deps: PricingDeps,
  side: 'buy' | 'sell',
  user: UserRow,
  body: SaveOrderRequest,
): Promise<BuyPricing | SellPricing> {
  const { quoteId } = body;
  if (side === 'sell') {
    // Against a locked quote its figures hold; otherwise the server re-prices from a price it served.
    const priced = quoteId
      ? await priceSellFromQuote(deps, user, { ...body, quoteId })
      : await priceSellOrder(deps, user, body);
    return { side, priced };
  }
  if (quoteId) return { side, quoted: await priceBuyFromQuote(deps, user, { ...body, quoteId }) };
  parseClientFigures(body);
  return { side, settings: await readGlobalSettings(deps.db) };
}

/**
 * Takes the customer's save lock and finishes the pricing under it. A buy the server prices takes the
 * lock in the same statement as the reads the buyer's checks need (their KYC verdict, the address's
 * screening).
 */
export async function lockPricedOrder(
  deps: PricingDeps,
  tx: Transaction,
  user: UserRow,
  body: SaveOrderRequest,
  pricing: BuyPricing,
): Promise<{ tier: LimitTier; priced: PricedBuy }>;
export async function lockPricedOrder(
  deps: PricingDeps,
  tx: Transaction,
  user: UserRow,
  body: SaveOrderRequest,
  pricing: SellPricing,
): Promise<{ tier: LimitTier; priced: PricedSell }>;
export async function lockPricedOrder(
  deps: PricingDeps,
  tx: Transaction,
  user: UserRow,
  body: SaveOrderRequest,
  pricing: BuyPricing | SellPricing,
): Promise<{ tier: LimitTier; priced: PricedBuy | PricedSell }> {
  if (pricing.side === 'sell')
    return { tier: await lockCustomerForSave(tx, user.id), priced: pricing.priced };
  if ('quoted' in pricing) return { tier: await lockCustomerForSave(tx, user.id), priced: pricing.quoted };
  const { tier, verdicts } = await lockBuyerForSave(tx, user.id, buyWalletAddress(body));
  const priced = await priceBuyOrder({ ...deps, db: tx }, user, body, {
    settings: pricing.settings,
    verdicts,
  });
  return { tier, priced };
}

/** A buy: the customer's USD at a served sell price, less the platform fee and one payout's network fee. */
async function priceBuyOrder(
  deps: PricingDeps,
  user: UserRow,
  body: SaveOrderRequest,
  /** What the caller has read already: the settings, and the verdicts it read with the save's lock. */
  known?: { settings: GlobalSettingsRow; verdicts: BuyerVerdicts },
): Promise<PricedBuy> {
  const walletAddress = buyWalletAddress(body);
  const { settings, client, verdicts } = await checkBuyer(deps, user, body, walletAddress, known);
  const addressProblem = walletAddress === null ? null : bitcoinAddressProblem(walletAddress, deps.network);
  if (addressProblem !== null) {
    throw new AppError('BAD_REQUEST', addressRefusal(BUY_CHECK_MESSAGES.invalidAddress, addressProblem), {
      walletAddress: addressProblem,
    });
  }
  // docs/design.md: a sanctioned payout address is refused at save (and screened again before payout).
  if (walletAddress !== null && verdicts.addressListed) throw sanctionedAddressRefusal('walletAddress');
  for await (const snapshot of servedPricesAt(deps, 'sell', client.priceCents)) {
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
        settings,
        figures: { amountSats, valueCents, priceCents, platformFeeCents, networkFeeCents, bankFeeCents: 0n },
        walletAddress,
        addressScreened: walletAddress !== null,
        quoteExpiresAt: new Date(deps.now().getTime() + settings.orderSessionTimeoutSeconds * 1000),
      };
    }
  }
  throw new AppError('PRICE_CHANGED', PRICE_CHANGED);
}

/** A sell: the customer's BTC at a served buy price, less the platform fee and the method's bank charges. */
async function priceSellOrder(deps: PricingDeps, user: UserRow, body: SaveOrderRequest): Promise<PricedSell> {
  const settings = await readGlobalSettings(deps.db);
  const client = parseClientFigures(body);
  await assertCustomerMayTrade(deps.db, user, 'sell');
  await assertW9OnFile(deps.db, user);
  // Before the limits: a sell that would leave nothing is told the amount that works, not "$0".
  await assertSellLeavesSomething(deps, settings, client, body.bankAccount?.method);
  if (client.valueCents <= 0n) throw new AppError('BAD_REQUEST', ENTER_AMOUNT);
  assertWithinLimits(settings, client.valueCents);
  const payout = await chooseSellPayout(deps, user, settings, body.bankAccount?.method, client.valueCents);
  for await (const snapshot of servedPricesAt(deps, 'buy', client.priceCents)) {
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
        settings,
        figures: { amountSats, valueCents, priceCents, platformFeeCents, networkFeeCents: 0n, bankFeeCents },
        paymentMethod: payout.method,
        receivingDetails: payout.details,
        quoteExpiresAt: new Date(deps.now().getTime() + DEPOSIT_WINDOW_MS),
      };
    }
  }
  throw new AppError('PRICE_CHANGED', PRICE_CHANGED);
}

/**
 * Refuses a sell whose platform fee and bank charges would leave nothing to receive, naming the
 * smallest amount that works for that method at the price the customer was quoted (also meeting
 * `min_order_size`). An unknown method or an unserved price is left to the checks that follow.
 */
async function assertSellLeavesSomething(
  deps: PricingDeps,
  settings: GlobalSettingsRow,
  client: Figures,
  method: string | undefined,
): Promise<void> {
  const rail = activeSellPayoutRail(settings, method);
  if (!rail) return;
  const bankChargesCents = rail.chargesCents(settings, 'sell');
  const snapshot = await firstServedPriceAt(deps, 'buy', client.priceCents);
  if (!snapshot) return;
  const pricing = {
    buyPriceCents: snapshot.buyPriceCents,
    feeBps: settings.platformFeeBps,
    bankChargesCents,
  };
  if (quoteSellFromBtc({ ...pricing, amountSats: client.amountSats })) return;
  const smallest = smallestSellSats({ ...pricing, minOrderCents: settings.minOrderCents });
  if (smallest === null) throw new AppError('BAD_REQUEST', 'Selling is not possible at the current fee.');
  throw new AppError('BAD_REQUEST', sellDeadEndMessage(rail.id, smallest));
}

/**
 * The settings, the client's figures as integers, and the customer checks, before any maths; with
 * the KYC verdict, whether the payout address is listed, read in the same statement for the caller.
 */
async function checkBuyer(
  deps: PricingDeps,
  user: UserRow,
  body: SaveOrderRequest,
  walletAddress: string | null,
  known: { settings: GlobalSettingsRow; verdicts: BuyerVerdicts } | undefined,
): Promise<{ settings: GlobalSettingsRow; client: Figures; verdicts: BuyerVerdicts }> {
  const settings = known?.settings ?? (await readGlobalSettings(deps.db));
  const client = parseClientFigures(body);
  const verdicts = known?.verdicts ?? (await findBuyerVerdicts(deps.db, user.id, walletAddress));
  await assertMayTrade(deps.db, user, settings, client.valueCents, body.type, verdicts);
  return { settings, client, verdicts };
}
