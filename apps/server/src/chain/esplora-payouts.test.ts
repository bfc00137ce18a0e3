import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChainApiError, TransactionRejectedError } from './chain-api';
import { createEsploraChain } from './esplora-chain';

/**
 * The payout side of the Esplora adapter (UTXOs, broadcast, tiered fee estimates, transaction status)
 * against a local server speaking Esplora's wire format: `POST /tx` takes the raw hex as the body and
 * answers the txid as text; errors are HTTP 400 with bitcoind's message.
 */
type Answer = { status?: number; body: string; contentType?: string };

let server: Server;
let baseUrl: string;
let routes: Record<string, Answer> = {};
let requests: { line: string; body: string; contentType: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const line = `${request.method} ${request.url ?? ''}`;
      requests.push({ line, body, contentType: request.headers['content-type'] });
      const answer = routes[line] ?? { status: 404, body: 'Not Found', contentType: 'text/plain' };
      response.writeHead(answer.status ?? 200, { 'content-type': answer.contentType ?? 'application/json' });
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  routes = {};
  requests = [];
});

const chain = () => createEsploraChain({ baseUrl });
const ADDRESS = 'tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl';
const TXID = 'ab'.repeat(32);
/** A real signed testnet transaction (one P2WPKH input, two outputs), for the "already known" answer. */
const RAW_TX =
  '02000000000101' +
  '11'.repeat(32) +
  '0000000000fdffffff02e803000000000000160014' +
  '22'.repeat(20) +
  'd007000000000000160014' +
  '33'.repeat(20) +
  '0247304402' +
  '20' +
  '44'.repeat(32) +
  '0220' +
  '55'.repeat(32) +
  '0121' +
  '02' +
  '66'.repeat(32) +
  '00000000';

describe('utxos', () => {
  it('reads /address/:address/utxo, confirmed and in the mempool', async () => {
    routes[`GET /api/address/${ADDRESS}/utxo`] = {
      body: JSON.stringify([
        {
          txid: TXID.toUpperCase(),
          vout: 1,
          value: 150_000,
          status: { confirmed: true, block_height: 850_000 },
        },
        { txid: 'cd'.repeat(32), vout: 0, value: 2_000, status: { confirmed: false } },
      ]),
    };
    expect(await chain().utxos(ADDRESS)).toEqual([
      { txid: TXID, vout: 1, valueSats: 150_000n, blockHeight: 850_000 },
      { txid: 'cd'.repeat(32), vout: 0, valueSats: 2_000n, blockHeight: null },
    ]);
  });

  it('refuses a malformed answer and a malformed address', async () => {
    routes[`GET /api/address/${ADDRESS}/utxo`] = {
      body: JSON.stringify([{ txid: 'x', vout: 0, value: -1 }]),
    };
    await expect(chain().utxos(ADDRESS)).rejects.toBeInstanceOf(ChainApiError);
    await expect(chain().utxos('../etc')).rejects.toBeInstanceOf(ChainApiError);
  });
});

describe('broadcast', () => {
  it('POSTs the raw hex to /tx and answers the txid text', async () => {
    routes['POST /api/tx'] = { body: TXID, contentType: 'text/plain' };
    expect(await chain().broadcast(RAW_TX)).toBe(TXID);
    expect(requests[0]).toMatchObject({ line: 'POST /api/tx', body: RAW_TX, contentType: 'text/plain' });
  });

  it('treats "already known" as success and other 400s as a refusal', async () => {
    routes['POST /api/tx'] = {
      status: 400,
      body: 'sendrawtransaction RPC error: {"code":-27,"message":"Transaction already in block chain"}',
      contentType: 'text/plain',
    };
    expect(await chain().broadcast(RAW_TX)).toMatch(/^[0-9a-f]{64}$/);
    routes['POST /api/tx'] = {
      status: 400,
      body: 'sendrawtransaction RPC error: {"code":-26,"message":"bad-txns-inputs-missingorspent"}',
      contentType: 'text/plain',
    };
    await expect(chain().broadcast(RAW_TX)).rejects.toBeInstanceOf(TransactionRejectedError);
    await expect(chain().broadcast('not hex')).rejects.toBeInstanceOf(TransactionRejectedError);
  });

  it('reports a server failure as unknown (ChainApiError), not as a refusal', async () => {
    routes['POST /api/tx'] = { status: 502, body: 'bad gateway', contentType: 'text/plain' };
    await expect(chain().broadcast(RAW_TX)).rejects.toBeInstanceOf(ChainApiError);
  });
});

describe('feeRateFor', () => {
  it("reads each tier's target from /fee-estimates, falling back to faster targets", async () => {
    routes['GET /api/fee-estimates'] = { body: JSON.stringify({ '1': 40.2, '3': 20.5, '6': 9.1, '144': 1 }) };
    expect(await chain().feeRateFor('priority')).toBe(40.2);
    expect(await chain().feeRateFor('standard')).toBe(20.5);
    expect(await chain().feeRateFor('economy')).toBe(9.1);
    routes['GET /api/fee-estimates'] = { body: JSON.stringify({ '1': 40.2, '2': 30 }) };
    expect(await chain().feeRateFor('economy')).toBe(30);
    routes['GET /api/fee-estimates'] = { body: JSON.stringify({ '144': 1 }) };
    await expect(chain().feeRateFor('economy')).rejects.toBeInstanceOf(ChainApiError);
  });
});

describe('transactionStatus', () => {
  it('reads /tx/:txid/status; an unknown transaction is null', async () => {
    routes[`GET /api/tx/${TXID}/status`] = {
      body: JSON.stringify({ confirmed: true, block_height: 850_001 }),
    };
    expect(await chain().transactionStatus(TXID)).toEqual({ blockHeight: 850_001 });
    routes[`GET /api/tx/${TXID}/status`] = { body: JSON.stringify({ confirmed: false }) };
    expect(await chain().transactionStatus(TXID)).toEqual({ blockHeight: null });
    delete routes[`GET /api/tx/${TXID}/status`];
    expect(await chain().transactionStatus(TXID)).toBeNull();
  });
});
