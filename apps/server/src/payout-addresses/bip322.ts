import { readBitcoinAddress } from '@offzero/shared/bitcoin/address';
import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64, utf8 } from '@scure/base';
import { RawTx, RawWitness, Script } from '@scure/btc-signer';
import {
  type Tx,
  SIGHASH_DEFAULT,
  SIGHASH_ALL,
  OP_0,
  OP_RETURN,
  OP_CHECKSIG,
  LEGACY_MAGIC,
  sha256d,
  hash160,
  concat,
  sameBytes,
  withLength,
  toSpendTransaction,
  txidOf,
  legacySighash,
  witnessV0Sighash,
  taprootKeySighash,
} from './bip322-transaction';

/*
 * BIP-322 (generic signed messages, version 2.0.0 of the BIP text) verification for the address
 * book's ownership proof, on the noble/scure stack. Accepted encodings:
 *
 * - "smp" + base64 witness stack (simple) and "ful" + base64 `to_sign` transaction (full), as the BIP
 *   now asks signers to write them;
 * - the same without a prefix, as wallets wrote them before the prefix was added (the BIP lets a
 *   verifier read an unprefixed signature as simple; an unprefixed full transaction is read too);
 * - for P2PKH addresses only, the legacy "signmessage" compact signature, as the BIP restricts it.
 *
 * There is no general script interpreter here: the scripts understood are single keys (P2PKH, P2WPKH,
 * P2SH-P2WPKH, taproot key path) and plain m-of-n CHECKMULTISIG (P2WSH, P2SH-P2WSH, P2SH). Anything
 * else (time locks, taproot script paths, annexes, proofs of funds with extra inputs) answers
 * "inconclusive", which the BIP prescribes for a validator that cannot check a script.
 */

export { bip322MessageHash, toSpendTransaction, txidOf } from './bip322-transaction';

export type Bip322Verdict =
  { result: 'valid' } | { result: 'invalid'; reason: string } | { result: 'inconclusive'; reason: string };

class Refusal extends Error {
  constructor(
    readonly result: 'invalid' | 'inconclusive',
    readonly reason: string,
  ) {
    super(reason);
  }
}
const invalid = (reason: string) => new Refusal('invalid', reason);
const inconclusive = (reason: string) => new Refusal('inconclusive', reason);

/** BIP66 strict DER (as Bitcoin Core's IsValidSignatureEncoding), with the sighash byte at the end. */
function isStrictDer(signature: Uint8Array): boolean {
  const length = signature.length;
  if (length < 9 || length > 73) return false;
  if (signature[0] !== 0x30 || signature[1] !== length - 3) return false;
  const lengthR = signature[3]!;
  if (5 + lengthR >= length) return false;
  const lengthS = signature[5 + lengthR]!;
  if (lengthR + lengthS + 7 !== length) return false;
  if (signature[2] !== 0x02 || lengthR === 0 || signature[4]! & 0x80) return false;
  if (lengthR > 1 && signature[4] === 0x00 && !(signature[5]! & 0x80)) return false;
  if (signature[lengthR + 4] !== 0x02 || lengthS === 0 || signature[lengthR + 6]! & 0x80) return false;
  if (lengthS > 1 && signature[lengthR + 6] === 0x00 && !(signature[lengthR + 7]! & 0x80)) return false;
  return true;
}

function isPublicKey(key: Uint8Array): boolean {
  if (!((key.length === 33 && (key[0] === 2 || key[0] === 3)) || (key.length === 65 && key[0] === 4))) {
    return false;
  }
  try {
    secp256k1.Point.fromBytes(key);
    return true;
  } catch {
    return false;
  }
}

/** An ECDSA signature check under BIP-322's required rules (SIGHASH_ALL, strict DER, low S). */
function checkEcdsa(
  signature: Uint8Array,
  publicKey: Uint8Array,
  sighash: (hashType: number) => Uint8Array,
): boolean {
  if (signature.length === 0) return false;
  if (!isStrictDer(signature)) throw invalid('an ECDSA signature is not strictly DER-encoded');
  if (signature[signature.length - 1] !== SIGHASH_ALL) throw invalid('a signature does not use SIGHASH_ALL');
  const der = signature.subarray(0, -1);
  const valid = secp256k1.verify(der, sighash(SIGHASH_ALL), publicKey, {
    prehash: false,
    lowS: true,
    format: 'der',
  });
  // NULLFAIL: a failing signature must be empty.
  if (!valid) throw invalid('a signature does not match the message, the address or its key');
  return true;
}

