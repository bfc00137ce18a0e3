import { isValidBitcoinAddress } from '@offzero/shared/bitcoin/address';
import type { ChainApi } from '../chain/chain-api';
import type { BitcoinNetworkName } from '../chain/raw-transaction';
import type { Database, Transaction } from '../db/database';
import type { OrderRow } from '../db/schema';
import { checkPayoutDestination, resolvePayoutDestination } from '../payout-addresses/payout-destination';

/**
 * Where a buy's bitcoin goes, and whether it may go there now: the customer's address book answers
 * (a confirmed entry past its cooldown, proven when the operator requires it; an xpub entry's next
 * address), and the address must be of the server's network.
 */
export type PayoutDestination =
  { usable: true; address: string } | { usable: false; address: string | null; reason: string };

/**
 * Derives, outside any lock, the fresh address of each xpub buy about to be batched (it reads the chain
 * to skip used addresses); other buys are left as they are.
 */
export async function prepareDestinations(
  deps: { db: Database; chain: Pick<ChainApi, 'hasHistory'>; network: BitcoinNetworkName },
  orders: readonly OrderRow[],
): Promise<void> {
  for (const order of orders) {
    if (order.walletAddress) continue;
    await resolvePayoutDestination(deps, order.id);
  }
}

/** The check itself, inside the batch's transaction when it passes one: nothing is derived here. */
export async function payoutDestinationOf(
  db: Database | Transaction,
  order: OrderRow,
  network: BitcoinNetworkName,
  now: Date = new Date(),
): Promise<PayoutDestination> {
  const checked = await checkPayoutDestination(db, order, now);
  if (!checked.due) return { usable: false, address: order.walletAddress, reason: checked.message };
  const address = checked.address;
  if (!address)
    return { usable: false, address: null, reason: 'the address of its xpub entry is not derived yet' };
  if (!isValidBitcoinAddress(address, network)) {
    return { usable: false, address, reason: `the address is not a ${network} bitcoin address` };
  }
  return { usable: true, address };
}

/**
 * Sanctions screening of a payout address when a batch is built (DESIGN.md 7.9): answers a reason to
 * hold the payout, or null when it may be paid. It reads through the batch's own transaction.
 */
export type ScreenPayoutDestination = (db: Database | Transaction, address: string) => Promise<string | null>;
