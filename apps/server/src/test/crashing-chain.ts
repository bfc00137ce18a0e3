import type { SimulatedChain } from '../chain/simulated-chain';

/**
 * The demo chain as tests of claim before send (docs/design.md) give it to the app: every call goes to
 * the real simulated chain, and the next send or broadcast can be made to reach the chain and then
 * fail, as a crash between sending and recording would.
 *
 * The simulated chain is made from the app's own database, so it exists only after the app: build the
 * app with `chain`, then `attach` the simulated chain. Funding the payout wallet at start is skipped
 * (the test funds it once the chain is attached, if it needs to).
 */
export interface CrashingChain {
  /** What the app is built with. */
  chain: SimulatedChain;
  attach(inner: SimulatedChain): void;
  /** The next `send` goes out, then throws. */
  failAfterNextSend(): void;
  /** The next `broadcast` reaches the chain, then throws. */
  failAfterNextBroadcast(): void;
}

export function createCrashingChain(): CrashingChain {
  let inner: SimulatedChain | null = null;
  let failSend = false;
  let failBroadcast = false;
  const real = (): SimulatedChain => {
    if (!inner) throw new Error('the simulated chain is not attached yet');
    return inner;
  };
  const chain: SimulatedChain = {
    kind: 'simulated',
    outputsTo: (address) => real().outputsTo(address),
    tipHeight: () => real().tipHeight(),
    feeRate: () => real().feeRate(),
    feeRateFor: (tier) => real().feeRateFor(tier),
    utxos: (address) => real().utxos(address),
    transactionStatus: (txid) => real().transactionStatus(txid),
    mine: (blocks) => real().mine(blocks),
    drop: (txid) => real().drop(txid),
    hasHistory: (address) => real().hasHistory(address),
    blockHash: (height) => real().blockHash(height),
    blockOutputs: (height, hash) => real().blockOutputs(height, hash),
    mempoolTxids: () => real().mempoolTxids(),
    outputsOfTransactions: (txids) => real().outputsOfTransactions(txids),
    fundOnce: async () => undefined,
    async send(address, valueSats, from) {
      const sent = await real().send(address, valueSats, from);
      if (failSend) {
        failSend = false;
        throw new Error('connection reset after the transaction was broadcast');
      }
      return sent;
    },
    async broadcast(txHex) {
      const txid = await real().broadcast(txHex);
      if (failBroadcast) {
        failBroadcast = false;
        throw new Error('connection reset after the transaction was relayed');
      }
      return txid;
    },
  };
  return {
    chain,
    attach: (simulated) => {
      inner = simulated;
    },
    failAfterNextSend: () => {
      failSend = true;
    },
    failAfterNextBroadcast: () => {
      failBroadcast = true;
    },
  };
}
