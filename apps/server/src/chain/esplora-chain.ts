import { z } from 'zod';
import { txidOfRawTransaction } from './raw-transaction';
import { MAX_SATS } from '@offzero/shared/money/money';
import {
  ChainApiError,
  FEE_TIER_TARGET_BLOCKS,
  TransactionRejectedError,
  type ChainApi,
  type ChainOutput,
} from './chain-api';
import { createEsploraHttp, type EsploraHttp } from './esplora-http';

/**
 * The chain read from an Esplora HTTP API (Blockstream's esplora, mempool.space, a self-hosted electrs):
 * `baseUrl` is the API root, e.g. https://mempool.space/api or https://blockstream.info/testnet/api.
 *
 * Every answer is validated before use; an HTTP error, a timeout or an answer of the wrong shape becomes
 * a `ChainApiError`, so a misbehaving server can never credit a deposit that is not there.
 */

export interface EsploraChainOptions {
  baseUrl: string;
  /** Per request, body included. */
  timeoutMs?: number;
}

/** `/address/:address/txs` gives the mempool plus the newest 25 confirmed; each chain page gives 25. */
const CONFIRMED_PAGE_SIZE = 25;
/** The first page plus up to 9 confirmed pages: far beyond what a one-use deposit address receives. */
const MAX_PAGES = 10;
/** A fee estimate above this (sat/vB) is garbage, not a market. */
const MAX_FEE_RATE = 10_000;

/** 2.1e15: exact as a double. */
const MAX_SATS_NUMBER = Number(MAX_SATS);

const nonNegativeSafeInteger = z
  .number()
  .refine((n) => Number.isSafeInteger(n) && n >= 0, 'must be a non-negative whole number');

const esploraTransactionSchema = z.object({
  txid: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters')
    .transform((txid) => txid.toLowerCase()),
  // Each input's previous output; null for a coinbase input.
  vin: z.array(
    z.object({
      prevout: z.object({ scriptpubkey_address: z.string().nullish() }).nullish(),
    }),
  ),
  vout: z.array(
    z.object({
      // Absent (or null on some servers) for outputs with no address, such as OP_RETURN.
      scriptpubkey_address: z.string().nullish(),
      value: nonNegativeSafeInteger.refine((n) => n <= MAX_SATS_NUMBER, 'exceeds 21,000,000 BTC'),
    }),
  ),
  status: z
    .object({ confirmed: z.boolean(), block_height: nonNegativeSafeInteger.nullish() })
    .refine((status) => !status.confirmed || typeof status.block_height === 'number', {
      message: 'a confirmed transaction needs its block_height',
    }),
});

type EsploraTransaction = z.infer<typeof esploraTransactionSchema>;

const esploraTransactionsSchema = z.array(esploraTransactionSchema);

const feeEstimatesSchema = z.record(z.string(), z.unknown());

const addressStatsSchema = z.object({ tx_count: nonNegativeSafeInteger });
/** `GET /address/:address`: the address's confirmed and mempool statistics. */
const addressSummarySchema = z.object({ chain_stats: addressStatsSchema, mempool_stats: addressStatsSchema });
const esploraUtxosSchema = z.array(
  z.object({
    txid: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters')
      .transform((txid) => txid.toLowerCase()),
    vout: nonNegativeSafeInteger,
    value: nonNegativeSafeInteger.refine((n) => n <= MAX_SATS_NUMBER, 'exceeds 21,000,000 BTC'),
    status: z.object({ confirmed: z.boolean(), block_height: nonNegativeSafeInteger.nullish() }),
  }),
);

/** `GET /block/:hash`: what the watcher checks before reading the block's transactions. */
const esploraBlockSchema = z.object({
  id: z.string(),
  height: nonNegativeSafeInteger,
  tx_count: nonNegativeSafeInteger,
});

const txidSchema = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters')
  .transform((txid) => txid.toLowerCase());

