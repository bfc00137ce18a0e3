import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { MAX_SATS, type Sats } from '@offzero/shared/money/money';
import type { Database } from '../db/database';
import { simChainState, simChainTransactions } from '../db/schema';
import type { ChainApi, ChainOutput } from './chain-api';

/**
 * The demo chain: a stand-in for the bitcoin network that lives in the database, so every server
 * process (and every watcher in them) sees the same transactions and the same tip. `/api/dev/chain/*`
 * drives it: `send` puts a one-output transaction in the mempool, `mine` confirms everything waiting at
 * the first new block, `drop` makes a transaction vanish as a fee replacement or a reorganisation would.
 */
export interface SimulatedChain extends ChainApi {
  kind: 'simulated';
  /**
   * A new transaction paying `valueSats` to `address` at vout 0, waiting in the mempool; `from` is the
   * address its one input spends from (what the sanctions screening of a deposit reads).
   */
  send(address: string, valueSats: Sats, from?: string): Promise<{ txid: string }>;
  /** Mines 1 to 100 blocks; every transaction in the mempool confirms in the first of them. */
  mine(blocks?: number): Promise<{ height: number }>;
  /** Removes a transaction from the chain; answers false when no such transaction is on it. */
  drop(txid: string): Promise<boolean>;
}

/** The tip of a fresh demo chain. */
export const SIMULATED_CHAIN_START_HEIGHT = 200_000;
export const MAX_BLOCKS_PER_MINE = 100;

const TXID = /^[0-9a-f]{64}$/;

export function createSimulatedChain(db: Database): SimulatedChain {
  let stateReady: Promise<void> | null = null;

  /** Creates the tip row on first use; several processes may race here, the first insert wins. */
  function ensureState(): Promise<void> {
    stateReady ??= db
      .insert(simChainState)
      .values({ id: 1, tipHeight: SIMULATED_CHAIN_START_HEIGHT })
      .onConflictDoNothing()
      .then(() => undefined)
      .catch((error: unknown) => {
        stateReady = null;
        throw error;
      });
    return stateReady;
  }

  async function tipHeight(): Promise<number> {
    await ensureState();
    const [state] = await db
      .select({ tipHeight: simChainState.tipHeight })
      .from(simChainState)
      .where(eq(simChainState.id, 1));
    if (!state) throw new Error('The simulated chain has no tip row.');
    return state.tipHeight;
  }

  return {
    kind: 'simulated',

    async outputsTo(address) {
      const rows = await db
        .select()
        .from(simChainTransactions)
        .where(and(eq(simChainTransactions.address, address), eq(simChainTransactions.dropped, false)))
        .orderBy(
          asc(simChainTransactions.createdAt),
          asc(simChainTransactions.txid),
          asc(simChainTransactions.vout),
        );
      return rows.map((row): ChainOutput => ({
        txid: row.txid,
        vout: row.vout,
        address: row.address,
        valueSats: row.valueSats,
        inputAddresses: row.fromAddress ? [row.fromAddress] : [],
        blockHeight: row.blockHeight,
      }));
    },

    async hasHistory(address) {
      const [row] = await db
        .select({ txid: simChainTransactions.txid })
        .from(simChainTransactions)
        .where(and(eq(simChainTransactions.address, address), eq(simChainTransactions.dropped, false)))
        .limit(1);
      return row !== undefined;
    },

    tipHeight,

    async feeRate() {
      // A calm network: 8 to 15 sat/vB, to one decimal.
      return Math.round((8 + Math.random() * 7) * 10) / 10;
    },

    async send(address, valueSats, from) {
      if (typeof address !== 'string' || address.length === 0 || address.length > 100) {
        throw new TypeError('The simulated chain needs an address to send to.');
      }
      if (typeof valueSats !== 'bigint' || valueSats <= 0n || valueSats > MAX_SATS) {
        throw new RangeError('The simulated chain sends 1 satoshi to 21,000,000 BTC.');
      }
      if (from !== undefined && (typeof from !== 'string' || from.length === 0 || from.length > 100)) {
        throw new TypeError('The simulated chain needs a sending address of 1 to 100 characters.');
      }
      const txid = randomBytes(32).toString('hex');
      await db
        .insert(simChainTransactions)
        .values({ txid, vout: 0, address, valueSats, fromAddress: from ?? null, blockHeight: null });
      return { txid };
    },

    async mine(blocks = 1) {
      if (!Number.isSafeInteger(blocks) || blocks < 1 || blocks > MAX_BLOCKS_PER_MINE) {
        throw new RangeError(`Mine 1 to ${MAX_BLOCKS_PER_MINE} blocks at a time.`);
      }
      await ensureState();
      return db.transaction(async (tx) => {
        // The row lock taken here orders concurrent miners: each sees the tip the previous one left.
        const [state] = await tx
          .update(simChainState)
          .set({ tipHeight: sql`${simChainState.tipHeight} + ${blocks}` })
          .where(eq(simChainState.id, 1))
          .returning({ tipHeight: simChainState.tipHeight });
        if (!state) throw new Error('The simulated chain has no tip row.');
        await tx
          .update(simChainTransactions)
          .set({ blockHeight: state.tipHeight - blocks + 1 })
          .where(and(isNull(simChainTransactions.blockHeight), eq(simChainTransactions.dropped, false)));
        return { height: state.tipHeight };
      });
    },

    async drop(txid) {
      if (typeof txid !== 'string' || !TXID.test(txid)) return false;
      const dropped = await db
        .update(simChainTransactions)
        .set({ dropped: true })
        .where(and(eq(simChainTransactions.txid, txid), eq(simChainTransactions.dropped, false)))
        .returning({ txid: simChainTransactions.txid });
      return dropped.length > 0;
    },
  };
}
