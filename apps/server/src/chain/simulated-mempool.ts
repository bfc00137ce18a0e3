import { and, eq } from 'drizzle-orm';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { hex } from '@scure/base';
import { Address, OutScript } from '@scure/btc-signer';
import type { Transaction } from '../db/database';
import { simChainTransactions } from '../db/schema';
import { TransactionRejectedError } from './chain-api';
import type { btcSignerNetwork, ParsedTransaction } from './raw-transaction';

/**
 * The simulated chain's mempool rules for a real signed transaction (demo payout batches): known unspent
 * inputs, P2WPKH signatures, no double spend; and dropping a transaction as a replacement would.
 */

type SignerNetwork = ReturnType<typeof btcSignerNetwork>;

const SIGHASH_ALL = 1;

/** Removes a transaction: its outputs vanish and the outputs it spent are unspent again. */
export async function dropTransaction(tx: Transaction, txid: string): Promise<number> {
  const dropped = await tx
    .update(simChainTransactions)
    .set({ dropped: true })
    .where(and(eq(simChainTransactions.txid, txid), eq(simChainTransactions.dropped, false)))
    .returning({ txid: simChainTransactions.txid });
  await tx
    .update(simChainTransactions)
    .set({ spentByTxid: null })
    .where(eq(simChainTransactions.spentByTxid, txid));
  return dropped.length;
}

/**
 * What a node does with a relayed transaction, for P2WPKH spends (the payout wallet's kind): every
 * input must be an output the chain knows, unspent, and carry a valid signature by the key it pays;
 * the outputs must not add up to more than the inputs. A transaction spending an output that an
 * unconfirmed one already spends replaces it only when it pays a higher fee (full RBF, Bitcoin
 * Core's default); against a confirmed spend it is a double spend. The same transaction twice is
 * accepted once and answers the same txid.
 */
export async function acceptTransaction(
  tx: Transaction,
  parsed: ParsedTransaction,
  params: SignerNetwork,
): Promise<string> {
  const [known] = await tx
    .select({ txid: simChainTransactions.txid })
    .from(simChainTransactions)
    .where(and(eq(simChainTransactions.txid, parsed.txid), eq(simChainTransactions.dropped, false)))
    .limit(1);
  if (known) return parsed.txid;
  if (parsed.inputs.length === 0) throw new TransactionRejectedError('The transaction has no inputs.');

  let inputSats = 0n;
  const conflicting = new Set<string>();
  for (const [index, input] of parsed.inputs.entries()) {
    const [spent] = await tx
      .select()
      .from(simChainTransactions)
      .where(and(eq(simChainTransactions.txid, input.txid), eq(simChainTransactions.vout, input.vout)))
      .for('update');
    if (!spent || spent.dropped) {
      throw new TransactionRejectedError(
        `Input ${index} spends ${input.txid}:${input.vout}, an output the chain does not know (missing inputs).`,
      );
    }
    if (spent.spentByTxid && spent.spentByTxid !== parsed.txid) conflicting.add(spent.spentByTxid);
    verifyP2wpkhInput(parsed, index, spent.address, spent.valueSats, params);
    inputSats += spent.valueSats;
  }
  const outputSats = parsed.outputs.reduce((sum, output) => sum + output.valueSats, 0n);
  if (outputSats > inputSats) {
    throw new TransactionRejectedError('The outputs add up to more than the inputs.');
  }
  const fee = inputSats - outputSats;

  for (const other of conflicting) {
    const outputs = await tx
      .select()
      .from(simChainTransactions)
      .where(and(eq(simChainTransactions.txid, other), eq(simChainTransactions.dropped, false)));
    if (outputs.some((row) => row.blockHeight !== null)) {
      throw new TransactionRejectedError(
        'Double spend: an input is already spent by a confirmed transaction.',
      );
    }
    const spentByOther = await tx
      .select({ valueSats: simChainTransactions.valueSats })
      .from(simChainTransactions)
      .where(eq(simChainTransactions.spentByTxid, other));
    const otherFee =
      spentByOther.reduce((sum, row) => sum + row.valueSats, 0n) -
      outputs.reduce((sum, row) => sum + row.valueSats, 0n);
    if (fee <= otherFee) {
      throw new TransactionRejectedError(
        'Double spend: an input is already spent by a transaction in the mempool, and this one does not pay a higher fee.',
      );
    }
    await dropTransaction(tx, other);
  }

  for (const input of parsed.inputs) {
    await tx
      .update(simChainTransactions)
      .set({ spentByTxid: parsed.txid })
      .where(and(eq(simChainTransactions.txid, input.txid), eq(simChainTransactions.vout, input.vout)));
  }
  const recorded = parsed.outputs.filter(
    (output): output is typeof output & { address: string } =>
      output.address !== null && output.valueSats > 0n,
  );
  if (recorded.length > 0) {
    await tx.insert(simChainTransactions).values(
      recorded.map((output) => ({
        txid: parsed.txid,
        vout: output.vout,
        address: output.address,
        valueSats: output.valueSats,
        blockHeight: null,
      })),
    );
  }
  return parsed.txid;
}

/** Checks a P2WPKH input's witness: [DER signature + SIGHASH_ALL, compressed public key] of the paid key. */
function verifyP2wpkhInput(
  parsed: ParsedTransaction,
  index: number,
  address: string,
  valueSats: bigint,
  params: SignerNetwork,
): void {
  const [signature, publicKey] = parsed.inputs[index]!.witness;
  if (!signature || !publicKey || parsed.inputs[index]!.witness.length !== 2) {
    throw new TransactionRejectedError(`Input ${index} is not signed.`);
  }
  let decoded: { type: string; hash?: Uint8Array };
  try {
    decoded = OutScript.decode(OutScript.encode(Address(params).decode(address)));
  } catch {
    throw new TransactionRejectedError(`Input ${index} spends an output this chain cannot check.`);
  }
  if (decoded.type !== 'wpkh' || !decoded.hash) {
    throw new TransactionRejectedError(`Input ${index} spends a script other than P2WPKH.`);
  }
  if (hex.encode(ripemd160(sha256(publicKey))) !== hex.encode(decoded.hash)) {
    throw new TransactionRejectedError(`Input ${index} is signed by a key that does not own the output.`);
  }
  if (signature[signature.length - 1] !== SIGHASH_ALL) {
    throw new TransactionRejectedError(`Input ${index} does not sign with SIGHASH_ALL.`);
  }
  const scriptCode = OutScript.encode({ type: 'pkh', hash: decoded.hash });
  const digest = parsed.transaction.preimageWitnessV0(index, scriptCode, SIGHASH_ALL, valueSats);
  let valid: boolean;
  try {
    valid = secp256k1.verify(signature.subarray(0, -1), digest, publicKey, {
      prehash: false,
      format: 'der',
      lowS: false,
    });
  } catch {
    valid = false;
  }
  if (!valid) throw new TransactionRejectedError(`Input ${index} has an invalid signature.`);
}
