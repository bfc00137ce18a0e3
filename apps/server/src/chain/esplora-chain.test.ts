import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChainApiError, confirmationsOf } from './chain-api';
import { createEsploraChain } from './esplora-chain';

/**
 * A local stand-in speaking Esplora's wire format. Each test sets `routes` (path → answer) and reads
 * `requests` to check which paths the client asked for.
 */
type Answer = { status?: number; body: string; contentType?: string } | 'hang';

let server: Server;
let baseUrl: string;
let routes: Record<string, Answer> = {};
let requests: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '';
    requests.push(`${request.method} ${path}`);
    const answer = routes[path] ?? { status: 404, body: 'Not Found', contentType: 'text/plain' };
    if (answer === 'hang') return;
    response.writeHead(answer.status ?? 200, { 'content-type': answer.contentType ?? 'application/json' });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // A trailing slash on purpose: paths must still join cleanly.
  baseUrl = `http://127.0.0.1:${port}/api/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  routes = {};
  requests = [];
});

const ADDRESS = 'tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl';
const OTHER = 'tb1qd7spv5q28348xl4myc8zmh983w5jx32cjhkn97';
/** The address the fake transactions spend from (their inputs' previous outputs). */
const FUNDER = 'tb1qn22l4fxz609uc3ztl0apnh6hq66efmws4x0vvc';

const txid = (n: number): string => n.toString(16).padStart(64, '0');

interface FakeTx {
  txid: string;
  vin: { prevout: { scriptpubkey_address?: string | null; value: number } | null; is_coinbase?: boolean }[];
  vout: { scriptpubkey_address?: string | null; value: unknown; scriptpubkey?: string }[];
  status: { confirmed: boolean; block_height?: unknown; block_hash?: string };
}

function tx(
  id: number,
  height: number | null,
  vout: FakeTx['vout'] = [{ scriptpubkey_address: ADDRESS, value: 1000 + id }],
  inputs: (string | null)[] = [FUNDER],
): FakeTx {
  return {
    txid: txid(id),
    // Esplora's input shape: the spent output in `prevout` (null for a coinbase input).
    vin: inputs.map((address, index) => ({
      txid: txid(0xf000 + index),
      vout: index,
      prevout:
        address === null
          ? null
          : {
              scriptpubkey: '0014ffff',
              scriptpubkey_type: 'v0_p2wpkh',
              scriptpubkey_address: address,
              value: 50_000,
            },
      scriptsig: '',
      witness: [],
      is_coinbase: address === null,
      sequence: 4294967293,
    })),
    vout: vout.map((output) => ({ scriptpubkey: '0014abcd', ...output })),
    status:
      height === null ? { confirmed: false } : { confirmed: true, block_height: height, block_hash: 'ff' },
  };
}

const json = (value: unknown): Answer => ({ body: JSON.stringify(value) });
const chain = (timeoutMs?: number) => createEsploraChain({ baseUrl, ...(timeoutMs ? { timeoutMs } : {}) });
const txsPath = (address = ADDRESS) => `/api/address/${address}/txs`;
const chainPath = (lastSeen: string) => `/api/address/${ADDRESS}/txs/chain/${lastSeen}`;

async function chainError(promise: Promise<unknown>): Promise<ChainApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ChainApiError);
  return error as ChainApiError;
}

describe('outputsTo', () => {
  it('lists the outputs to the address from mempool and confirmed transactions', async () => {
    routes[txsPath()] = json([
      tx(1, null),
      tx(2, 850_000, [
        { scriptpubkey_address: OTHER, value: 5 },
        { scriptpubkey_address: ADDRESS, value: 250_000 },
        { value: 0 },
        { scriptpubkey_address: null, value: 0 },
        { scriptpubkey_address: ADDRESS, value: 0 },
      ]),
      tx(3, 849_990, [{ scriptpubkey_address: OTHER, value: 7 }]),
    ]);
    const outputs = await chain().outputsTo(ADDRESS);
    expect(requests).toEqual([`GET ${txsPath()}`]);
    expect(outputs).toEqual([
      {
        txid: txid(1),
        vout: 0,
        address: ADDRESS,
        valueSats: 1001n,
        inputAddresses: [FUNDER],
        blockHeight: null,
      },
      {
        txid: txid(2),
        vout: 1,
        address: ADDRESS,
        valueSats: 250_000n,
        inputAddresses: [FUNDER],
        blockHeight: 850_000,
      },
      {
        txid: txid(2),
        vout: 4,
        address: ADDRESS,
        valueSats: 0n,
        inputAddresses: [FUNDER],
        blockHeight: 850_000,
      },
    ]);
    expect(outputs.map((output) => confirmationsOf(output, 850_001))).toEqual([0, 2, 2]);
  });

  it('names the input addresses of each transaction, once each, skipping coinbase inputs', async () => {
    routes[txsPath()] = json([
      tx(1, null, undefined, [FUNDER, OTHER, FUNDER]),
      tx(2, 10, undefined, [null]),
      { ...tx(3, 10), vin: [{ prevout: { scriptpubkey: '6a', value: 0 } }] },
    ]);
    const outputs = await chain().outputsTo(ADDRESS);
    expect(outputs.map((output) => output.inputAddresses)).toEqual([[FUNDER, OTHER], [], []]);
  });

  it('answers no outputs for an address with no history', async () => {
    routes[txsPath()] = json([]);
    expect(await chain().outputsTo(ADDRESS)).toEqual([]);
  });

  it('follows confirmed pages after the last seen txid', async () => {
    const mempool = [tx(1, null), tx(2, null)];
    const page1 = Array.from({ length: 25 }, (_, i) => tx(100 + i, 900 - i));
    const page2 = Array.from({ length: 25 }, (_, i) => tx(200 + i, 800 - i));
    const page3 = Array.from({ length: 3 }, (_, i) => tx(300 + i, 700 - i));
    routes[txsPath()] = json([...mempool, ...page1]);
    routes[chainPath(txid(124))] = json(page2);
    routes[chainPath(txid(224))] = json(page3);

    const outputs = await chain().outputsTo(ADDRESS);
    expect(requests).toEqual([
      `GET ${txsPath()}`,
      `GET ${chainPath(txid(124))}`,
      `GET ${chainPath(txid(224))}`,
    ]);
    expect(outputs).toHaveLength(2 + 25 + 25 + 3);
    expect(outputs.at(-1)).toEqual({
      txid: txid(302),
      vout: 0,
      address: ADDRESS,
      valueSats: 1302n,
      inputAddresses: [FUNDER],
      blockHeight: 698,
    });
  });

  it('does not ask for more pages when the first has fewer than 25 confirmed', async () => {
    routes[txsPath()] = json([...Array.from({ length: 30 }, (_, i) => tx(i + 1, null)), tx(99, 5)]);
    expect(await chain().outputsTo(ADDRESS)).toHaveLength(31);
    expect(requests).toHaveLength(1);
  });

  it('reads at most 10 pages', async () => {
    let next = 1;
    const fullPage = () => Array.from({ length: 25 }, () => tx(next++, 1000));
    let page = fullPage();
    routes[txsPath()] = json(page);
    for (let i = 0; i < 12; i += 1) {
      const following = fullPage();
      routes[chainPath(page[24]!.txid)] = json(following);
      page = following;
    }
    const outputs = await chain().outputsTo(ADDRESS);
    expect(requests).toHaveLength(10);
    expect(outputs).toHaveLength(250);
  });

  it('stops when a server ignores the cursor and repeats a page', async () => {
    const page = Array.from({ length: 25 }, (_, i) => tx(i + 1, 1000 - i));
    routes[txsPath()] = json(page);
    routes[chainPath(txid(25))] = json(page);
    expect(await chain().outputsTo(ADDRESS)).toHaveLength(25);
    expect(requests).toHaveLength(2);
  });

  it('keeps the confirmed view of a transaction that confirmed between two page reads', async () => {
    const page1 = [tx(1, null), ...Array.from({ length: 25 }, (_, i) => tx(100 + i, 900 - i))];
    routes[txsPath()] = json(page1);
    routes[chainPath(txid(124))] = json([tx(1, 901)]);
    const outputs = await chain().outputsTo(ADDRESS);
    expect(outputs.filter((output) => output.txid === txid(1))).toEqual([
      {
        txid: txid(1),
        vout: 0,
        address: ADDRESS,
        valueSats: 1001n,
        inputAddresses: [FUNDER],
        blockHeight: 901,
      },
    ]);
  });

  it('normalises an upper-case txid', async () => {
    routes[txsPath()] = json([{ ...tx(0xabc, null), txid: txid(0xabc).toUpperCase() }]);
    expect((await chain().outputsTo(ADDRESS))[0]!.txid).toBe(txid(0xabc));
  });

  it('refuses a malformed address without asking the server', async () => {
    for (const address of ['', '../blocks/tip/height', 'tb1q?x=1', 'a'.repeat(101)]) {
      await chainError(chain().outputsTo(address));
    }
    expect(requests).toEqual([]);
  });

  it.each([
    ['HTML', { body: '<html><body>Welcome</body></html>', contentType: 'text/html' }],
    ['an object instead of an array', json({ txs: [] })],
    ['a negative value', json([tx(1, 10, [{ scriptpubkey_address: ADDRESS, value: -1 }])])],
    ['a fractional value', json([tx(1, 10, [{ scriptpubkey_address: ADDRESS, value: 0.5 }])])],
    ['a value as text', json([tx(1, 10, [{ scriptpubkey_address: ADDRESS, value: '1000' }])])],
    [
      'a value above 21,000,000 BTC',
      json([tx(1, 10, [{ scriptpubkey_address: ADDRESS, value: 2.1e15 + 1 }])]),
    ],
    ['an unsafe integer value', json([tx(1, 10, [{ scriptpubkey_address: ADDRESS, value: 2 ** 60 }])])],
    ['a short txid', json([{ ...tx(1, 10), txid: 'abc' }])],
    ['a non-hex txid', json([{ ...tx(1, 10), txid: 'z'.repeat(64) }])],
    ['a missing status', json([{ txid: txid(1), vin: [], vout: [] }])],
    ['a confirmed tx without block height', json([{ ...tx(1, 10), status: { confirmed: true } }])],
    ['a fractional block height', json([{ ...tx(1, 10), status: { confirmed: true, block_height: 1.5 } }])],
    ['a negative block height', json([{ ...tx(1, 10), status: { confirmed: true, block_height: -3 } }])],
    ['vout not an array', json([{ ...tx(1, 10), vout: {} }])],
    ['vin missing', json([{ ...tx(1, 10), vin: undefined }])],
    [
      'an input address that is not text',
      json([{ ...tx(1, 10), vin: [{ prevout: { scriptpubkey_address: 7 } }] }]),
    ],
    ['an empty body', { body: '' }],
  ] satisfies [string, Answer][])('refuses garbage: %s', async (_name, answer) => {
    routes[txsPath()] = answer;
    const error = await chainError(chain().outputsTo(ADDRESS));
    expect(error.message).toContain('/address/');
  });

  it('refuses garbage on a later page too', async () => {
    routes[txsPath()] = json(Array.from({ length: 25 }, (_, i) => tx(i + 1, 1000 - i)));
    routes[chainPath(txid(25))] = json([{ ...tx(99, 10), txid: 'bad' }]);
    await chainError(chain().outputsTo(ADDRESS));
  });
});

describe('HTTP failures', () => {
  it('reports a server error with its status', async () => {
    routes[txsPath()] = { status: 500, body: 'Internal Server Error', contentType: 'text/plain' };
    const error = await chainError(chain().outputsTo(ADDRESS));
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/HTTP 500/);
  });

  it('reports rate limiting', async () => {
    routes['/api/blocks/tip/height'] = { status: 429, body: 'Too Many Requests', contentType: 'text/plain' };
    const error = await chainError(chain().tipHeight());
    expect(error.status).toBe(429);
    expect(error.message).toMatch(/rate-limited/);
  });

  it('reports an unknown path (404) and a failing chain page', async () => {
    await chainError(chain().feeRate());
    routes[txsPath()] = json(Array.from({ length: 25 }, (_, i) => tx(i + 1, 1000 - i)));
    routes[chainPath(txid(25))] = { status: 502, body: 'Bad Gateway' };
    expect((await chainError(chain().outputsTo(ADDRESS))).status).toBe(502);
  });

  it('times out a server that never answers', async () => {
    routes['/api/blocks/tip/height'] = 'hang';
    const started = Date.now();
    const error = await chainError(chain(200).tipHeight());
    expect(error.message).toMatch(/within 200 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reports a server that cannot be reached, without its URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await chainError(createEsploraChain({ baseUrl: `http://127.0.0.1:${port}` }).tipHeight());
    expect(error.message).toMatch(/could not be reached/);
    expect(error.message).not.toContain(String(port));
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => createEsploraChain({ baseUrl: 'not a url' })).toThrow(/http\(s\) URL/);
    expect(() => createEsploraChain({ baseUrl: 'ftp://example.com/api' })).toThrow(/http\(s\) URL/);
    expect(() => createEsploraChain({ baseUrl, timeoutMs: 0 })).toThrow(/timeout/);
  });
});

