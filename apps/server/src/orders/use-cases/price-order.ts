import { BUY_CHECK_MESSAGES, type SaveOrderRequest } from '@offzero/shared/api/orders';
import { bitcoinAddressProblem } from '@offzero/shared/bitcoin/address';
import { addressRefusal } from '@offzero/shared/bitcoin/address-field';
import {
  btcNumberToSats,
  MoneyParseError,
  usdNumberToCents,
  type Cents,
  type Sats,
} from '@offzero/shared/money/money';
import {
  quoteBuyFromUsd,
  quoteSellFromBtc,
  quotesMatch,
  sellDeadEndMessage,
  smallestSellSats,
} from '@offzero/shared/quotes/quote';
import type { GlobalSettingsRow, PaymentMethod, PriceSnapshotRow, UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { PRICES_UNAVAILABLE } from '../../prices/price-book';
import { findServedSnapshotsAt } from '../../prices/price-snapshot.repository';
import { activeSellPayoutRail } from '../../rails/rail-registry';
import { readGlobalSettings } from '../../settings/global-settings-cache';
import { assertCustomerMayTrade, assertMayTrade, assertWithinLimits } from './assert-may-trade';
import { assertW9OnFile } from './assert-w9-on-file';
import { chooseSellPayout } from './choose-sell-payout';
import type { OrderDeps } from './order-deps';
import { sanctionedAddressRefusal } from '../../compliance/sanctions/sanctions-screening';
import { findBuyerVerdicts, type BuyerVerdicts } from '../customer.repository';

/**
 * The server's own figures for an order the client proposes (docs/design.md): the buy and sell
 * maths of packages/shared recomputed from a price the server really served, after the customer
 * checks. The client's figures only have to agree within 1 cent and 100 satoshis; the server's are kept.
 */

/** How long after a price was served the server still honours a quote made from it (docs/design.md). */
export const QUOTE_PRICE_GRACE_MS = 2 * 60_000;
export const PRICE_CHANGED = 'The price has changed. Review the new quote and confirm again.';
/** A sell deposit must arrive within 20 minutes. */
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
  /** The settings the order was checked and priced with; its trading limits are counted with them too. */
  settings: GlobalSettingsRow;
  snapshot: Pick<PriceSnapshotRow, 'id'>;
  /** The locked quote these figures come from, which the save claims (docs/design.md). */
  quoteId?: string;
  /**
   * The customer's own address, where their bitcoin is paid out; null when the buy names an xpub
   * entry of the address book instead (its address is derived at payout).
   */
  walletAddress: string | null;
  /** The quote lock: the order session timeout of the settings. */
  quoteExpiresAt: Date;
  /** Whether pricing screened `walletAddress` against the sanctions list (the quote path does not). */
  addressScreened: boolean;
}

export interface PricedSell {
  figures: Figures;
  /** The settings the order was checked and priced with; its trading limits are counted with them too. */
  settings: GlobalSettingsRow;
  snapshot: Pick<PriceSnapshotRow, 'id'>;
  /** The locked quote these figures come from, which the save claims (docs/design.md). */
  quoteId?: string;
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
export async function priceSellOrder(
  deps: PricingDeps,
  user: UserRow,
  body: SaveOrderRequest,
): Promise<PricedSell> {
  const settings = await readGlobalSettings(deps.db);
  const client = parseClientFigures(body);
  await assertCustomerMayTrade(deps.db, user, 'sell');
  await assertW9OnFile(deps.db, user);
  // Before the limits: a sell that would leave nothing is told the amount that works, not "$0".
  await assertSellLeavesSomething(deps, settings, client, body.bankAccount?.method);
  if (client.valueCents <= 0n) throw new AppError('BAD_REQUEST', ENTER_AMOUNT);
  assertWithinLimits(settings, client.valueCents);
  const payout = await chooseSellPayout(deps.db, user, settings, body.bankAccount?.method);
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

export const ENTER_AMOUNT = 'Enter an amount greater than zero.';

/** Each payout method's bank charges, when the method is switched on (its rail says how much). */
export function bankChargesFor(settings: GlobalSettingsRow, method: string | undefined): Cents | null {
  return activeSellPayoutRail(settings, method)?.chargesCents(settings, 'sell') ?? null;
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
  const bankChargesCents = bankChargesFor(settings, method);
  if (bankChargesCents === null) return;
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
  throw new AppError('BAD_REQUEST', sellDeadEndMessage(method as 'zelle' | 'ach' | 'wire', smallest));
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

/** The address a buy pays out to as typed; null when it names an address-book entry and no address. */
export function buyWalletAddress(body: SaveOrderRequest): string | null {
  const typed = body.walletAddress?.trim() ?? '';
  // With an address-book entry named, the entry decides the address (save-buy-order checks it).
  return body.payoutAddressId !== undefined && typed === '' ? null : typed;
}

/** The client's figures as integers; a sell's value may be nothing, which is checked after its amount. */
export function parseClientFigures(body: SaveOrderRequest): Figures {
  try {
    const figures = {
      amountSats: btcNumberToSats(body.amount),
      valueCents: usdNumberToCents(body.value),
      priceCents: usdNumberToCents(body.price),
      platformFeeCents: usdNumberToCents(body.platformFee),
      networkFeeCents: body.type === 'buy' ? usdNumberToCents(body.networkFee ?? 0) : 0n,
      bankFeeCents: body.type === 'sell' ? usdNumberToCents(body.bankFee ?? 0) : 0n,
    };
    const noValue = body.type === 'buy' && figures.valueCents <= 0n;
    if (figures.amountSats <= 0n || noValue || figures.priceCents <= 0n) {
      throw new AppError('BAD_REQUEST', ENTER_AMOUNT);
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
 * Most orders are placed at the price being served now, which this process holds: it comes first, and
 * the stored snapshots are read only if the caller asks for more. Refuses to quote while prices are stale.
 */
async function* servedPricesAt(
  deps: PricingDeps,
  side: 'sell' | 'buy',
  priceCents: Cents,
): AsyncGenerator<PriceSnapshotRow> {
  const current = deps.prices.current();
  if (deps.prices.isStale() || !current) throw new AppError('UNAVAILABLE', PRICES_UNAVAILABLE);
  const since = new Date(deps.now().getTime() - QUOTE_PRICE_GRACE_MS);
  const rateOf = (snapshot: PriceSnapshotRow) =>
    side === 'sell' ? snapshot.sellPriceCents : snapshot.buyPriceCents;
  const currentServed = rateOf(current) === priceCents && current.fetchedAt > since;
  if (currentServed) yield current;
  for (const snapshot of await findServedSnapshotsAt(deps.db, side, priceCents, since)) {
    if (!currentServed || snapshot.id !== current.id) yield snapshot;
  }
}

async function firstServedPriceAt(
  deps: PricingDeps,
  side: 'sell' | 'buy',
  priceCents: Cents,
): Promise<PriceSnapshotRow | undefined> {
  for await (const snapshot of servedPricesAt(deps, side, priceCents)) return snapshot;
  return undefined;
}