/** A script's opcodes (names, small numbers) and pushes, or null when it does not parse. */
function decodeScript(script: Uint8Array): Array<string | number | Uint8Array> | null {
  try {
    return Script.decode(script);
  } catch {
    return null;
  }
}

interface Multisig {
  required: number;
  keys: Uint8Array[];
}

/** A plain "m <keys> n CHECKMULTISIG" script, or a single "<key> CHECKSIG". */
function readKeyScript(script: Uint8Array): Multisig | null {
  const ops = decodeScript(script);
  if (!ops) return null;
  const last = ops[ops.length - 1];
  if (ops.length === 2 && ops[0] instanceof Uint8Array && last === 'CHECKSIG' && isPublicKey(ops[0])) {
    return { required: 1, keys: [ops[0]] };
  }
  if (last !== 'CHECKMULTISIG' || ops.length < 4) return null;
  const required = smallNumber(ops[0]);
  const total = smallNumber(ops[ops.length - 2]);
  const keys = ops.slice(1, -2);
  if (required === null || total === null || total !== keys.length || required < 1 || required > total) {
    return null;
  }
  if (!keys.every((key): key is Uint8Array => key instanceof Uint8Array && isPublicKey(key))) return null;
  return { required, keys };
}

function smallNumber(op: unknown): number | null {
  if (typeof op === 'number' && op >= 1 && op <= 16) return op;
  if (typeof op === 'string' && /^OP_([1-9]|1[0-6])$/.test(op)) return Number(op.slice(3));
  return null;
}

/**
 * Runs a key script against its stack, CHECKMULTISIG's way: signatures in key order, the extra
 * dummy element empty (NULLDUMMY), every signature given valid (NULLFAIL).
 */
function checkKeyScript(
  keys: Multisig,
  stack: Uint8Array[],
  sighash: (hashType: number) => Uint8Array,
): void {
  const isSingle = keys.keys.length === 1 && keys.required === 1 && stack.length === 1;
  if (isSingle) {
    checkEcdsa(stack[0]!, keys.keys[0]!, sighash);
    return;
  }
  if (stack.length !== keys.required + 1) throw invalid('the number of signatures does not match the script');
  if (stack[0]!.length !== 0) throw invalid('the multisig dummy element is not empty');
  const signatures = stack.slice(1);
  let keyIndex = 0;
  for (const signature of signatures) {
    let matched = false;
    while (keyIndex < keys.keys.length && !matched) {
      const key = keys.keys[keyIndex]!;
      keyIndex += 1;
      try {
        matched = checkEcdsa(signature, key, sighash);
      } catch (error) {
        // A signature is tried against the following keys, as CHECKMULTISIG does.
        if (!(error instanceof Refusal) || !error.reason.startsWith('a signature does not match'))
          throw error;
      }
    }
    if (!matched) throw invalid('a signature does not match the message, the address or its keys');
  }
}

/** The pushes of a push-only scriptSig (P2SH and P2PKH spends). */
function pushesOf(scriptSig: Uint8Array): Uint8Array[] {
  if (scriptSig.length === 0) return [];
  const ops = decodeScript(scriptSig);
  if (!ops) throw invalid('the scriptSig cannot be decoded');
  return ops.map((op) => {
    if (op instanceof Uint8Array) return op;
    if (op === 0 || op === 'OP_0') return new Uint8Array();
    throw invalid('the scriptSig is not push-only');
  });
}