const esploraTxStatusSchema = z.object({
  confirmed: z.boolean(),
  block_height: nonNegativeSafeInteger.nullish(),
});

const TXID_TEXT = /^[0-9a-f]{64}$/;
const RAW_TX_HEX = /^(?:[0-9a-f]{2}){60,400000}$/;
/** bitcoind's words for "this transaction is already known": broadcasting twice is not an error. */
const ALREADY_KNOWN = /already (?:in (?:the )?block ?chain|known)|txn-already-(?:in-mempool|known)/i;

/** Addresses are base58 or bech32: letters and digits only, so nothing can escape the URL path. */
const ADDRESS_IN_PATH = /^[a-zA-Z0-9]{1,100}$/;

/** A block's transactions come 25 to a page (`/block/:hash/txs/:start`). */
const BLOCK_PAGE_SIZE = 25;
/** Requests in flight at once when a block's pages or a batch of transactions are read. */
const PARALLEL_REQUESTS = 6;

/** The addressed outputs of one transaction (of one address only, when given). */
function outputsOfTransaction(tx: EsploraTransaction, onlyAddress?: string): ChainOutput[] {
  const blockHeight = tx.status.confirmed ? (tx.status.block_height ?? null) : null;
  const inputAddresses = [
    ...new Set(
      tx.vin.flatMap((input) =>
        input.prevout?.scriptpubkey_address ? [input.prevout.scriptpubkey_address] : [],
      ),
    ),
  ];
  const outputs: ChainOutput[] = [];
  tx.vout.forEach((output, vout) => {
    const address = output.scriptpubkey_address;
    if (!address || (onlyAddress !== undefined && address !== onlyAddress)) return;
    outputs.push({
      txid: tx.txid,
      vout,
      address,
      valueSats: BigInt(output.value),
      inputAddresses,
      blockHeight,
    });
  });
  return outputs;
}

