import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveDepositAddress, DEMO_ACCOUNT_VPUB } from '../rails/onchain/deposit-address';
import { createTestApp, type TestApp } from '../test/test-app';
import { confirmationsOf } from './chain-api';
import { createSimulatedChain, SIMULATED_CHAIN_START_HEIGHT, type SimulatedChain } from './simulated-chain';

const TESTNET_ADDRESS = deriveDepositAddress(DEMO_ACCOUNT_VPUB, 0, 'testnet');
const OTHER_TESTNET_ADDRESS = deriveDepositAddress(DEMO_ACCOUNT_VPUB, 1, 'testnet');

describe('demo chain routes', () => {
  let t: TestApp;
  let chain: SimulatedChain;

  beforeAll(async () => {
    t = await createTestApp({ BITCOIN_NETWORK: 'testnet' }, (app) => {
      chain = createSimulatedChain(app.database.db);
      // The app registers the demo chain routes itself; `chain` is a second view of the same chain.
    });
  });
  afterAll(async () => t.close());

  const post = (path: string, payload?: Record<string, unknown>) =>
    t.request({
      method: 'POST',
      url: `/api/dev/chain/${path}`,
      ...(payload === undefined ? {} : { payload }),
    });

  it('starts the chain at 200000 with nothing sent', async () => {
    expect(await chain.tipHeight()).toBe(SIMULATED_CHAIN_START_HEIGHT);
    expect(await chain.outputsTo(TESTNET_ADDRESS)).toEqual([]);
  });

  it('sends to the mempool, confirms at the first mined block, and drops', async () => {
    const tipBefore = await chain.tipHeight();
    const sent = await post('send', { address: TESTNET_ADDRESS, amount: 0.015 });
    expect(sent.statusCode).toBe(200);
    const { txid } = sent.json<{ txid: string }>();
    expect(txid).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(sent.json())).toEqual(['txid']);

    expect(await chain.outputsTo(TESTNET_ADDRESS)).toEqual([
      {
        txid,
        vout: 0,
        address: TESTNET_ADDRESS,
        valueSats: 1_500_000n,
        inputAddresses: [],
        blockHeight: null,
      },
    ]);
    expect(await chain.outputsTo(OTHER_TESTNET_ADDRESS)).toEqual([]);

    const mined = await post('mine', { blocks: 3 });
    expect(mined.statusCode).toBe(200);
    expect(mined.json()).toEqual({ height: tipBefore + 3 });
    expect(await chain.tipHeight()).toBe(tipBefore + 3);
    const [output] = await chain.outputsTo(TESTNET_ADDRESS);
    expect(output?.blockHeight).toBe(tipBefore + 1);
    expect(confirmationsOf(output!, await chain.tipHeight())).toBe(3);

    const dropped = await post('drop', { txid: txid.toUpperCase() });
    expect(dropped.statusCode).toBe(200);
    expect(dropped.json()).toEqual({ message: expect.stringMatching(/dropped/) });
    expect(await chain.outputsTo(TESTNET_ADDRESS)).toEqual([]);

    // Dropping twice: it is no longer there.
    const again = await post('drop', { txid });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toMatch(/No transaction with this txid/);
  });

  it('names the sending address given as `from` as the input of the transaction', async () => {
    const address = deriveDepositAddress(DEMO_ACCOUNT_VPUB, 10, 'testnet');
    const sent = await post('send', { address, amount: 0.001, from: OTHER_TESTNET_ADDRESS });
    expect(sent.statusCode).toBe(200);
    expect((await chain.outputsTo(address)).map((output) => output.inputAddresses)).toEqual([
      [OTHER_TESTNET_ADDRESS],
    ]);
    const wrong = await post('send', {
      address,
      amount: 0.001,
      from: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual({ from: 'This is a mainnet address. Use a testnet address.' });
  });

  it('mines one block by default, with an empty body or none at all', async () => {
    const tip = await chain.tipHeight();
    expect((await post('mine', {})).json()).toEqual({ height: tip + 1 });
    expect((await post('mine')).json()).toEqual({ height: tip + 2 });
  });

  it('keeps exact amounts, including 1 satoshi and 8 decimals', async () => {
    const address = deriveDepositAddress(DEMO_ACCOUNT_VPUB, 7, 'testnet');
    for (const amount of [0.00000001, 1.23456789, 21, 0.1]) {
      expect((await post('send', { address, amount })).statusCode).toBe(200);
    }
    const values = (await chain.outputsTo(address)).map((output) => output.valueSats).sort();
    expect(values).toEqual([1n, 10_000_000n, 123_456_789n, 2_100_000_000n]);
  });

  it('does not confirm a dropped mempool transaction and lists several outputs per address', async () => {
    const address = deriveDepositAddress(DEMO_ACCOUNT_VPUB, 8, 'testnet');
    const first = (await post('send', { address, amount: 0.001 })).json().txid as string;
    const second = (await post('send', { address, amount: 0.002 })).json().txid as string;
    expect((await post('drop', { txid: first })).statusCode).toBe(200);
    const { height } = (await post('mine', { blocks: 1 })).json();
    expect(await chain.outputsTo(address)).toEqual([
      { txid: second, vout: 0, address, valueSats: 200_000n, inputAddresses: [], blockHeight: height },
    ]);
  });

  it.each([
    [
      'a mainnet address',
      { address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', amount: 0.01 },
      /^This is a mainnet address\. Use a testnet address\.$/,
    ],
    [
      'a regtest address',
      { address: 'bcrt1q6rz28mcfaxtmd6v789l9rrlrusdprr9pz3cppk', amount: 0.01 },
      /testnet/,
    ],
    ['a garbage address', { address: 'not-an-address', amount: 0.01 }, /^This is not a bitcoin address\.$/],
    ['an address with spaces', { address: ` ${TESTNET_ADDRESS}`, amount: 0.01 }, /^Remove the spaces/],
    ['an overlong address', { address: 'x'.repeat(101), amount: 0.01 }, /address/],
    ['zero', { address: TESTNET_ADDRESS, amount: 0 }, /more than 0/],
    ['a negative amount', { address: TESTNET_ADDRESS, amount: -0.01 }, /minus sign/],
    ['9 decimals', { address: TESTNET_ADDRESS, amount: 0.000000001 }, /8 decimal places/],
    ['9 decimals above 1', { address: TESTNET_ADDRESS, amount: 1.123456789 }, /8 decimal places/],
    ['more than 21,000,000 BTC', { address: TESTNET_ADDRESS, amount: 21_000_001 }, /21,000,000/],
    ['an amount as text', { address: TESTNET_ADDRESS, amount: '0.01' }, /amount/],
    ['no amount', { address: TESTNET_ADDRESS }, /amount/],
    ['an unknown field', { address: TESTNET_ADDRESS, amount: 0.01, vout: 3 }, /./],
  ])('refuses to send %s', async (_name, payload, message) => {
    const response = await post('send', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
  });

  it.each([
    ['0 blocks', { blocks: 0 }, /at least 1/],
    ['101 blocks', { blocks: 101 }, /at most 100/],
    ['-1 blocks', { blocks: -1 }, /at least 1/],
    ['1.5 blocks', { blocks: 1.5 }, /whole number/],
    ['blocks as text', { blocks: '2' }, /number of blocks/],
    ['an unknown field', { blocks: 1, height: 5 }, /./],
  ])('refuses to mine %s', async (_name, payload, message) => {
    const tip = await chain.tipHeight();
    const response = await post('mine', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
    expect(await chain.tipHeight()).toBe(tip);
  });

  it.each([
    ['an unknown txid', { txid: 'ab'.repeat(32) }, /No transaction with this txid/],
    ['a short txid', { txid: 'abc' }, /64 hexadecimal/],
    ['a non-hex txid', { txid: 'zz'.repeat(32) }, /64 hexadecimal/],
    ['no txid', {}, /txid/],
  ])('refuses to drop %s', async (_name, payload, message) => {
    const response = await post('drop', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
  });

  it('requires the CSRF token like every other POST', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/dev/chain/mine',
      payload: { blocks: 1 },
    });
    expect(response.statusCode).toBe(403);
  });

  it('answers a calm fee rate', async () => {
    for (let i = 0; i < 20; i += 1) {
      const rate = await chain.feeRate();
      expect(rate).toBeGreaterThanOrEqual(8);
      expect(rate).toBeLessThanOrEqual(15);
    }
  });

  it('shares one chain between instances over the same database', async () => {
    const a = createSimulatedChain(t.database.db);
    const b = createSimulatedChain(t.database.db);
    expect(await a.tipHeight()).toBe(await b.tipHeight());
    const address = deriveDepositAddress(DEMO_ACCOUNT_VPUB, 9, 'testnet');
    const { txid } = await a.send(address, 12_345n);
    expect(await b.outputsTo(address)).toEqual([
      { txid, vout: 0, address, valueSats: 12_345n, inputAddresses: [], blockHeight: null },
    ]);
    const { height } = await b.mine(2);
    expect(await a.tipHeight()).toBe(height);
    expect(await chain.tipHeight()).toBe(height);
    expect((await a.outputsTo(address))[0]?.blockHeight).toBe(height - 1);
    expect(await b.drop(txid)).toBe(true);
    expect(await a.outputsTo(address)).toEqual([]);
    expect(await a.drop(txid)).toBe(false);
  });

  it('lets concurrent miners each add their blocks', async () => {
    const a = createSimulatedChain(t.database.db);
    const b = createSimulatedChain(t.database.db);
    const tip = await a.tipHeight();
    const heights = await Promise.all([a.mine(1), b.mine(2), a.mine(3), b.mine(4)]);
    expect(await a.tipHeight()).toBe(tip + 10);
    expect(new Set(heights.map((h) => h.height)).size).toBe(4);
  });

  it('refuses bad arguments in the chain itself', async () => {
    await expect(chain.send(TESTNET_ADDRESS, 0n)).rejects.toThrow(RangeError);
    await expect(chain.send(TESTNET_ADDRESS, -5n)).rejects.toThrow(RangeError);
    await expect(chain.send('', 5n)).rejects.toThrow(TypeError);
    await expect(chain.mine(0)).rejects.toThrow(RangeError);
    await expect(chain.mine(101)).rejects.toThrow(RangeError);
    expect(await chain.drop('not a txid')).toBe(false);
  });
});

describe('a fresh database on regtest', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BITCOIN_NETWORK: 'regtest' });
  });
  afterAll(async () => t.close());

  it('creates the tip once even when several instances start together', async () => {
    const chains = Array.from({ length: 5 }, () => createSimulatedChain(t.database.db));
    const tips = await Promise.all(chains.map((chain) => chain.tipHeight()));
    expect(tips).toEqual(Array(5).fill(SIMULATED_CHAIN_START_HEIGHT));
    const { height } = await chains[0]!.mine(1);
    expect(height).toBe(SIMULATED_CHAIN_START_HEIGHT + 1);
    // A later instance finds the existing tip instead of resetting it.
    expect(await createSimulatedChain(t.database.db).tipHeight()).toBe(height);
  });

  it('accepts regtest addresses and refuses testnet ones', async () => {
    const send = (address: string) =>
      t.request({ method: 'POST', url: '/api/dev/chain/send', payload: { address, amount: 0.5 } });
    const regtest = deriveDepositAddress(DEMO_ACCOUNT_VPUB, 0, 'regtest');
    const ok = await send(regtest);
    expect(ok.statusCode).toBe(200);
    const outputs = await createSimulatedChain(t.database.db).outputsTo(regtest);
    expect(outputs.map((output) => output.txid)).toEqual([ok.json().txid]);
    const refused = await send(TESTNET_ADDRESS);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('This is a testnet address. Use a regtest address.');
  });
});