function verifyWitnessProgram(tx: Tx, version: number, program: Uint8Array, witness: Uint8Array[]): void {
  if (version === 0 && program.length === 20) {
    if (witness.length !== 2) throw invalid('a P2WPKH witness has a signature and a public key');
    const [signature, publicKey] = witness as [Uint8Array, Uint8Array];
    if (publicKey.length !== 33 || !isPublicKey(publicKey)) throw invalid('the public key is not compressed');
    if (!sameBytes(hash160(publicKey), program)) throw invalid('the public key is not the address’s');
    const scriptCode = concat(Uint8Array.of(0x76, 0xa9, 20), program, Uint8Array.of(0x88, OP_CHECKSIG));
    checkEcdsa(signature, publicKey, (hashType) => witnessV0Sighash(tx, scriptCode, hashType));
    return;
  }
  if (version === 0 && program.length === 32) {
    const witnessScript = witness[witness.length - 1];
    if (!witnessScript || !sameBytes(sha256(witnessScript), program)) {
      throw invalid('the witness script is not the address’s');
    }
    const keys = readKeyScript(witnessScript);
    if (!keys) throw inconclusive('the witness script is not a plain key or multisig script');
    checkKeyScript(keys, witness.slice(0, -1), (hashType) => witnessV0Sighash(tx, witnessScript, hashType));
    return;
  }
  if (version === 1 && program.length === 32) {
    if (witness.length !== 1) {
      throw inconclusive('taproot script paths and annexes cannot be checked here');
    }
    const signature = witness[0]!;
    const hashType = signature.length === 65 ? signature[64]! : SIGHASH_DEFAULT;
    if (signature.length !== 64 && !(signature.length === 65 && hashType === SIGHASH_ALL)) {
      throw invalid('a taproot signature is 64 bytes, or 65 ending with SIGHASH_ALL');
    }
    const prevoutScript = concat(Uint8Array.of(0x51, 32), program);
    const valid = schnorr.verify(
      signature.subarray(0, 64),
      taprootKeySighash(tx, prevoutScript, hashType),
      program,
    );
    if (!valid) throw invalid('the signature does not match the message, the address or its key');
    return;
  }
  throw inconclusive('segwit versions above 1 are reserved for upgrades');
}

/** Checks input 0 of `to_sign` against the address's output script. */
function verifyInput(tx: Tx, outputScript: Uint8Array): void {
  const input = tx.inputs[0]!;
  const witness = tx.witnesses?.[0] ?? [];
  const [first, second] = outputScript;
  // P2WPKH, P2WSH, P2TR: OP_n and one push of the program.
  if ((first === OP_0 || (first! >= 0x51 && first! <= 0x60)) && second === outputScript.length - 2) {
    if (input.finalScriptSig.length !== 0) throw invalid('a native segwit spend has an empty scriptSig');
    verifyWitnessProgram(tx, first === OP_0 ? 0 : first! - 0x50, outputScript.subarray(2), witness);
    return;
  }
  const pushes = pushesOf(input.finalScriptSig);
  // P2SH: OP_HASH160 <20> OP_EQUAL
  if (outputScript.length === 23 && first === 0xa9) {
    const redeemScript = pushes[pushes.length - 1];
    if (!redeemScript || !sameBytes(hash160(redeemScript), outputScript.subarray(2, 22))) {
      throw invalid('the redeem script is not the address’s');
    }
    const [version, length] = redeemScript;
    const nested = version === OP_0 && length === redeemScript.length - 2 && [20, 32].includes(length);
    if (nested) {
      if (pushes.length !== 1) throw invalid('a nested segwit scriptSig holds only the redeem script');
      verifyWitnessProgram(tx, 0, redeemScript.subarray(2), witness);
      return;
    }
    if (witness.length !== 0) throw invalid('a legacy P2SH spend has no witness');
    const keys = readKeyScript(redeemScript);
    if (!keys) throw inconclusive('the redeem script is not a plain key or multisig script');
    checkKeyScript(keys, pushes.slice(0, -1), (hashType) => legacySighash(tx, redeemScript, hashType));
    return;
  }
  // P2PKH: OP_DUP OP_HASH160 <20> OP_EQUALVERIFY OP_CHECKSIG
  if (outputScript.length === 25 && first === 0x76) {
    if (witness.length !== 0) throw invalid('a P2PKH spend has no witness');
    if (pushes.length !== 2) throw invalid('a P2PKH scriptSig holds a signature and a public key');
    const [signature, publicKey] = pushes as [Uint8Array, Uint8Array];
    if (!isPublicKey(publicKey)) throw invalid('the public key is malformed');
    if (!sameBytes(hash160(publicKey), outputScript.subarray(3, 23))) {
      throw invalid('the public key is not the address’s');
    }
    checkEcdsa(signature, publicKey, (hashType) => legacySighash(tx, outputScript, hashType));
    return;
  }
  throw inconclusive('this kind of address cannot be checked here');
}