describe('hasHistory', () => {
  /** Esplora's `GET /address/:address` answer, as mempool.space and blockstream.info give it. */
  const summary = (chainTxs: number, mempoolTxs: number) =>
    json({
      address: ADDRESS,
      chain_stats: {
        funded_txo_count: chainTxs,
        funded_txo_sum: chainTxs * 1000,
        spent_txo_count: 0,
        spent_txo_sum: 0,
        tx_count: chainTxs,
      },
      mempool_stats: {
        funded_txo_count: mempoolTxs,
        funded_txo_sum: mempoolTxs * 1000,
        spent_txo_count: 0,
        spent_txo_sum: 0,
        tx_count: mempoolTxs,
      },
    });

  it('answers false for an address no transaction touched', async () => {
    routes[`/api/address/${ADDRESS}`] = summary(0, 0);
    expect(await chain().hasHistory(ADDRESS)).toBe(false);
    expect(requests).toEqual([`GET /api/address/${ADDRESS}`]);
  });

  it('answers true for confirmed or mempool history', async () => {
    routes[`/api/address/${ADDRESS}`] = summary(2, 0);
    expect(await chain().hasHistory(ADDRESS)).toBe(true);
    routes[`/api/address/${ADDRESS}`] = summary(0, 1);
    expect(await chain().hasHistory(ADDRESS)).toBe(true);
  });

  it('refuses an answer without the statistics, and a malformed address', async () => {
    routes[`/api/address/${ADDRESS}`] = json({ address: ADDRESS, chain_stats: { tx_count: -1 } });
    await expect(chain().hasHistory(ADDRESS)).rejects.toThrow(ChainApiError);
    await expect(chain().hasHistory('tb1q/../x')).rejects.toThrow(/malformed/);
  });

  it('reports a server error instead of guessing', async () => {
    routes[`/api/address/${ADDRESS}`] = { status: 502, body: 'bad gateway', contentType: 'text/plain' };
    await expect(chain().hasHistory(ADDRESS)).rejects.toThrow(/HTTP 502/);
  });
});

