import { schnorr } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8 } from '@scure/base';
import { RawTx } from '@scure/btc-signer';

/**
 * The transactions BIP-322 signs (to_spend, to_sign): their shape, serialisation, txid, and the three
 * signature hashes a proof may use (legacy, segwit v0, taproot key path). Checking a proof is bip322.ts.
 */

export interface TxInput {
  txid: Uint8Array;
  index: number;
  finalScriptSig: Uint8Array;
  sequence: number;
}
export interface TxOutput {
  amount: bigint;
  script: Uint8Array;
}
export interface Tx {
  version: number;
  inputs: TxInput[];
  outputs: TxOutput[];
  witnesses?: Uint8Array[][] | undefined;
  lockTime: number;
}

export const SIGHASH_DEFAULT = 0x00;
export const SIGHASH_ALL = 0x01;
export const OP_0 = 0x00;
export const OP_RETURN = 0x6a;
export const OP_CHECKSIG = 0xac;
export const LEGACY_MAGIC = 'Bitcoin Signed Message:\n';

export const sha256d = (bytes: Uint8Array) => sha256(sha256(bytes));
export const hash160 = (bytes: Uint8Array) => ripemd160(sha256(bytes));

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

export function u32(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value >>> 0, true);
  return bytes;
}

export function u64(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
}

export function compactSize(length: number): Uint8Array {
  if (length < 0xfd) return Uint8Array.of(length);
  if (length <= 0xffff) return Uint8Array.of(0xfd, length & 0xff, length >> 8);
  return concat(Uint8Array.of(0xfe), u32(length));
}

export const withLength = (bytes: Uint8Array) => concat(compactSize(bytes.length), bytes);

/** BIP340 tagged hash of the message: what `to_spend` commits to. */
export function bip322MessageHash(message: string): Uint8Array {
  return schnorr.utils.taggedHash('BIP0322-signed-message', utf8.decode(message));
}

/** The outpoint bytes as serialised: RawTx holds txids in display (reversed) order. */
export function outpoint(input: TxInput): Uint8Array {
  return concat(Uint8Array.from(input.txid).reverse(), u32(input.index));
}

export function serializedOutputs(tx: Tx): Uint8Array {
  return concat(...tx.outputs.map((output) => concat(u64(output.amount), withLength(output.script))));
}

/** The `to_spend` transaction of the BIP for a message and the address's output script. */
export function toSpendTransaction(message: string, outputScript: Uint8Array): Tx {
  return {
    version: 0,
    inputs: [
      {
        txid: new Uint8Array(32),
        index: 0xffffffff,
        finalScriptSig: concat(Uint8Array.of(OP_0, 32), bip322MessageHash(message)),
        sequence: 0,
      },
    ],
    outputs: [{ amount: 0n, script: outputScript }],
    lockTime: 0,
  };
}

/** A transaction id in display order, as block explorers and RawTx show it. */
export function txidOf(tx: Tx): Uint8Array {
  const raw = RawTx.encode({ ...tx, segwitFlag: false, witnesses: undefined });
  return sha256d(raw).reverse();
}

export function legacySighash(tx: Tx, scriptCode: Uint8Array, hashType: number): Uint8Array {
  const inputs = tx.inputs.map((input, index) => ({
    ...input,
    finalScriptSig: index === 0 ? scriptCode : new Uint8Array(),
  }));
  const raw = RawTx.encode({ ...tx, inputs, segwitFlag: false, witnesses: undefined });
  return sha256d(concat(raw, u32(hashType)));
}

/** BIP143 signature hash of input 0 (amount 0, as every `to_spend` output). */
export function witnessV0Sighash(tx: Tx, scriptCode: Uint8Array, hashType: number): Uint8Array {
  const input = tx.inputs[0]!;
  return sha256d(
    concat(
      u32(tx.version),
      sha256d(concat(...tx.inputs.map(outpoint))),
      sha256d(concat(...tx.inputs.map((each) => u32(each.sequence)))),
      outpoint(input),
      withLength(scriptCode),
      u64(0n),
      u32(input.sequence),
      sha256d(serializedOutputs(tx)),
      u32(tx.lockTime),
      u32(hashType),
    ),
  );
}

/** BIP341 key-path signature hash of input 0 (one input: the `to_spend` output of amount 0). */
export function taprootKeySighash(tx: Tx, prevoutScript: Uint8Array, hashType: number): Uint8Array {
  const input = tx.inputs[0]!;
  return schnorr.utils.taggedHash(
    'TapSighash',
    concat(
      Uint8Array.of(0x00, hashType),
      u32(tx.version),
      u32(tx.lockTime),
      sha256(outpoint(input)),
      sha256(u64(0n)),
      sha256(withLength(prevoutScript)),
      sha256(u32(input.sequence)),
      sha256(serializedOutputs(tx)),
      Uint8Array.of(0x00),
      u32(0),
    ),
  );
}
