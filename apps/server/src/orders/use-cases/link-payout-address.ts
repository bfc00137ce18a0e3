import type { Transaction } from '../../db/database';
import { AppError } from '../../http/errors';
import { checkPayoutTarget } from '../../payout-addresses/payout-address.service';
import type { OrderDeps } from './order-deps';

/** A buy's payout destination: the address-book entry it pays and, for a plain address, that address. */
export interface BuyPayoutTarget {
  payoutAddressId: string;
  /** Null for an xpub entry: a fresh address of it is derived when the buy is paid out. */
  walletAddress: string | null;
}

/**
 * Ties a buy to an entry of the customer's address book, in the save's transaction: the entry it
 * names (their own, else 404), or the entry of the address it names, added unconfirmed (and e-mailed)
 * when it is new. The buy is saved either way; its payout waits until the entry is usable.
 */
export async function linkBuyPayoutAddress(
  deps: Pick<OrderDeps, 'payoutAddresses' | 'network'>,
  tx: Transaction,
  userId: string,
  request: {
    payoutAddressId?: string | undefined;
    walletAddress: string | null;
    /** The save screened `walletAddress` against the sanctions list already: once per save is enough. */
    addressScreened?: boolean;
    /** The id of `walletAddress`'s entry, when the save has just read it (null: the book has none). */
    knownEntryId?: string | null;
  },
): Promise<BuyPayoutTarget> {
  if (request.payoutAddressId !== undefined) {
    const entry = await deps.payoutAddresses.findOwn(userId, request.payoutAddressId, tx);
    if (entry.address && request.walletAddress !== null && request.walletAddress !== entry.address) {
      throw new AppError(
        'BAD_REQUEST',
        'The address does not match the address-book entry you chose. Choose the entry again.',
      );
    }
    if (entry.xpub && request.walletAddress !== null) {
      throw new AppError(
        'BAD_REQUEST',
        'This entry is an extended public key: we pay a fresh address of it, so send no address with it.',
      );
    }
    return { payoutAddressId: entry.id, walletAddress: entry.address };
  }
  if (request.walletAddress === null) {
    throw new AppError('BAD_REQUEST', 'Choose where we send your bitcoin.');
  }
  // An address already in the book and already screened: its entry is all there is left to know.
  if (request.knownEntryId && request.addressScreened) {
    checkPayoutTarget({ address: request.walletAddress }, deps.network);
    return { payoutAddressId: request.knownEntryId, walletAddress: request.walletAddress };
  }
  const entry = await deps.payoutAddresses.ensureEntryForAddress(tx, userId, request.walletAddress, {
    label: 'Added with a buy',
    makeDefault: false,
    screened: request.addressScreened === true,
  });
  return { payoutAddressId: entry.id, walletAddress: request.walletAddress };
}