/** The Bitcoin Core "signmessage" form: a 65-byte compact signature with a recovery header. */
function verifyLegacy(outputScript: Uint8Array, message: string, signature: Uint8Array): void {
  const header = signature[0]!;
  if (signature.length !== 65 || header < 27 || header > 34) {
    throw invalid('a legacy signature is 65 bytes with a header of 27 to 34');
  }
  const compressed = header >= 31;
  const recovery = (header - 27) & 3;
  const digest = sha256d(concat(withLength(utf8.decode(LEGACY_MAGIC)), withLength(utf8.decode(message))));
  let publicKey: Uint8Array;
  try {
    const point = secp256k1.Point.fromBytes(
      secp256k1.recoverPublicKey(concat(Uint8Array.of(recovery), signature.subarray(1)), digest, {
        prehash: false,
      }),
    );
    publicKey = point.toBytes(compressed);
  } catch {
    throw invalid('no key can have made this legacy signature');
  }
  if (!sameBytes(hash160(publicKey), outputScript.subarray(3, 23))) {
    throw invalid('the legacy signature was made by another key');
  }
}

function decodeBase64(text: string): Uint8Array {
  try {
    return base64.decode(text);
  } catch {
    throw invalid('the signature is not valid base64');
  }
}

function checkToSign(tx: Tx, toSpendTxid: Uint8Array): void {
  if (tx.inputs.length === 0) throw invalid('to_sign has no input');
  const input = tx.inputs[0]!;
  if (!sameBytes(input.txid, toSpendTxid) || input.index !== 0) {
    throw invalid('to_sign does not spend to_spend: the message or the address differ');
  }
  if (
    tx.outputs.length !== 1 ||
    tx.outputs[0]!.amount !== 0n ||
    !sameBytes(tx.outputs[0]!.script, Uint8Array.of(OP_RETURN))
  ) {
    throw invalid('to_sign must have exactly one output: 0 to OP_RETURN');
  }
  if (tx.inputs.length > 1) throw inconclusive('proofs of funds (extra inputs) are not checked here');
  if (tx.version !== 0 && tx.version !== 2) throw inconclusive('to_sign has a version other than 0 or 2');
}

function decodeFull(bytes: Uint8Array): Tx {
  try {
    return RawTx.decode(bytes);
  } catch {
    throw invalid('the signature is not a transaction');
  }
}

/**
 * BIP-322 verification of `signature` over `message` by `address` (any network). Never throws: a
 * verdict says valid, invalid (with what failed) or inconclusive (a script this verifier cannot run).
 */
export function verifyBip322(address: string, message: string, signature: string): Bip322Verdict {
  try {
    const reading = readBitcoinAddress(address);
    if (!reading.ok) throw invalid(`the address is refused: ${reading.message}`);
    const outputScript = reading.address.outputScript;
    const toSpend = toSpendTransaction(message, outputScript);
    const toSpendTxid = txidOf(toSpend);
    const prefix = signature.slice(0, 3);
    const simple = (witness: Uint8Array[]): Tx => ({
      version: 0,
      inputs: [{ txid: toSpendTxid, index: 0, finalScriptSig: new Uint8Array(), sequence: 0 }],
      outputs: [{ amount: 0n, script: Uint8Array.of(OP_RETURN) }],
      witnesses: [witness],
      lockTime: 0,
    });
    const readWitness = (bytes: Uint8Array): Uint8Array[] => {
      try {
        return RawWitness.decode(bytes);
      } catch {
        throw invalid('the signature is not a witness stack');
      }
    };

    let toSign: Tx;
    if (prefix === 'pof') throw inconclusive('proofs of funds are not checked here');
    if (prefix === 'smp' || prefix === 'ful') {
      const bytes = decodeBase64(signature.slice(3));
      if (bytes.length === 0) throw invalid('the signature is too short');
      toSign = prefix === 'smp' ? simple(readWitness(bytes)) : decodeFull(bytes);
    } else {
      const bytes = decodeBase64(signature);
      if (bytes.length === 0) throw invalid('the signature is too short');
      if (reading.address.kind === 'p2pkh' && bytes.length === 65) {
        verifyLegacy(outputScript, message, bytes);
        return { result: 'valid' };
      }
      // Unprefixed, as written before the BIP added prefixes: a witness stack, else a whole to_sign.
      let witness: Uint8Array[] | null = null;
      try {
        witness = RawWitness.decode(bytes);
      } catch {
        witness = null;
      }
      toSign = witness ? simple(witness) : decodeFull(bytes);
    }
    checkToSign(toSign, toSpendTxid);
    verifyInput(toSign, outputScript);
    return { result: 'valid' };
  } catch (error) {
    if (error instanceof Refusal) return { result: error.result, reason: error.reason };
    return { result: 'invalid', reason: 'the signature cannot be decoded' };
  }
}
