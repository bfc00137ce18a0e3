import { sha256 } from '@noble/hashes/sha2.js';
import { base64, hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { Transaction } from '@scure/btc-signer';
import type { SimulatedChain } from '../../chain/simulated-chain';
import type { PayoutWallet } from './payout-wallet';

/**
 * Demo only: the payout wallet's private side, standing in for the operator's hardware wallet so the
 * whole batch path runs on one machine. Its seed is public (derived from a fixed phrase below): never
 * send real coins to it. Production has no private key at all; this module is reached only through the
 * demo routes and demo start-up.
 */

const TESTNET_VERSIONS = { public: 0x043587cf, private: 0x04358394 };
const DEMO_SEED = sha256(new TextEncoder().encode('OffZero demo payout wallet: public seed, testnet only'));
const ACCOUNT_PATH = "m/84'/1'/0'";

const master = HDKey.fromMasterSeed(DEMO_SEED, TESTNET_VERSIONS);
const account = master.derive(ACCOUNT_PATH);

/** The demo payout wallet's account key with its origin, as `PAYOUT_WALLET_XPUB` takes it. */
export const DEMO_PAYOUT_WALLET_XPUB = `[${hex.encode(
  Uint8Array.of(
    master.fingerprint >>> 24,
    (master.fingerprint >>> 16) & 0xff,
    (master.fingerprint >>> 8) & 0xff,
    master.fingerprint & 0xff,
  ),
)}/84h/1h/0h]${account.publicExtendedKey}`;

/** What the demo wallet holds at start: two confirmed coins on its first receive addresses. */
const DEMO_FUNDING = [
  { index: 0, valueSats: 150_000_000n },
  { index: 1, valueSats: 80_000_000n },
] as const;

/**
 * Funds the demo wallet on the simulated chain, once: each funding output has a fixed txid, so a
 * restart or a second process adds nothing.
 */
export async function fundDemoPayoutWallet(chain: SimulatedChain, wallet: PayoutWallet): Promise<void> {
  for (const { index, valueSats } of DEMO_FUNDING) {
    const txid = hex.encode(sha256(new TextEncoder().encode(`offzero demo payout funding ${index}`)));
    await chain.fundOnce(txid, wallet.derive(0, index).address, valueSats);
  }
}

/**
 * Signs every input of a payout PSBT that the demo wallet owns, as a hardware wallet would: the key is
 * found through the input's BIP32 derivation (this wallet's fingerprint and path). Answers the signed
 * PSBT, not finalized: the server finalizes what comes back.
 */
export function signWithDemoPayoutWallet(psbtBase64: string): string {
  const tx = Transaction.fromPSBT(base64.decode(psbtBase64));
  for (let index = 0; index < tx.inputsLength; index += 1) {
    const derivations = tx.getInput(index).bip32Derivation ?? [];
    for (const [, { fingerprint, path }] of derivations) {
      if (fingerprint !== master.fingerprint) continue;
      const key = path.reduce((node: HDKey, child) => node.deriveChild(child), master);
      if (key.privateKey) tx.signIdx(key.privateKey, index);
    }
  }
  return base64.encode(tx.toPSBT());
}
