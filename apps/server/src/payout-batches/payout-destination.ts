import { isValidBitcoinAddress } from '@offzero/shared/bitcoin/address';
import type { BitcoinNetworkName } from '../chain/raw-transaction';
import type { OrderRow } from '../db/schema';

/**
 * Where a buy's bitcoin goes, and whether it may go there now. This is the ONE place the batch builder
 * asks: today the order's wallet address, when it is an address of the server's network. (The payout
 * address book — confirmed entries, cooldowns, xpub entries — answers here when it exists.)
 */
export type PayoutDestination =
  { usable: true; address: string } | { usable: false; address: string | null; reason: string };

export function payoutDestinationOf(order: OrderRow, network: BitcoinNetworkName): PayoutDestination {
  const address = order.walletAddress;
  if (!address) return { usable: false, address: null, reason: 'the order has no payout address' };
  if (!isValidBitcoinAddress(address, network)) {
    return { usable: false, address, reason: `the address is not a ${network} bitcoin address` };
  }
  return { usable: true, address };
}

/**
 * Sanctions screening of a payout address when a batch is built (DESIGN.md 7.9): answers a reason to
 * hold the payout, or null when it may be paid. The compliance screening plugs in here through the
 * batch service's `screenDestination` dependency; without it every address passes this hook.
 */
export type ScreenPayoutDestination = (address: string) => Promise<string | null>;

export const screenNothing: ScreenPayoutDestination = async () => null;
