/**
 * The one view of the bitcoin chain that the rest of the server uses: the outputs paid to an address,
 * the tip height and a fee estimate. Production reads an Esplora server (esplora-chain.ts); demo mode
 * uses the simulated chain kept in the database (simulated-chain.ts).
 */

export interface ChainOutput {
  txid: string;
  vout: number;
  address: string;
  valueSats: bigint;
  /**
   * The addresses the transaction spends from (its inputs' previous outputs), without repeats: the
   * sanctions screening of a deposit. Empty for a coinbase or when inputs have no standard address.
   */
  inputAddresses: string[];
  /** The height of the block that confirmed it; null while it waits in the mempool. */
  blockHeight: number | null;
}

export interface ChainApi {
  kind: 'esplora' | 'simulated';
  /** Every output paying this address, confirmed or in the mempool; a dropped transaction is absent. */
  outputsTo(address: string): Promise<ChainOutput[]>;
  /** The height of the newest block. */
  tipHeight(): Promise<number>;
  /**
   * Whether any transaction, confirmed or in the mempool, ever touched this address: an xpub payout
   * skips such an address, so a customer's address is never paid twice.
   */
  hasHistory(address: string): Promise<boolean>;
  /** The fee rate, in sat/vB, expected to confirm a transaction within about 3 blocks. */
  feeRate(): Promise<number>;
  /** The fee rate, in sat/vB, the network expects for a payout of this urgency. */
  feeRateFor(tier: FeeTier): Promise<number>;
  /** The outputs paying this address that no transaction (confirmed or in the mempool) spends yet. */
  utxos(address: string): Promise<ChainUtxo[]>;
  /**
   * Hands a fully signed transaction (raw hex) to the network and answers its txid. Sending one that
   * the network already has is harmless and answers the same txid.
   */
  broadcast(txHex: string): Promise<string>;
  /** Where a transaction is: null when the network does not know it (never seen, dropped or replaced). */
  transactionStatus(txid: string): Promise<{ blockHeight: number | null } | null>;
  /**
   * The hash of the block at `height` on the best chain; null above the tip. Hashes chain each block
   * to its parent, so an unchanged hash at one height means nothing below it changed either.
   */
  blockHash(height: number): Promise<string | null>;
  /**
   * Every output with an address in the block `hash`, which must be at `height` (a block replaced
   * meanwhile is a `ChainApiError`): what the deposit watcher matches against its open addresses.
   */
  blockOutputs(height: number, hash: string): Promise<ChainOutput[]>;
  /** The txids of every transaction waiting in the mempool. */
  mempoolTxids(): Promise<string[]>;
  /**
   * Every output with an address of these transactions, as the chain has them now; a transaction the
   * chain does not know is left out.
   */
  outputsOfTransactions(txids: string[]): Promise<ChainOutput[]>;
}

/** How soon a payout batch should confirm; each tier reads its own fee estimate. */
export const FEE_TIERS = ['economy', 'standard', 'priority'] as const;
export type FeeTier = (typeof FEE_TIERS)[number];

/** The confirmation target, in blocks, of each fee tier (Esplora's /fee-estimates keys). */
export const FEE_TIER_TARGET_BLOCKS: Record<FeeTier, number> = { priority: 1, standard: 3, economy: 6 };

export interface ChainUtxo {
  txid: string;
  vout: number;
  valueSats: bigint;
  /** The height of the block that confirmed it; null while it waits in the mempool. */
  blockHeight: number | null;
}

/** The network refused a transaction (double spend, bad signature, too low a fee...): not a transient failure. */
export class TransactionRejectedError extends Error {
  override name = 'TransactionRejectedError';
}

/** The chain source failed or answered something unusable (HTTP error, timeout, malformed data). */
export class ChainApiError extends Error {
  override name = 'ChainApiError';
  /** The HTTP status when the source answered with one. */
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
  }
}

/**
 * Confirmations of an output at the given tip: 0 in the mempool, 1 in the tip block, and so on. A
 * confirmed output counts at least 1 even when the tip read lags behind the block that confirmed it
 * (two load-balanced servers a block apart).
 */
export function confirmationsOf(output: Pick<ChainOutput, 'blockHeight'>, tipHeight: number): number {
  if (output.blockHeight === null) return 0;
  return Math.max(1, tipHeight - output.blockHeight + 1);
}
