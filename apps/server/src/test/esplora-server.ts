import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local chain behind an HTTP server that speaks the Esplora API (Blockstream's esplora, electrs,
 * mempool.space) in its real answer formats: the paths the server's Esplora adapter reads, with the
 * same shapes, page sizes and error answers. Used by the deposit watcher's tests and by
 * `npm run bench:scale`. Blocks chain their hashes to their parents, so a reorganisation changes the
 * hash of every replaced block; `requests` lists every path asked for, for counting.
 */

export interface EsploraTestOutput {
  address: string;
  valueSats: number;
}

interface StoredTransaction {
  txid: string;
  from: string;
  outputs: EsploraTestOutput[];
  /** Null while in the mempool. */
  block: StoredBlock | null;
}

interface StoredBlock {
  hash: string;
  height: number;
  time: number;
  transactions: StoredTransaction[];
}

export interface EsploraTestServer {
  /** The API root, e.g. http://127.0.0.1:41234/api */
  url: string;
  /** Every `METHOD path` asked for since the start or the last `resetRequests`. */
  requests: string[];
  resetRequests(): void;
  tipHeight(): number;
  /** A new transaction in the mempool paying these outputs, spending from `from`; answers its txid. */
  send(outputs: EsploraTestOutput[], from?: string): string;
  /** `count` transactions between strangers in the mempool (two outputs each). */
  addStrangers(count: number): void;
  /**
   * Mines `blocks` blocks: the first takes the whole mempool, and each gets `strangersPerBlock`
   * transactions between strangers besides. Answers the new tip height.
   */
  mine(blocks?: number, strangersPerBlock?: number): number;
  /**
   * Replaces the newest `depth` blocks by as many new ones: their transactions go back to the
   * mempool, except `dropped` ones, which leave the chain (a double spend won).
   */
  reorg(depth: number, dropped?: string[]): void;
  /** Removes a transaction waiting in the mempool (replaced, or expired from it). */
  dropFromMempool(txid: string): boolean;
  close(): Promise<void>;
}

const PAGE = 25;
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** A testnet-looking P2WPKH address nobody watches. */
export function strangerAddress(): string {
  const bytes = randomBytes(38);
  let text = 'tb1q';
  for (const byte of bytes) text += BECH32[byte % 32];
  return text;
}

