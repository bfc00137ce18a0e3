import type { Database, Transaction } from '../../db/database';
import { AppError } from '../../http/errors';
import { findListedAddresses, isAddressListed } from './sanctions-list.repository';

/** The answer to a listed address wherever one enters (docs/design.md). */
export const SANCTIONED_ADDRESS_MESSAGE = 'This address cannot be used. Contact support.';

/** bech32 / bech32m human-readable parts of mainnet, testnet/signet and regtest addresses. */
const BECH32 = /^(bc|tb|bcrt)1[a-z0-9]+$/i;

/**
 * How an address is compared with the list: bech32 addresses are case-insensitive (BIP173: an
 * upper-case address is the same address), so they are compared in lower case; base58 addresses are
 * case-sensitive, so they are compared exactly. Surrounding spaces never hide an address.
 */
export function screeningKey(address: string): string {
  const trimmed = address.trim();
  return BECH32.test(trimmed) ? trimmed.toLowerCase() : trimmed;
}

/**
 * Whether a bitcoin address is on the sanctions list in force. The one check every feature calls
 * where an address enters or money is about to leave (settings, orders, payouts, address book).
 */
export async function isSanctionedAddress(db: Database | Transaction, address: string): Promise<boolean> {
  return isAddressListed(db, screeningKey(address));
}

/** Refuses a listed address with 400 "This address cannot be used. Contact support.". */
export async function assertAddressNotSanctioned(
  db: Database | Transaction,
  address: string,
  field = 'address',
): Promise<void> {
  if (await isSanctionedAddress(db, address)) throw sanctionedAddressRefusal(field);
}

/** The refusal of a listed address, for a caller that has read the list itself. */
export function sanctionedAddressRefusal(field = 'address'): AppError {
  return new AppError('BAD_REQUEST', SANCTIONED_ADDRESS_MESSAGE, { [field]: SANCTIONED_ADDRESS_MESSAGE });
}

/** Which of these addresses (as given) are on the list: for the inputs of a deposit. */
export async function findSanctionedAddresses(
  db: Database | Transaction,
  addresses: readonly string[],
): Promise<string[]> {
  const byKey = new Map(addresses.map((address) => [screeningKey(address), address]));
  const listed = await findListedAddresses(db, [...byKey.keys()]);
  return listed.map((key) => byKey.get(key) ?? key);
}
