import type { BitcoinNetwork } from '@offzero/shared/bitcoin/address';
import type { PayoutAddress, PayoutAddressStatus } from '@offzero/shared/api/payout-addresses';
import type { PayoutAddressRow } from '../db/schema';
import { derivePayoutAddress } from './payout-xpub';

/** `unconfirmed` until the e-mailed link is opened, `confirmed` during the cooldown, then `usable`. */
export function payoutAddressStatus(
  entry: Pick<PayoutAddressRow, 'confirmedAt' | 'usableAt'>,
  now: Date,
): PayoutAddressStatus {
  if (!entry.confirmedAt || !entry.usableAt) return 'unconfirmed';
  return entry.usableAt.getTime() <= now.getTime() ? 'usable' : 'confirmed';
}

/** The address an ownership proof signs: the entry's address, or its xpub's first one (`m/0/0`). */
export function proofAddressOf(
  entry: Pick<PayoutAddressRow, 'address' | 'xpub'>,
  network: BitcoinNetwork,
): string {
  if (entry.address) return entry.address;
  return derivePayoutAddress(entry.xpub!, 0, network);
}

export function toPayoutAddressResponse(
  entry: PayoutAddressRow,
  now: Date,
  network: BitcoinNetwork,
): PayoutAddress {
  return {
    id: entry.id,
    label: entry.label,
    address: entry.address,
    xpub: entry.xpub,
    status: payoutAddressStatus(entry, now),
    proven: entry.provenAt !== null,
    usableAt: entry.usableAt?.toISOString() ?? null,
    isDefault: entry.isDefault,
    proofAddress: proofAddressOf(entry, network),
    createdAt: entry.createdAt.toISOString(),
  };
}
