import { schnorr } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64, utf8 } from '@scure/base';
import {
  Address,
  NETWORK,
  OutScript,
  RawTx,
  RawWitness,
  TEST_NETWORK,
  Transaction,
  WIF,
} from '@scure/btc-signer';

/**
 * A BIP-322 signer for tests, built on @scure/btc-signer's own transaction signing (not on the
 * server's verifier): signs `message` for a P2WPKH or taproot key-path `address` with the WIF key.
 * `encoding` 'simple' is the BIP's current "smp" form; 'unprefixed' the form written before it.
 */
export function signBip322(
  wif: string,
  address: string,
  message: string,
  encoding: 'simple' | 'unprefixed' | 'full' = 'simple',
): string {
  const network = /^(tb1|bcrt1|[mn2])/.test(address) ? TEST_NETWORK : NETWORK;
  const prefix = address.startsWith('bcrt1') ? { ...network, bech32: 'bcrt' } : network;
  const privateKey = WIF(network).decode(wif);
  const script = OutScript.encode(Address(prefix).decode(address));
  const options = {
    version: 0,
    allowUnknownVersion: true,
    allowUnknownOutputs: true,
    allowUnknownInputs: true,
  };

  const messageHash = schnorr.utils.taggedHash('BIP0322-signed-message', utf8.decode(message));
  const toSpend = RawTx.encode({
    version: 0,
    segwitFlag: false,
    inputs: [
      {
        txid: new Uint8Array(32),
        index: 0xffffffff,
        finalScriptSig: Uint8Array.of(0x00, 0x20, ...messageHash),
        sequence: 0,
      },
    ],
    outputs: [{ amount: 0n, script }],
    witnesses: undefined,
    lockTime: 0,
  });
  const toSpendId = sha256(sha256(toSpend)).reverse();

  const toSign = new Transaction(options);
  const taproot = script[0] === 0x51;
  toSign.addInput({
    txid: toSpendId,
    index: 0,
    sequence: 0,
    witnessUtxo: { script, amount: 0n },
    ...(taproot ? { tapInternalKey: schnorr.getPublicKey(privateKey) } : {}),
  });
  toSign.addOutput({ script: Uint8Array.of(0x6a), amount: 0n });
  toSign.signIdx(privateKey, 0);
  toSign.finalizeIdx(0);
  if (encoding === 'full') return `ful${base64.encode(toSign.toBytes(true, true))}`;
  const witness = base64.encode(RawWitness.encode(toSign.getInput(0).finalScriptWitness!));
  return encoding === 'simple' ? `smp${witness}` : witness;
}
