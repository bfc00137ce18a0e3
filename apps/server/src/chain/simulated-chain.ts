import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { sha256 } from '@noble/hashes/sha2.js';
import { hex } from '@scure/base';
import { MAX_SATS, type Sats } from '@offzero/shared/money/money';
import type { Database } from '../db/database';
import { simChainState, simChainTransactions } from '../db/schema';
import {
  ChainApiError,
  TransactionRejectedError,
  type ChainApi,
  type ChainOutput,
  type FeeTier,
} from './chain-api';
import {
  btcSignerNetwork,
  parseRawTransaction,
  type BitcoinNetworkName,
  type ParsedTransaction,
} from './raw-transaction';
import { acceptTransaction, dropTransaction } from './simulated-mempool';

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
  /**
   * A confirmed output of `valueSats` to `address` under a fixed `txid`, created once however often it
   * is called (demo wallet funding at start, from several processes).
   */
  fundOnce(txid: string, address: string, valueSats: Sats): Promise<void>;
  /** Mines 1 to 100 blocks; every transaction in the mempool confirms in the first of them. */
  mine(blocks?: number): Promise<{ height: number }>;
  /** Removes a transaction from the chain; answers false when no such transaction is on it. */
  drop(txid: string): Promise<boolean>;
}

/** The tip of a fresh demo chain. */
export const SIMULATED_CHAIN_START_HEIGHT = 200_000;
export const MAX_BLOCKS_PER_MINE = 100;

const TXID = /^[0-9a-f]{64}$/;

/** Each tier's simulated fee market, in sat/vB: a calm network. */
const SIMULATED_FEE_RATES: Record<FeeTier, { low: number; spread: number }> = {
  economy: { low: 2, spread: 3 },
  standard: { low: 8, spread: 7 },
  priority: { low: 20, spread: 10 },
};

/** One recorded output as the chain interface answers it. */
function outputOfRow(row: typeof simChainTransactions.$inferSelect): ChainOutput {
  return {
    txid: row.txid,
    vout: row.vout,
    address: row.address,
    valueSats: row.valueSats,
    inputAddresses: row.fromAddress ? [row.fromAddress] : [],
    blockHeight: row.blockHeight,
  };
}

/** The chain's tip row and the hash of each block up to it. */
interface SimulatedTip {
  /** Creates the tip row on first use; several processes may race here, the first insert wins. */
  ensureState: () => Promise<void>;
  tipHeight: () => Promise<number>;
  blockHash: (height: number) => Promise<string | null>;
}

function createSimulatedTip(db: Database): SimulatedTip {
  let stateReady: Promise<void> | null = null;

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

  async function blockHash(height: number): Promise<string | null> {
    if (!Number.isSafeInteger(height) || height < 0) return null;
    if (height > (await tipHeight())) return null;
    // Each block's hash covers everything confirmed up to it, as a real chain's hashes chain to their
    // parents: dropping a confirmed transaction changes the hash of its block and of every later one.
    const result: unknown = await db.execute(sql`
      select md5(coalesce(string_agg(${simChainTransactions.txid} || ':' || ${simChainTransactions.vout}
        || '@' || ${simChainTransactions.blockHeight}, ',' order by ${simChainTransactions.blockHeight},
        ${simChainTransactions.txid}, ${simChainTransactions.vout}), '')) as digest
      from ${simChainTransactions}
      where ${simChainTransactions.dropped} = false and ${simChainTransactions.blockHeight} <= ${height}`);
    const digest = String((result as { rows: { digest: string }[] }).rows[0]?.digest ?? '');
    return hex.encode(sha256(new TextEncoder().encode(`${height}:${digest}`)));
  }

  return { ensureState, tipHeight, blockHash };
}

export function createSimulatedChain(db: Database, network: BitcoinNetworkName = 'testnet'): SimulatedChain {
  const params = btcSignerNetwork(network);
  const tip = createSimulatedTip(db);
  return {
    kind: 'simulated',
    ...recordedOutputReads(db, tip),
    tipHeight: tip.tipHeight,
    blockHash: tip.blockHash,

    async feeRate() {
      // A calm network: 8 to 15 sat/vB, to one decimal.
      return Math.round((8 + Math.random() * 7) * 10) / 10;
    },

    async feeRateFor(tier) {
      const { low, spread } = SIMULATED_FEE_RATES[tier];
      return Math.round((low + Math.random() * spread) * 10) / 10;
    },

    async broadcast(txHex) {
      let parsed: ParsedTransaction;
      try {
        parsed = parseRawTransaction(txHex, network);
      } catch (error) {
        throw new TransactionRejectedError(
          error instanceof Error ? error.message : 'Unparsable transaction.',
        );
      }
      return db.transaction((tx) => acceptTransaction(tx, parsed, params));
    },

    ...demoControls(db, tip),
  };
}