export async function startEsploraTestServer(
  options: { startHeight?: number } = {},
): Promise<EsploraTestServer> {
  const blocks: StoredBlock[] = [];
  const mempool = new Map<string, StoredTransaction>();
  const byTxid = new Map<string, StoredTransaction>();
  const byAddress = new Map<string, StoredTransaction[]>();
  const requests: string[] = [];
  const baseHeight = options.startHeight ?? 800_000;
  let clock = 1_700_000_000;

  const index = (tx: StoredTransaction) => {
    byTxid.set(tx.txid, tx);
    for (const output of tx.outputs) {
      const list = byAddress.get(output.address) ?? [];
      if (!list.includes(tx)) list.push(tx);
      byAddress.set(output.address, list);
    }
  };
  const unindex = (tx: StoredTransaction) => {
    byTxid.delete(tx.txid);
    for (const output of tx.outputs) {
      const list = byAddress.get(output.address);
      if (list)
        byAddress.set(
          output.address,
          list.filter((other) => other !== tx),
        );
    }
  };
  const newTransaction = (outputs: EsploraTestOutput[], from = strangerAddress()): StoredTransaction => {
    const tx: StoredTransaction = { txid: randomBytes(32).toString('hex'), from, outputs, block: null };
    index(tx);
    return tx;
  };
  const stranger = () =>
    newTransaction([
      { address: strangerAddress(), valueSats: 10_000 + Math.floor(Math.random() * 5_000_000) },
      { address: strangerAddress(), valueSats: 1_000 + Math.floor(Math.random() * 100_000) },
    ]);

  const tip = () => blocks.at(-1)!;
  const addBlock = (transactions: StoredTransaction[]): StoredBlock => {
    const parent = blocks.at(-1);
    const height = parent ? parent.height + 1 : baseHeight;
    clock += 600;
    const hash = createHash('sha256')
      .update(
        `${parent?.hash ?? 'genesis'}:${height}:${clock}:${transactions.map((tx) => tx.txid).join(',')}:${randomBytes(8).toString('hex')}`,
      )
      .digest('hex');
    const block: StoredBlock = { hash, height, time: clock, transactions };
    for (const tx of transactions) {
      tx.block = block;
      mempool.delete(tx.txid);
    }
    blocks.push(block);
    return block;
  };
  addBlock([]);

  const status = (tx: StoredTransaction) =>
    tx.block
      ? {
          confirmed: true,
          block_height: tx.block.height,
          block_hash: tx.block.hash,
          block_time: tx.block.time,
        }
      : { confirmed: false };
  const script = (address: string) =>
    `0014${createHash('sha256').update(address).digest('hex').slice(0, 40)}`;
  const json = (tx: StoredTransaction) => ({
    txid: tx.txid,
    version: 2,
    locktime: 0,
    vin: [
      {
        txid: createHash('sha256').update(`prev:${tx.txid}`).digest('hex'),
        vout: 0,
        prevout: {
          scriptpubkey: script(tx.from),
          scriptpubkey_asm: `OP_0 OP_PUSHBYTES_20 ${script(tx.from).slice(4)}`,
          scriptpubkey_type: 'v0_p2wpkh',
          scriptpubkey_address: tx.from,
          value: tx.outputs.reduce((sum, output) => sum + output.valueSats, 0) + 200,
        },
        scriptsig: '',
        scriptsig_asm: '',
        witness: ['30440220' + '11'.repeat(64) + '01', '02' + '22'.repeat(32)],
        is_coinbase: false,
        sequence: 4294967293,
      },
    ],
    vout: tx.outputs.map((output) => ({
      scriptpubkey: script(output.address),
      scriptpubkey_asm: `OP_0 OP_PUSHBYTES_20 ${script(output.address).slice(4)}`,
      scriptpubkey_type: 'v0_p2wpkh',
      scriptpubkey_address: output.address,
      value: output.valueSats,
    })),
    size: 222,
    weight: 561,
    fee: 200,
    status: status(tx),
  });

  function answer(path: string): { status: number; body: string; type: string } {
    const text = (body: string, code = 200) => ({ status: code, body, type: 'text/plain' });
    const ok = (value: unknown) => ({ status: 200, body: JSON.stringify(value), type: 'application/json' });
    let match: RegExpMatchArray | null;
    if (path === '/blocks/tip/height') return text(String(tip().height));
    if (path === '/blocks/tip/hash') return text(tip().hash);
    if ((match = path.match(/^\/block-height\/(\d+)$/))) {
      const block = blocks[Number(match[1]) - baseHeight];
      return block ? text(block.hash) : text('Block not found', 404);
    }
    if ((match = path.match(/^\/block\/([0-9a-f]{64})(\/txs(?:\/(\d+))?)?$/))) {
      const block = blocks.find((candidate) => candidate.hash === match![1]);
      if (!block) return text('Block not found', 404);
      if (!match[2]) {
        return ok({
          id: block.hash,
          height: block.height,
          version: 536870912,
          timestamp: block.time,
          tx_count: block.transactions.length,
          size: 1_000 + block.transactions.length * 222,
          weight: 4_000 + block.transactions.length * 561,
          merkle_root: createHash('sha256').update(block.hash).digest('hex'),
          previousblockhash: blocks[block.height - baseHeight - 1]?.hash ?? null,
          mediantime: block.time - 3_000,
          nonce: 1,
          bits: 386089497,
          difficulty: 1,
        });
      }
      const start = Number(match[3] ?? 0);
      if (start % PAGE !== 0) return text('start index must be a multipication of 25', 400);
      if (start > 0 && start >= block.transactions.length) return text('start index out of range', 404);
      return ok(block.transactions.slice(start, start + PAGE).map(json));
    }
    if (path === '/mempool/txids') return ok([...mempool.keys()]);
    if (path === '/mempool') {
      return ok({
        count: mempool.size,
        vsize: mempool.size * 141,
        total_fee: mempool.size * 200,
        fee_histogram: [],
      });
    }
    if ((match = path.match(/^\/tx\/([0-9a-f]{64})(\/status)?$/))) {
      const tx = byTxid.get(match[1]!);
      if (!tx) return text('Transaction not found', 404);
      return ok(match[2] ? status(tx) : json(tx));
    }
    if ((match = path.match(/^\/address\/([a-zA-Z0-9]+)(\/txs(?:\/chain\/([0-9a-f]{64}))?)?$/))) {
      const all = byAddress.get(match[1]!) ?? [];
      const unconfirmed = all.filter((tx) => !tx.block).reverse();
      const confirmed = all.filter((tx) => tx.block).sort((a, b) => b.block!.height - a.block!.height);
      if (!match[2]) {
        const stats = (list: StoredTransaction[]) => ({
          funded_txo_count: list.length,
          funded_txo_sum: 0,
          spent_txo_count: 0,
          spent_txo_sum: 0,
          tx_count: list.length,
        });
        return ok({ address: match[1], chain_stats: stats(confirmed), mempool_stats: stats(unconfirmed) });
      }
      if (match[3]) {
        const after = confirmed.findIndex((tx) => tx.txid === match![3]);
        return ok(after < 0 ? [] : confirmed.slice(after + 1, after + 1 + PAGE).map(json));
      }
      return ok([...unconfirmed.slice(0, 50), ...confirmed.slice(0, PAGE)].map(json));
    }
    if (path === '/fee-estimates') return ok({ '1': 20.1, '2': 15.2, '3': 10.3, '6': 5.1, '144': 1.2 });
    return text('Not Found', 404);
  }

  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '/').replace(/^\/api/, '');
    requests.push(`${request.method} ${path}`);
    const { status: code, body, type } = answer(path);
    response.writeHead(code, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
  // Idle keep-alive connections stay open: a client reusing one the server just closed gets a reset.
  server.keepAliveTimeout = 10 * 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/api`,
    requests,
    resetRequests: () => void requests.splice(0),
    tipHeight: () => tip().height,
    send(outputs, from) {
      const tx = newTransaction(outputs, from);
      mempool.set(tx.txid, tx);
      return tx.txid;
    },
    addStrangers(count) {
      for (let i = 0; i < count; i += 1) {
        const tx = stranger();
        mempool.set(tx.txid, tx);
      }
    },
    mine(count = 1, strangersPerBlock = 0) {
      for (let i = 0; i < count; i += 1) {
        const waiting = i === 0 ? [...mempool.values()] : [];
        const extra = Array.from({ length: strangersPerBlock }, stranger);
        addBlock([...waiting, ...extra]);
      }
      return tip().height;
    },
    reorg(depth, dropped = []) {
      const removed = blocks.splice(blocks.length - depth, depth);
      for (const block of removed) {
        for (const tx of block.transactions) {
          tx.block = null;
          if (dropped.includes(tx.txid)) unindex(tx);
          else mempool.set(tx.txid, tx);
        }
      }
      for (let i = 0; i < depth; i += 1) addBlock([]);
    },
    dropFromMempool(txid) {
      const tx = mempool.get(txid);
      if (!tx) return false;
      mempool.delete(txid);
      unindex(tx);
      return true;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
