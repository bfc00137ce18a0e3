import { hex } from '@scure/base';
import { Address, OutScript, Transaction, NETWORK, TEST_NETWORK } from '@scure/btc-signer';

/**
 * Reading raw bitcoin transactions (the hex a node relays), for the simulated chain and for Esplora's
 * "already known" answers. Built on @scure/btc-signer, the same library that builds the payout PSBTs.
 */

export type BitcoinNetworkName = 'mainnet' | 'testnet' | 'regtest';

/** @scure/btc-signer's address parameters for each network the server runs on. */
export function btcSignerNetwork(network: BitcoinNetworkName): typeof NETWORK {
  if (network === 'mainnet') return NETWORK;
  if (network === 'regtest') return { ...TEST_NETWORK, bech32: 'bcrt' };
  return TEST_NETWORK;
}

export interface ParsedTransaction {
  txid: string;
  inputs: { txid: string; vout: number; witness: Uint8Array[] }[];
  /** Each output with its address on `network`; null for scripts without one (OP_RETURN). */
  outputs: { vout: number; script: Uint8Array; address: string | null; valueSats: bigint }[];
  transaction: Transaction;
}

/** Parses a signed raw transaction; throws a TypeError with a plain message when it is not one. */
export function parseRawTransaction(txHex: string, network: BitcoinNetworkName): ParsedTransaction {
  if (typeof txHex !== 'string' || !/^(?:[0-9a-fA-F]{2})+$/.test(txHex)) {
    throw new TypeError('The transaction is not raw hexadecimal.');
  }
  let transaction: Transaction;
  try {
    transaction = Transaction.fromRaw(hex.decode(txHex.toLowerCase()), {
      allowUnknownOutputs: true,
      allowUnknownInputs: true,
      disableScriptCheck: true,
    });
  } catch (error) {
    throw new TypeError(
      `The transaction cannot be parsed: ${error instanceof Error ? error.message : 'invalid'}.`,
      { cause: error },
    );
  }
  const params = btcSignerNetwork(network);
  const inputs = [];
  for (let i = 0; i < transaction.inputsLength; i += 1) {
    const input = transaction.getInput(i);
    if (!input.txid || input.index === undefined) throw new TypeError('A transaction input has no outpoint.');
    inputs.push({ txid: hex.encode(input.txid), vout: input.index, witness: input.finalScriptWitness ?? [] });
  }
  const outputs = [];
  for (let vout = 0; vout < transaction.outputsLength; vout += 1) {
    const output = transaction.getOutput(vout);
    if (!output.script || output.amount === undefined)
      throw new TypeError('A transaction output is incomplete.');
    outputs.push({
      vout,
      script: output.script,
      address: addressOfScript(output.script, params),
      valueSats: output.amount,
    });
  }
  return { txid: transaction.id, inputs, outputs, transaction };
}

/** The txid of a raw transaction. */
export function txidOfRawTransaction(txHex: string): string {
  return Transaction.fromRaw(hex.decode(txHex.toLowerCase()), {
    allowUnknownOutputs: true,
    allowUnknownInputs: true,
    disableScriptCheck: true,
  }).id;
}

/** The address an output script pays on `network`, or null when it has none (OP_RETURN, bare scripts). */
export function addressOfScript(script: Uint8Array, params: typeof NETWORK): string | null {
  try {
    return Address(params).encode(OutScript.decode(script));
  } catch {
    return null;
  }
}