/** What the chain interface reads of the recorded transactions (dropped ones are gone). */
function recordedOutputReads(
  db: Database,
  tip: SimulatedTip,
): Pick<
  ChainApi,
  | 'outputsTo'
  | 'hasHistory'
  | 'utxos'
  | 'transactionStatus'
  | 'blockOutputs'
  | 'mempoolTxids'
  | 'outputsOfTransactions'
> {
  return {
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
      return rows.map(outputOfRow);
    },

    async hasHistory(address) {
      const [row] = await db
        .select({ txid: simChainTransactions.txid })
        .from(simChainTransactions)
        .where(and(eq(simChainTransactions.address, address), eq(simChainTransactions.dropped, false)))
        .limit(1);
      return row !== undefined;
    },

    async utxos(address) {
      const rows = await db
        .select()
        .from(simChainTransactions)
        .where(
          and(
            eq(simChainTransactions.address, address),
            eq(simChainTransactions.dropped, false),
            isNull(simChainTransactions.spentByTxid),
          ),
        )
        .orderBy(asc(simChainTransactions.createdAt), asc(simChainTransactions.txid));
      return rows.map((row) => ({
        txid: row.txid,
        vout: row.vout,
        valueSats: row.valueSats,
        blockHeight: row.blockHeight,
      }));
    },

    async transactionStatus(txid) {
      if (typeof txid !== 'string' || !TXID.test(txid)) return null;
      const [row] = await db
        .select({ blockHeight: simChainTransactions.blockHeight })
        .from(simChainTransactions)
        .where(and(eq(simChainTransactions.txid, txid), eq(simChainTransactions.dropped, false)))
        .limit(1);
      return row ? { blockHeight: row.blockHeight } : null;
    },

    async blockOutputs(height, hash) {
      if ((await tip.blockHash(height)) !== hash) {
        throw new ChainApiError(`Block ${hash} is no longer at height ${height}.`);
      }
      const rows = await db
        .select()
        .from(simChainTransactions)
        .where(and(eq(simChainTransactions.blockHeight, height), eq(simChainTransactions.dropped, false)))
        .orderBy(
          asc(simChainTransactions.createdAt),
          asc(simChainTransactions.txid),
          asc(simChainTransactions.vout),
        );
      return rows.map(outputOfRow);
    },

    async mempoolTxids() {
      const rows = await db
        .selectDistinct({ txid: simChainTransactions.txid })
        .from(simChainTransactions)
        .where(and(isNull(simChainTransactions.blockHeight), eq(simChainTransactions.dropped, false)));
      return rows.map((row) => row.txid);
    },

    async outputsOfTransactions(txids) {
      if (txids.length === 0) return [];
      const rows = await db
        .select()
        .from(simChainTransactions)
        .where(and(inArray(simChainTransactions.txid, txids), eq(simChainTransactions.dropped, false)))
        .orderBy(
          asc(simChainTransactions.createdAt),
          asc(simChainTransactions.txid),
          asc(simChainTransactions.vout),
        );
      return rows.map(outputOfRow);
    },
  };
}

/** What `/api/dev/chain/*` and the demo wallet do to the chain: fund, send, mine, drop. */
function demoControls(
  db: Database,
  tip: SimulatedTip,
): Pick<SimulatedChain, 'fundOnce' | 'send' | 'mine' | 'drop'> {
  return {
    async fundOnce(txid, address, valueSats) {
      if (!TXID.test(txid)) throw new TypeError('A funding txid is 64 lowercase hexadecimal characters.');
      const height = await tip.tipHeight();
      await db
        .insert(simChainTransactions)
        .values({ txid, vout: 0, address, valueSats, blockHeight: height })
        .onConflictDoNothing();
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
      await tip.ensureState();
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
      return db.transaction(async (tx) => (await dropTransaction(tx, txid)) > 0);
    },
  };
}