describe('tipHeight', () => {
  it('reads the plain-text height', async () => {
    routes['/api/blocks/tip/height'] = { body: '850123', contentType: 'text/plain' };
    expect(await chain().tipHeight()).toBe(850_123);
    routes['/api/blocks/tip/height'] = { body: '0\n', contentType: 'text/plain' };
    expect(await chain().tipHeight()).toBe(0);
    expect(requests).toEqual(['GET /api/blocks/tip/height', 'GET /api/blocks/tip/height']);
  });

  it.each(['', 'abc', '-1', '1.5', '1e6', '<html>850123</html>', '99999999999999999999', '0x10'])(
    'refuses %j',
    async (body) => {
      routes['/api/blocks/tip/height'] = { body, contentType: 'text/plain' };
      await chainError(chain().tipHeight());
    },
  );
});

describe('feeRate', () => {
  const path = '/api/fee-estimates';

  it('uses the 3-block estimate', async () => {
    routes[path] = json({ '1': 87.882, '2': 87.882, '3': 61.2, '6': 40.1, '144': 1.027 });
    expect(await chain().feeRate()).toBe(61.2);
    expect(requests).toEqual([`GET ${path}`]);
  });

  it('falls back to the 2-block, then the 1-block estimate', async () => {
    routes[path] = json({ '1': 30, '2': 20.5, '6': 3 });
    expect(await chain().feeRate()).toBe(20.5);
    routes[path] = json({ '1': 30, '144': 1 });
    expect(await chain().feeRate()).toBe(30);
  });

  it.each([
    ['no usable target', json({ '6': 3, '144': 1 })],
    ['an empty object', json({})],
    ['an array', json([61.2, 50])],
    ['a zero rate', json({ '3': 0 })],
    ['a negative rate', json({ '3': -5 })],
    ['a rate as text', json({ '3': '61.2' })],
    ['an absurd rate', json({ '3': 1e9 })],
    ['null', json(null)],
    ['HTML', { body: '<!doctype html><p>rate limited</p>', contentType: 'text/html' }],
  ] satisfies [string, Answer][])('refuses %s', async (_name, answer) => {
    routes[path] = answer;
    await chainError(chain().feeRate());
  });
});

