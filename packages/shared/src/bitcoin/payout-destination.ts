import { bitcoinAddressProblem, type BitcoinNetwork } from './address';

/**
 * What a buy's destination is, by its form alone (docs/design.md, "Lightning"): a bitcoin address, a
 * BOLT11 invoice or a Lightning address `name@domain`. The customer sees the kind before paying; the
 * server then reads an invoice in full (signature, amount, network, expiry) or resolves an address.
 */
export type PayoutDestinationKind = 'bitcoin-address' | 'invoice' | 'lightning-address';

export const PAYOUT_DESTINATION_LABELS: Record<PayoutDestinationKind, string> = {
  'bitcoin-address': 'Bitcoin address',
  invoice: 'Lightning invoice',
  'lightning-address': 'Lightning address',
};

const BOLT11_FORM = /^ln(bc|tb|tbs|bcrt)[0-9]*[munp]?1[02-9ac-hj-np-z]+$/;
const LIGHTNING_ADDRESS_FORM = /^[a-z0-9._+-]+@([a-z0-9-]+\.)*[a-z0-9-]+(:\d{1,5})?$/;

/** A Lightning destination's kind (an optional `lightning:` prefix allowed), or null. */
export function lightningDestinationKind(
  text: string,
): Exclude<PayoutDestinationKind, 'bitcoin-address'> | null {
  const value = text
    .trim()
    .replace(/^lightning:/i, '')
    .toLowerCase();
  if (BOLT11_FORM.test(value)) return 'invoice';
  if (LIGHTNING_ADDRESS_FORM.test(value)) return 'lightning-address';
  return null;
}

/** The kind of a destination typed for a buy, or null when it is none of them (on `network`). */
export function payoutDestinationKind(text: string, network: BitcoinNetwork): PayoutDestinationKind | null {
  const lightning = lightningDestinationKind(text);
  if (lightning) return lightning;
  const trimmed = text.trim();
  return trimmed !== '' && bitcoinAddressProblem(trimmed, network) === null ? 'bitcoin-address' : null;
}
