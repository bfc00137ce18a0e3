import { ChainApiError, type ChainOutput } from '../../../chain/chain-api';
import type { WatcherDeps } from './watcher-deps';

/** New mempool transactions read per pass at most; the rest wait for the next pass (or their block). */
export const MEMPOOL_TRANSACTIONS_PER_PASS = 2_000;

export interface MempoolRead {
  /** The outputs of the transactions read this pass. */
  outputs: ChainOutput[];
  /** The transactions read this pass, remembered once the pass has done its work. */
  unread: string[];
  /** Every txid in the mempool now; null when the chain server would not say. */
  inMempool: Set<string> | null;
}

/**
 * The mempool scan of one watcher: each pass reads only the transactions it has not read before. The
 * mempool only brings deposits forward (seen before their block): a chain server that will not answer
 * for it (rate limits) leaves the pass to the blocks, which find them at 1 confirmation.
 */
export function createMempoolScan() {
  /** Mempool transactions this process has read, kept while they stay in the mempool. */
  const examined = new Set<string>();
  return {
    async read(deps: WatcherDeps): Promise<MempoolRead> {
      try {
        const mempool = await deps.chain.mempoolTxids();
        const unread = mempool.filter((txid) => !examined.has(txid)).slice(0, MEMPOOL_TRANSACTIONS_PER_PASS);
        const outputs = unread.length > 0 ? await deps.chain.outputsOfTransactions(unread) : [];
        return { outputs, unread, inMempool: new Set(mempool) };
      } catch (error) {
        if (!(error instanceof ChainApiError)) throw error;
        deps.log.warn(
          { err: error },
          'deposit watcher: the mempool could not be read; following blocks only',
        );
        return { outputs: [], unread: [], inMempool: null };
      }
    },
    /** After the pass: what it read is not read again while it stays in the mempool. */
    remember(read: MempoolRead): void {
      for (const txid of read.unread) examined.add(txid);
      if (read.inMempool) for (const txid of examined) if (!read.inMempool.has(txid)) examined.delete(txid);
    },
  };
}
