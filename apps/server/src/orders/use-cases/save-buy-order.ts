import type { SaveOrderRequest } from '@offzero/shared/api/orders';
import type { Transaction } from '../../db/database';
import type { GlobalSettingsRow, OrderRow, UserRow } from '../../db/schema';
import type { LimitTier } from '@offzero/shared/api/limits';
import {
  findTwinAndWindowUse,
  insertOrderCreated,
  lockBuyerForSave,
  lockCustomerForSave,
} from '../order.repository';
import { readGlobalSettings } from '../../settings/global-settings-cache';
import { assertUseWithinTradingLimits } from '../../limits/limits.service';
import { windowStarts } from '../../limits/trading-limits';
import { linkBuyPayoutAddress } from './link-payout-address';
import type { OrderDeps } from './order-deps';
import { claimOrderQuote, priceBuyFromQuote } from './price-from-quote';
import { keepTravelRuleRecord, travelRuleAnswer } from './travel-rule';
import { buyWalletAddress, parseClientFigures, priceBuyOrder, type PricedBuy } from './price-order';

/**
 * A new pending buy at the server's figures (or its locked quote's), paid out later to the customer's
 * own address, an entry of their payout address book (a new address joins it unconfirmed, and the
 * payout waits). The same buy saved again within 10 seconds (a double click) answers the first order (DESIGN.md 7.5).
 */
export async function saveBuyOrder(
  deps: Pick<OrderDeps, 'db' | 'prices' | 'network' | 'now' | 'notify' | 'payoutAddresses'>,
  user: UserRow,
  body: SaveOrderRequest,
): Promise<OrderRow> {
  const { quoteId } = body;
  // Malformed figures are refused before anything is locked.
  if (!quoteId) parseClientFigures(body);
  const pricing: BuyPricing = quoteId
    ? { quoted: await priceBuyFromQuote(deps, user, { ...body, quoteId }) }
    : { settings: await readGlobalSettings(deps.db) };
  const saved = await deps.db.transaction(async (tx) => {
    const { tier, priced } = await lockAndPriceBuy({ ...deps, db: tx }, tx, user, body, pricing);
    const { twin, used, payoutEntryId } = await findTwinAndWindowUse(
      tx,
      {
        userId: user.id,
        type: 'buy',
        amountSats: priced.figures.amountSats,
        valueCents: priced.figures.valueCents,
        walletAddress: priced.walletAddress,
        paymentMethod: null,
      },
      windowStarts(deps.now()),
      priced.walletAddress,
    );
    if (twin) return twin;
    // Compliance, after every other check: counted under the customer's lock, so two saves at once
    // cannot both fit into what is left of a limit.
    assertUseWithinTradingLimits({
      settings: priced.settings,
      tier,
      used,
      valueCents: priced.figures.valueCents,
    });
    const walletOwnership = travelRuleAnswer(priced.figures.valueCents, body.walletOwnership);
    const payout = await linkBuyPayoutAddress(deps, tx, user.id, {
      payoutAddressId: body.payoutAddressId,
      walletAddress: priced.walletAddress,
      addressScreened: priced.addressScreened,
      knownEntryId: payoutEntryId,
    });
    const order = await insertOrderCreated(
      tx,
      {
        userId: user.id,
        type: 'buy',
        ...priced.figures,
        priceSnapshotId: priced.snapshot.id,
        quoteExpiresAt: priced.quoteExpiresAt,
        walletAddress: payout.walletAddress,
        payoutAddressId: payout.payoutAddressId,
        depositIndex: null,
        paymentMethod: null,
        receivingDetails: null,
      },
      `user:${user.id}`,
    );
    await claimOrderQuote(tx, priced, order.id, deps.now());
    if (walletOwnership) await keepTravelRuleRecord(tx, { order, user, answer: walletOwnership });
    return order;
  });
  // A new address's confirmation e-mail went into the outbox with the order: deliver it now.
  await deps.notify(saved);
  return saved;
}

/**
 * Against a locked quote its figures hold, priced before the lock. Otherwise the server prices the buy
 * under the lock from a price it served, with the settings of this process's copy.
 */
type BuyPricing = { quoted: PricedBuy } | { settings: GlobalSettingsRow };

/**
 * Takes the customer's save lock and prices the buy under it: the lock is taken in the same statement
 * as the reads the buyer's checks need (their KYC verdict, the address's screening).
 */
async function lockAndPriceBuy(
  deps: Parameters<typeof priceBuyOrder>[0],
  tx: Transaction,
  user: UserRow,
  body: SaveOrderRequest,
  pricing: BuyPricing,
): Promise<{ tier: LimitTier; priced: PricedBuy }> {
  if ('quoted' in pricing) return { tier: await lockCustomerForSave(tx, user.id), priced: pricing.quoted };
  const { tier, verdicts } = await lockBuyerForSave(tx, user.id, buyWalletAddress(body));
  const priced = await priceBuyOrder(deps, user, body, { settings: pricing.settings, verdicts });
  return { tier, priced };
}
