import { base64, hex } from '@scure/base';
import { OutScript, Address, Transaction } from '@scure/btc-signer';
import { btcSignerNetwork } from '../../chain/raw-transaction';
import { AppError } from '../../http/errors';
import type { PayoutWallet } from './payout-wallet';

/**
 * The payout transaction as a PSBT (BIP 174), built with @scure/btc-signer. Every input is a P2WPKH
 * output of the payout wallet with its BIP32 derivation (so a hardware wallet finds its key and checks
 * the change is its own) and signals replace-by-fee (BIP 125), so a batch that does not confirm can be
 * fee-bumped.
 */

/** nSequence that signals RBF (BIP 125) and allows no relative lock. */
export const RBF_SEQUENCE = 0xfffffffd;

export interface PsbtInput {
  txid: string;
  vout: number;
  valueSats: bigint;
  chain: 0 | 1;
  index: number;
}

export interface PsbtOutput {
  address: string;
  amountSats: bigint;
}

export interface PayoutPlan {
  inputs: PsbtInput[];
  /** The customers' outputs, in batch order. */
  payouts: PsbtOutput[];
  /** Back to the wallet (m/1/changeIndex); null when the rest is too small to be worth an output. */
  change: (PsbtOutput & { index: number }) | null;
}

export function buildPayoutPsbt(wallet: PayoutWallet, plan: PayoutPlan): string {
  const network = btcSignerNetwork(wallet.network);
  const tx = new Transaction({ version: 2 });
  for (const input of plan.inputs) {
    const key = wallet.derive(input.chain, input.index);
    tx.addInput({
      txid: input.txid,
      index: input.vout,
      sequence: RBF_SEQUENCE,
      witnessUtxo: { script: key.script, amount: input.valueSats },
      bip32Derivation: [[key.publicKey, { fingerprint: wallet.fingerprint, path: key.path }]],
    });
  }
  for (const payout of plan.payouts) tx.addOutputAddress(payout.address, payout.amountSats, network);
  if (plan.change) {
    const key = wallet.derive(1, plan.change.index);
    tx.addOutput({
      script: key.script,
      amount: plan.change.amountSats,
      bip32Derivation: [[key.publicKey, { fingerprint: wallet.fingerprint, path: key.path }]],
    });
  }
  return base64.encode(tx.toPSBT());
}

/** The size estimate of a P2WPKH-input transaction, in virtual bytes, rounded up. */
export function estimateVsize(inputCount: number, outputScripts: Uint8Array[]): number {
  // version + locktime + counts + segwit marker: 10.5 vB; a P2WPKH input: 41 + 108/4 = 68 vB.
  const outputs = outputScripts.reduce((sum, script) => sum + 8 + 1 + script.length, 0);
  return Math.ceil(10.5 + inputCount * 68 + outputs);
}

/** The output script an address pays, on the wallet's network; null when it is not an address of it. */
export function scriptOfAddress(wallet: PayoutWallet, address: string): Uint8Array | null {
  try {
    return OutScript.encode(Address(btcSignerNetwork(wallet.network)).decode(address));
  } catch {
    return null;
  }
}

export interface CheckedTransaction {
  txid: string;
  txHex: string;
  /** For each expected payout (same order as `plan.payouts`), the vout that pays it. */
  payoutVouts: number[];
}

const NOT_A_PSBT = 'This is not a PSBT: upload the signed PSBT file, or paste it as base64.';

/**
 * Finalizes a PSBT that came back from the operator's wallet and checks that the transaction is exactly
 * the planned one: the same inputs, each planned output once (same script, same amount), the change, and
 * nothing else. Anything else is refused with a message saying what differs.
 */
export function checkSignedPsbt(
  wallet: PayoutWallet,
  plan: PayoutPlan,
  signedBase64: string,
): CheckedTransaction {
  const text = typeof signedBase64 === 'string' ? signedBase64.replace(/\s+/g, '') : '';
  let tx: Transaction;
  try {
    tx = Transaction.fromPSBT(base64.decode(text));
  } catch {
    throw new AppError('BAD_REQUEST', NOT_A_PSBT);
  }

  const expectedInputs = new Set(plan.inputs.map((input) => `${input.txid}:${input.vout}`));
  if (tx.inputsLength !== plan.inputs.length) {
    throw new AppError(
      'BAD_REQUEST',
      `The signed transaction spends ${tx.inputsLength} coins, but the batch spends ${plan.inputs.length}. Sign the batch's own PSBT.`,
    );
  }
  for (let i = 0; i < tx.inputsLength; i += 1) {
    const input = tx.getInput(i);
    const outpoint = input.txid ? `${hex.encode(input.txid)}:${input.index ?? -1}` : '';
    if (!expectedInputs.delete(outpoint)) {
      throw new AppError(
        'BAD_REQUEST',
        `The signed transaction spends a coin that is not in the batch (${outpoint || 'unknown'}). Sign the batch's own PSBT.`,
      );
    }
  }

  const expected = [
    ...plan.payouts.map((payout, position) => ({
      script: scriptOfAddress(wallet, payout.address),
      amount: payout.amountSats,
      label: `${payout.address} (${payout.amountSats} sats)`,
      position,
    })),
    ...(plan.change
      ? [
          {
            script: wallet.derive(1, plan.change.index).script,
            amount: plan.change.amountSats,
            label: `the change to ${plan.change.address} (${plan.change.amountSats} sats)`,
            position: -1,
          },
        ]
      : []),
  ];
  if (tx.outputsLength !== expected.length) {
    throw new AppError(
      'BAD_REQUEST',
      `The signed transaction has ${tx.outputsLength} outputs, but the batch has ${expected.length}. It must pay exactly the batch's outputs and change.`,
    );
  }
  const payoutVouts = new Array<number>(plan.payouts.length).fill(-1);
  const unmatched = [...expected];
  for (let vout = 0; vout < tx.outputsLength; vout += 1) {
    const output = tx.getOutput(vout);
    const scriptHex = output.script ? hex.encode(output.script) : '';
    const at = unmatched.findIndex(
      (candidate) =>
        candidate.script && hex.encode(candidate.script) === scriptHex && candidate.amount === output.amount,
    );
    if (at < 0) {
      throw new AppError(
        'BAD_REQUEST',
        `Output ${vout} of the signed transaction is not one of the batch's outputs (a changed address or amount). It must pay exactly the batch's outputs and change.`,
      );
    }
    const [match] = unmatched.splice(at, 1);
    if (match && match.position >= 0) payoutVouts[match.position] = vout;
  }

  try {
    // Some wallets answer finalized inputs already; the others carry partial signatures to finalize.
    for (let i = 0; i < tx.inputsLength; i += 1) {
      if (!tx.getInput(i).finalScriptWitness) tx.finalizeIdx(i);
    }
  } catch {
    throw new AppError(
      'BAD_REQUEST',
      'The PSBT is not fully signed: sign every input in the payout wallet, then upload the signed PSBT.',
    );
  }
  let txHex: string;
  try {
    txHex = hex.encode(tx.extract());
  } catch {
    throw new AppError('BAD_REQUEST', 'The signed PSBT cannot be turned into a transaction. Sign it again.');
  }
  return { txid: tx.id, txHex, payoutVouts };
}