/** Runs `work` over `items`, at most `limit` at a time; answers the results in the items' order. */
async function inParallel<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export function createEsploraChain({ baseUrl, timeoutMs = 10_000 }: EsploraChainOptions): ChainApi {
  const http = createEsploraHttp(baseUrl, timeoutMs);
  const { getText, postText, getJson } = http;
  return {
    kind: 'esplora',
    ...addressReads(http),
    ...tipAndFeeReads(http),

    async broadcast(txHex) {
      const hex = typeof txHex === 'string' ? txHex.trim().toLowerCase() : '';
      if (!RAW_TX_HEX.test(hex))
        throw new TransactionRejectedError('The transaction is not raw hexadecimal.');
      const { status, text } = await postText('/tx', hex);
      const answer = text.trim();
      if (status >= 200 && status < 300) {
        if (!TXID_TEXT.test(answer.toLowerCase())) {
          throw new ChainApiError('Esplora answered a broadcast with something that is not a txid.');
        }
        return answer.toLowerCase();
      }
      if (status === 400) {
        // A second broadcast of the same transaction: the network has it, which is what we wanted.
        if (ALREADY_KNOWN.test(answer)) return txidOfRawTransaction(hex);
        throw new TransactionRejectedError(`The network refused the transaction: ${answer.slice(0, 300)}`);
      }
      throw new ChainApiError(`Esplora answered HTTP ${status} for POST /tx.`, { status });
    },

    async blockHash(height) {
      if (!Number.isSafeInteger(height) || height < 0) {
        throw new ChainApiError('Cannot look up a block at a height that is not a whole number.');
      }
      let text: string;
      try {
        text = (await getText(`/block-height/${height}`)).trim().toLowerCase();
      } catch (error) {
        // Above the tip, Esplora answers 404 "Block not found".
        if (error instanceof ChainApiError && error.status === 404) return null;
        throw error;
      }
      if (!TXID_TEXT.test(text)) {
        throw new ChainApiError(`Esplora answered a block hash that is not 64 hexadecimal characters.`);
      }
      return text;
    },

    async blockOutputs(height, hash) {
      if (typeof hash !== 'string' || !TXID_TEXT.test(hash)) {
        throw new ChainApiError('Cannot look up a malformed block hash.');
      }
      const block = await getJson(`/block/${hash}`, esploraBlockSchema);
      if (block.height !== height || block.id.toLowerCase() !== hash) {
        throw new ChainApiError(`Esplora answered block ${hash} at height ${block.height}, not ${height}.`);
      }
      const starts = Array.from(
        { length: Math.ceil(block.tx_count / BLOCK_PAGE_SIZE) },
        (_, i) => i * BLOCK_PAGE_SIZE,
      );
      const pages = await inParallel(starts, PARALLEL_REQUESTS, (start) =>
        getJson(
          start === 0 ? `/block/${hash}/txs` : `/block/${hash}/txs/${start}`,
          esploraTransactionsSchema,
        ),
      );
      const transactions = pages.flat();
      if (transactions.length !== block.tx_count) {
        throw new ChainApiError(
          `Esplora answered ${transactions.length} transactions of block ${hash}, which has ${block.tx_count}.`,
        );
      }
      return transactions.flatMap((tx) => {
        // A transaction of this block must say it is confirmed in it.
        if (!tx.status.confirmed || tx.status.block_height !== height) {
          throw new ChainApiError(
            `Esplora answered transaction ${tx.txid} of block ${hash} at another height.`,
          );
        }
        return outputsOfTransaction(tx);
      });
    },

    async mempoolTxids() {
      return getJson('/mempool/txids', z.array(txidSchema));
    },

    async outputsOfTransactions(txids) {
      for (const txid of txids) {
        if (typeof txid !== 'string' || !TXID_TEXT.test(txid)) {
          throw new ChainApiError('Cannot look up a malformed transaction id.');
        }
      }
      const transactions = await inParallel(txids, PARALLEL_REQUESTS, async (txid) => {
        try {
          return await getJson(`/tx/${txid}`, esploraTransactionSchema);
        } catch (error) {
          // Confirmed or dropped between the mempool read and this one: not an error.
          if (error instanceof ChainApiError && (error.status === 404 || error.status === 400)) return null;
          throw error;
        }
      });
      return transactions.flatMap((tx) => (tx ? outputsOfTransaction(tx) : []));
    },

    async transactionStatus(txid) {
      if (typeof txid !== 'string' || !TXID_TEXT.test(txid)) {
        throw new ChainApiError('Cannot look up a malformed transaction id.');
      }
      let status: z.infer<typeof esploraTxStatusSchema>;
      try {
        status = await getJson(`/tx/${txid}/status`, esploraTxStatusSchema);
      } catch (error) {
        if (error instanceof ChainApiError && (error.status === 404 || error.status === 400)) return null;
        throw error;
      }
      return { blockHeight: status.confirmed ? (status.block_height ?? null) : null };
    },
  };
}

/** What the chain knows of one address: its outputs, whether it was ever used, its unspent coins. */
function addressReads(http: EsploraHttp): Pick<ChainApi, 'outputsTo' | 'hasHistory' | 'utxos'> {
  const { getJson } = http;
  return {
    async outputsTo(address) {
      if (typeof address !== 'string' || !ADDRESS_IN_PATH.test(address)) {
        throw new ChainApiError('Cannot look up a malformed bitcoin address.');
      }
      return (await transactionsOf(http, address)).flatMap((tx) => outputsOfTransaction(tx, address));
    },

    async hasHistory(address) {
      if (typeof address !== 'string' || !ADDRESS_IN_PATH.test(address)) {
        throw new ChainApiError('Cannot look up a malformed bitcoin address.');
      }
      const summary = await getJson(`/address/${encodeURIComponent(address)}`, addressSummarySchema);
      return summary.chain_stats.tx_count + summary.mempool_stats.tx_count > 0;
    },

    async utxos(address) {
      if (typeof address !== 'string' || !ADDRESS_IN_PATH.test(address)) {
        throw new ChainApiError('Cannot look up a malformed bitcoin address.');
      }
      const utxos = await getJson(`/address/${encodeURIComponent(address)}/utxo`, esploraUtxosSchema);
      return utxos.map((utxo) => ({
        txid: utxo.txid,
        vout: utxo.vout,
        valueSats: BigInt(utxo.value),
        blockHeight: utxo.status.confirmed ? (utxo.status.block_height ?? null) : null,
      }));
    },
  };
}

