import type { LimitTier } from '@offzero/shared/api/limits';
import type { SaveOrderRequest } from '@offzero/shared/api/orders';
import type { Transaction } from '../../db/database';
import type { GlobalSettingsRow, UserRow } from '../../db/schema';
import { readGlobalSettings } from '../../settings/global-settings-cache';
import { lockBuyerForSave, lockCustomerForSave } from '../order.repository';
import type { OrderDeps } from './order-deps';
import { priceBuyFromQuote } from './price-from-quote';
import { buyWalletAddress, parseClientFigures, priceBuyOrder, type PricedBuy } from './price-order';

/**
 * How a buy being saved (or re-quoted) is priced. Against a locked quote its figures hold, priced
 * before the customer's lock. Otherwise the server prices it under the lock from a price it served,
 * with the settings of this process's copy.
 */
export type BuyPricing = { quoted: PricedBuy } | { settings: GlobalSettingsRow };

type PricingDeps = Pick<OrderDeps, 'db' | 'prices' | 'network' | 'now'>;

/** What can be done before the lock: a quote's figures, or the settings (malformed figures refused). */
export async function priceBuyBeforeLock(
  deps: PricingDeps,
  user: UserRow,
  body: SaveOrderRequest,
): Promise<BuyPricing> {
  const { quoteId } = body;
  if (quoteId) return { quoted: await priceBuyFromQuote(deps, user, { ...body, quoteId }) };
  parseClientFigures(body);
  return { settings: await readGlobalSettings(deps.db) };
}

/**
 * Takes the customer's save lock and prices the buy under it: the lock is taken in the same statement
 * as the reads the buyer's checks need (their KYC verdict, the address's screening).
 */
export async function lockAndPriceBuy(
  deps: PricingDeps,
  tx: Transaction,
  user: UserRow,
  body: SaveOrderRequest,
  pricing: BuyPricing,
): Promise<{ tier: LimitTier; priced: PricedBuy }> {
  if ('quoted' in pricing) return { tier: await lockCustomerForSave(tx, user.id), priced: pricing.quoted };
  const { tier, verdicts } = await lockBuyerForSave(tx, user.id, buyWalletAddress(body));
  const priced = await priceBuyOrder({ ...deps, db: tx }, user, body, {
    settings: pricing.settings,
    verdicts,
  });
  return { tier, priced };
}