describe('confirmationsOf', () => {
  it('counts the tip block as one confirmation and the mempool as none', () => {
    expect(confirmationsOf({ blockHeight: null }, 100)).toBe(0);
    expect(confirmationsOf({ blockHeight: 100 }, 100)).toBe(1);
    expect(confirmationsOf({ blockHeight: 99 }, 100)).toBe(2);
    // A tip read that lags behind the confirming block still counts the output as confirmed.
    expect(confirmationsOf({ blockHeight: 101 }, 100)).toBe(1);
  });
});

describe('following blocks and the mempool', () => {
  const HASH = 'ab'.repeat(32);

  it('reads the hash at a height, and null above the tip', async () => {
    routes['/api/block-height/850000'] = { body: HASH, contentType: 'text/plain' };
    routes['/api/block-height/850001'] = { status: 404, body: 'Block not found', contentType: 'text/plain' };
    expect(await chain().blockHash(850_000)).toBe(HASH);
    expect(await chain().blockHash(850_001)).toBeNull();
    routes['/api/block-height/850000'] = { body: '<html>', contentType: 'text/html' };
    await chainError(chain().blockHash(850_000));
  });

  it("reads every page of a block's transactions and answers their addressed outputs", async () => {
    const all = Array.from({ length: 30 }, (_, i) =>
      tx(i + 1, 850_000, [{ scriptpubkey_address: i === 27 ? ADDRESS : OTHER, value: 1_000 + i }]),
    );
    routes[`/api/block/${HASH}`] = json({ id: HASH, height: 850_000, tx_count: 30 });
    routes[`/api/block/${HASH}/txs`] = json(all.slice(0, 25));
    routes[`/api/block/${HASH}/txs/25`] = json(all.slice(25));
    const outputs = await chain().blockOutputs(850_000, HASH);
    expect(outputs).toHaveLength(30);
    expect(outputs.find((output) => output.address === ADDRESS)).toEqual({
      txid: txid(28),
      vout: 0,
      address: ADDRESS,
      valueSats: 1_027n,
      inputAddresses: [FUNDER],
      blockHeight: 850_000,
    });
  });

  it('refuses a block that is not at the height asked for, or whose pages fall short', async () => {
    routes[`/api/block/${HASH}`] = json({ id: HASH, height: 849_999, tx_count: 1 });
    await chainError(chain().blockOutputs(850_000, HASH));
    routes[`/api/block/${HASH}`] = json({ id: HASH, height: 850_000, tx_count: 26 });
    routes[`/api/block/${HASH}/txs`] = json([tx(1, 850_000)]);
    routes[`/api/block/${HASH}/txs/25`] = json([tx(2, 850_000)]);
    await chainError(chain().blockOutputs(850_000, HASH));
    // A transaction of the block that says it is elsewhere.
    routes[`/api/block/${HASH}`] = json({ id: HASH, height: 850_000, tx_count: 1 });
    routes[`/api/block/${HASH}/txs`] = json([tx(1, 849_000)]);
    await chainError(chain().blockOutputs(850_000, HASH));
  });

  it('lists the mempool and reads its transactions, leaving out those gone meanwhile', async () => {
    routes['/api/mempool/txids'] = json([txid(1), txid(2)]);
    routes[`/api/tx/${txid(1)}`] = json(tx(1, null));
    expect(await chain().mempoolTxids()).toEqual([txid(1), txid(2)]);
    const outputs = await chain().outputsOfTransactions([txid(1), txid(2)]);
    expect(outputs).toMatchObject([{ txid: txid(1), address: ADDRESS, blockHeight: null }]);
    routes['/api/mempool/txids'] = json(['not-a-txid']);
    await chainError(chain().mempoolTxids());
    await chainError(chain().outputsOfTransactions(['../admin']));
  });
});
