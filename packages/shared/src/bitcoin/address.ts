import { AddressType, getAddressInfo, Network, type AddressInfo } from 'bitcoin-address-validation';

export type BitcoinNetwork = 'mainnet' | 'testnet' | 'regtest';

/*
 * The rules come from bitcoin-address-validation, which checks base58 (alphabet without 0, O, I, l,
 * 25 bytes, double-SHA256 checksum, version byte) and bech32/bech32m (BIP173/BIP350: at most 90
 * characters, one case, a separator, at least 6 data characters, the checksum variant that matches the
 * witness version, witness program length, padding). On top of it, decided here:
 *
 * - Only the five output types the product pays to are valid: p2pkh, p2sh, p2wpkh, p2wsh, p2tr.
 *   BIP350 asks wallets to accept future witness versions (v2 to v16, or v1 with a program that is not
 *   32 bytes), but nothing spends them today, so coins sent there would be lost to the customer.
 * - An all-uppercase bech32 address is valid, as BIP173 says (QR codes use that form). Mixed case is not.
 * - Regtest legacy addresses use the same version bytes as testnet ones and cannot be told apart, so an
 *   'm…', 'n…' or '2…' address is valid for both testnet and regtest, and `bitcoinAddressNetwork`
 *   reports it as testnet. Bech32 prefixes are distinct: 'bc' mainnet, 'tb' testnet (and signet, which
 *   shares it), 'bcrt' regtest only.
 * - Nothing is trimmed: an address with spaces around it is invalid, so what is checked is what is paid.
 */

const PAYABLE_TYPES: ReadonlySet<AddressType> = new Set([
  AddressType.p2pkh,
  AddressType.p2sh,
  AddressType.p2wpkh,
  AddressType.p2wsh,
  AddressType.p2tr,
]);

function readPayableAddress(address: string): AddressInfo | null {
  // Form and JSON values can be anything at run time despite the type.
  if (typeof address !== 'string') return null;
  try {
    const info = getAddressInfo(address);
    return PAYABLE_TYPES.has(info.type) ? info : null;
  } catch {
    return null;
  }
}

function toBitcoinNetwork(info: AddressInfo): BitcoinNetwork | null {
  switch (info.network) {
    case Network.mainnet:
      return 'mainnet';
    case Network.testnet:
      return 'testnet';
    case Network.regtest:
      return 'regtest';
    // Signet only appears when asked for; the product has no signet mode.
    case Network.signet:
      return null;
  }
}

/** The network an address belongs to, or null when it is not a valid payable address. */
export function bitcoinAddressNetwork(address: string): BitcoinNetwork | null {
  const info = readPayableAddress(address);
  return info ? toBitcoinNetwork(info) : null;
}

/**
 * Whether coins can be sent to this address; with `network`, also whether it belongs to that network
 * (a 'tb1…' address is not valid for mainnet).
 */
export function isValidBitcoinAddress(address: string, network?: BitcoinNetwork): boolean {
  const info = readPayableAddress(address);
  if (!info) return false;
  const addressNetwork = toBitcoinNetwork(info);
  if (addressNetwork === null) return false;
  if (network === undefined || network === addressNetwork) return true;
  return network === 'regtest' && addressNetwork === 'testnet' && !info.bech32;
}

/** What an address of the network starts like, as a field's placeholder (never a real address). */
export const ADDRESS_PLACEHOLDER: Record<BitcoinNetwork, string> = {
  mainnet: 'bc1q…',
  testnet: 'tb1q…',
  regtest: 'bcrt1q…',
};