/** The chain's tip and its fee estimates. */
function tipAndFeeReads({
  getText,
  getJson,
}: EsploraHttp): Pick<ChainApi, 'tipHeight' | 'feeRate' | 'feeRateFor'> {
  return {
    async tipHeight() {
      const text = (await getText('/blocks/tip/height')).trim();
      const height = /^[0-9]{1,12}$/.test(text) ? Number(text) : Number.NaN;
      if (!Number.isSafeInteger(height)) {
        throw new ChainApiError('Esplora answered a tip height that is not a whole number.');
      }
      return height;
    },

    async feeRate() {
      const estimates = await getJson('/fee-estimates', feeEstimatesSchema);
      for (const target of ['3', '2', '1']) {
        const rate = estimates[target];
        if (rate === undefined) continue;
        if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0 || rate > MAX_FEE_RATE) {
          throw new ChainApiError(`Esplora answered an implausible fee estimate for ${target} blocks.`);
        }
        return rate;
      }
      throw new ChainApiError('Esplora answered no fee estimate for 1 to 3 blocks.');
    },

    async feeRateFor(tier) {
      const estimates = await getJson('/fee-estimates', feeEstimatesSchema);
      // The tier's own target first, then faster ones: a faster estimate is never too low.
      for (let target = FEE_TIER_TARGET_BLOCKS[tier]; target >= 1; target -= 1) {
        const rate = estimates[String(target)];
        if (rate === undefined) continue;
        if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0 || rate > MAX_FEE_RATE) {
          throw new ChainApiError(`Esplora answered an implausible fee estimate for ${target} blocks.`);
        }
        return rate;
      }
      throw new ChainApiError(`Esplora answered no fee estimate for the ${tier} tier.`);
    },
  };
}

/** Every transaction of the address: the mempool and up to MAX_PAGES pages of confirmed ones. */
async function transactionsOf({ getJson }: EsploraHttp, address: string): Promise<EsploraTransaction[]> {
  const encoded = encodeURIComponent(address);
  const byTxid = new Map<string, EsploraTransaction>();
  /** Adds a page; answers how many transactions it had that were not seen before. */
  const add = (page: EsploraTransaction[]): number => {
    let fresh = 0;
    for (const tx of page) {
      const known = byTxid.get(tx.txid);
      if (!known) fresh += 1;
      // Between two page reads a transaction can confirm and show up twice: keep the confirmed view.
      if (!known || (!known.status.confirmed && tx.status.confirmed)) byTxid.set(tx.txid, tx);
    }
    return fresh;
  };

  const firstPage = await getJson(`/address/${encoded}/txs`, esploraTransactionsSchema);
  add(firstPage);
  let confirmed = firstPage.filter((tx) => tx.status.confirmed);
  for (let pages = 1; pages < MAX_PAGES && confirmed.length >= CONFIRMED_PAGE_SIZE; pages += 1) {
    const lastSeen = confirmed[confirmed.length - 1]!.txid;
    const page = await getJson(`/address/${encoded}/txs/chain/${lastSeen}`, esploraTransactionsSchema);
    // A server that ignores the cursor would repeat itself forever.
    if (add(page) === 0) break;
    confirmed = page.filter((tx) => tx.status.confirmed);
  }
  return [...byTxid.values()];
}
