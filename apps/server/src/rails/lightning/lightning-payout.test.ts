import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeBolt11 } from '@offzero/shared/bitcoin/bolt11';
import { globalSettings, lightningPayouts, orders, payouts } from '../../db/schema';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../../test/accounts-helpers';
import { newBuyOrderRow } from '../../test/new-buy-order-row';
import { buyOrderPayload, confirmPayoutAddresses } from '../../test/buy-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { forgetCachedGlobalSettings } from '../../settings/global-settings-cache';
import { demoNodeKey } from './demo-lightning-node';
import { DESTINATION_MESSAGES } from './lightning-destination';
import type { LightningNode } from './lightning-node';
import {
  PAYOUT_MESSAGES,
  payOutByLightning,
  type LightningPayoutDeps,
} from './use-cases/pay-out-by-lightning';
import { resolveSubmittedPayouts } from './use-cases/resolve-submitted-payouts';

/**
 * Buys paid out by Lightning (docs/design.md, "Lightning"), from the demo operator node to the demo
 * wallet: every bad destination, the caps, a payout paid once across a crash, Lightning addresses
 * served by a local LNURL-pay server.
 */
let t: TestApp;
let ada: RegisteredCustomer;
const AMOUNT = 100_000n;

beforeAll(async () => {
  t = await createTestApp({ CHAIN_POLL_SECONDS: '600' });
  ada = await registerVerifiedCustomer(t, 'ada.lightning.buy@example.com');
});
afterAll(async () => t.close());

const deps = (overrides: Partial<LightningPayoutDeps> = {}): LightningPayoutDeps => ({
  db: t.database.db,
  node: t.app.providers.lightning!,
  network: 'testnet',
  now: () => new Date(),
  ...overrides,
});

async function walletInvoice(amountSats?: number): Promise<{ invoice: string; paymentHash: string }> {
  const response = await t.request({
    method: 'POST',
    url: '/api/dev/lightning/invoice',
    payload: amountSats === undefined ? {} : { amountSats },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** A paid buy (processing) to `walletAddress`, as a payment confirmation leaves it. */
async function paidBuy(walletAddress: string, amountSats = AMOUNT): Promise<string> {
  const [order] = await t.database.db
    .insert(orders)
    .values({
      ...newBuyOrderRow(ada.userId, 10_000n, { walletAddress, amountSats }),
      status: 'processing',
      paymentConfirmedAt: new Date(),
    })
    .returning();
  return order!.id;
}

const payoutsOf = (orderId: string) =>
  t.database.db
    .select()
    .from(payouts)
    .innerJoin(lightningPayouts, eq(lightningPayouts.payoutId, payouts.id))
    .where(eq(payouts.orderId, orderId));
const orderRow = async (id: string) =>
  (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;

function signedByWallet(draft: Partial<Parameters<typeof encodeBolt11>[0]>): string {
  return encodeBolt11(
    {
      network: 'testnet',
      amountMsat: AMOUNT * 1000n,
      timestamp: Math.floor(Date.now() / 1000),
      expirySeconds: 3600,
      paymentHash: randomBytes(32).toString('hex'),
      paymentSecret: randomBytes(32).toString('hex'),
      description: 'x',
      ...draft,
    },
    demoNodeKey('wallet'),
  );
}

describe('a buy paid out by Lightning', () => {
  it('pays the invoice at once: settled, preimage kept, the order completed with the payment hash', async () => {
    const { invoice, paymentHash } = await walletInvoice(Number(AMOUNT));
    const orderId = await paidBuy(invoice);
    const result = await t.app.lightning!.reconcile();
    expect(result.paid).toBeGreaterThanOrEqual(1);
    const [row] = await payoutsOf(orderId);
    expect(row!.payouts).toMatchObject({
      state: 'settled',
      rail: 'lightning',
      sender: 'lightning',
      reference: paymentHash,
    });
    const preimage = row!.lightning_payouts.preimage!;
    expect(createHash('sha256').update(Buffer.from(preimage, 'hex')).digest('hex')).toBe(paymentHash);
    expect(row!.lightning_payouts.feeSats).toBeLessThanOrEqual(row!.lightning_payouts.feeBudgetSats);
    expect(await orderRow(orderId)).toMatchObject({ status: 'completed', txn: paymentHash });
    // Paid once: the job finds nothing more to pay.
    expect((await t.app.lightning!.reconcile()).paid).toBe(0);
  });

  it('an invoice without an amount is paid the order satoshis', async () => {
    const { invoice } = await walletInvoice();
    const orderId = await paidBuy(invoice);
    const payout = await payOutByLightning(deps(), orderId, 'test');
    expect(payout.state).toBe('settled');
    expect(payout.amountSats).toBe(AMOUNT);
  });

  it.each([
    [
      'another amount',
      () => signedByWallet({ amountMsat: 99_000_000n }),
      DESTINATION_MESSAGES.otherAmount(AMOUNT),
    ],
    [
      'expired',
      () => signedByWallet({ timestamp: Math.floor(Date.now() / 1000) - 7200 }),
      DESTINATION_MESSAGES.expired,
    ],
    ['another network', () => signedByWallet({ network: 'mainnet' }), DESTINATION_MESSAGES.otherNetwork],
    ['malformed', () => 'lntb1qqqqqqqqqqqqqqqqqq', DESTINATION_MESSAGES.unreadable],
  ])('an invoice for %s is refused with words, nothing claimed', async (_name, make, message) => {
    const orderId = await paidBuy(make());
    await expect(payOutByLightning(deps(), orderId, 'test')).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message,
    });
    expect(await payoutsOf(orderId)).toHaveLength(0);
  });

  it('an invoice already paid: the payout fails, and a retry with a new invoice settles, never two in flight', async () => {
    const { invoice } = await walletInvoice(Number(AMOUNT));
    expect(
      (await t.request({ method: 'POST', url: '/api/dev/lightning/pay', payload: { invoice } })).statusCode,
    ).toBe(400);
    // The wallet cannot pay itself; the operator node pays it once, for another order.
    const first = await paidBuy(invoice);
    expect((await payOutByLightning(deps(), first, 'test')).state).toBe('settled');
    const second = await paidBuy(invoice);
    const failed = await payOutByLightning(deps(), second, 'test');
    expect(failed.state).toBe('failed');
    const [row] = await payoutsOf(second);
    expect(row!.lightning_payouts.failureReason).toBe('The invoice is already paid.');
    expect((await orderRow(second)).status).toBe('processing');
    // Retried with a fresh invoice from the customer's wallet.
    const fresh = await walletInvoice(Number(AMOUNT));
    await t.database.db.update(orders).set({ walletAddress: fresh.invoice }).where(eq(orders.id, second));
    expect((await payOutByLightning(deps(), second, 'test')).state).toBe('settled');
    await expect(payOutByLightning(deps(), second, 'test')).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('a payout over the per-order or the daily cap is refused, nothing claimed', async () => {
    try {
      await t.database.db.update(globalSettings).set({ lightningMaxPayoutSats: AMOUNT - 1n });
      forgetCachedGlobalSettings();
      const over = await paidBuy((await walletInvoice(Number(AMOUNT))).invoice);
      await expect(payOutByLightning(deps(), over, 'test')).rejects.toMatchObject({
        message: PAYOUT_MESSAGES.overOrderCap(AMOUNT - 1n),
      });
      await t.database.db
        .update(globalSettings)
        .set({ lightningMaxPayoutSats: AMOUNT, lightningDailyPayoutSats: 1n });
      forgetCachedGlobalSettings();
      await expect(payOutByLightning(deps(), over, 'test')).rejects.toMatchObject({
        message: PAYOUT_MESSAGES.overDailyCap,
      });
      expect(await payoutsOf(over)).toHaveLength(0);
    } finally {
      await t.database.db
        .update(globalSettings)
        .set({ lightningMaxPayoutSats: 5_000_000n, lightningDailyPayoutSats: 50_000_000n });
      forgetCachedGlobalSettings();
    }
  });

  it('killed after the node paid but before the outcome was written: found by hash, paid once', async () => {
    const { invoice, paymentHash } = await walletInvoice(Number(AMOUNT));
    const orderId = await paidBuy(invoice);
    const real = t.app.providers.lightning!;
    // The node pays, then the process dies before hearing back: the payout stays submitted.
    const dying: LightningNode = {
      ...real,
      payInvoice: async (request) => {
        await real.payInvoice(request);
        throw new Error('killed');
      },
    };
    expect((await payOutByLightning(deps({ node: dying }), orderId, 'test')).state).toBe('submitted');
    // The job does not pay it again (it has a payout), it asks the node by hash.
    expect(await resolveSubmittedPayouts({ db: t.database.db, node: real, now: () => new Date() })).toBe(1);
    const rows = await payoutsOf(orderId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payouts).toMatchObject({ state: 'settled', reference: paymentHash });
    expect(await orderRow(orderId)).toMatchObject({ status: 'completed' });
  });

  it('killed before the node heard of it: failed once five minutes have passed, never sent blindly', async () => {
    const { invoice } = await walletInvoice(Number(AMOUNT));
    const orderId = await paidBuy(invoice);
    const real = t.app.providers.lightning!;
    const silent: LightningNode = { ...real, payInvoice: () => Promise.reject(new Error('killed')) };
    expect((await payOutByLightning(deps({ node: silent }), orderId, 'test')).state).toBe('submitted');
    const resolve = (minutes: number) =>
      resolveSubmittedPayouts({
        db: t.database.db,
        node: real,
        now: () => new Date(Date.now() + minutes * 60_000),
      });
    expect(await resolve(1)).toBe(0);
    expect(await resolve(6)).toBeGreaterThanOrEqual(1);
    expect((await payoutsOf(orderId))[0]!.payouts.state).toBe('failed');
  });
});

describe('saving a buy to a Lightning destination', () => {
  const saveBuy = async (walletAddress: string) =>
    t.request({
      method: 'POST',
      url: '/api/order/save',
      headers: ada.auth,
      payload: await buyOrderPayload(t, ada, 50, { walletAddress }),
    });

  it('keeps an invoice for the order satoshis as its destination, outside the address book, and pays it once paid', async () => {
    const probe = await buyOrderPayload(t, ada, 50);
    const sats = BigInt(Math.round(probe.amount * 1e8));
    const { invoice } = await walletInvoice(Number(sats));
    const saved = await saveBuy(invoice);
    expect(saved.statusCode, saved.body).toBe(200);
    const order = saved.json<{ order: { _id: string; walletAddress: string } }>().order;
    expect(order.walletAddress).toBe(invoice);
    expect((await orderRow(order._id)).payoutAddressId).toBeNull();
    await t.database.db
      .update(orders)
      .set({ status: 'processing', paymentConfirmedAt: new Date() })
      .where(eq(orders.id, order._id));
    await t.app.lightning!.payDueBuys();
    expect(await orderRow(order._id)).toMatchObject({ status: 'completed' });
  });

  it('pays nothing on the customer\'s "I have paid" alone: only once an operator marks the payment received', async () => {
    const probe = await buyOrderPayload(t, ada, 50);
    const { invoice, paymentHash } = await walletInvoice(Number(BigInt(Math.round(probe.amount * 1e8))));
    const saved = await saveBuy(invoice);
    expect(saved.statusCode, saved.body).toBe(200);
    const orderId = saved.json<{ order: { _id: string } }>().order._id;
    const claimed = await t.request({
      method: 'POST',
      url: '/api/order/update',
      headers: ada.auth,
      payload: {
        _id: orderId,
        payment: { method: 'zelle', amount: 50, create_time: new Date().toISOString(), receiving_in: {} },
        status: 'processing',
      },
    });
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(await t.app.lightning!.payDueBuys()).toBe(0);
    const early = await t.app.lightning!.payOut(orderId, 'system:lightning').catch((error: Error) => error);
    expect(early).toMatchObject({ message: PAYOUT_MESSAGES.notPayable });
    expect(await payoutsOf(orderId)).toHaveLength(0);
    expect(await orderRow(orderId)).toMatchObject({ status: 'processing', paymentConfirmedAt: null });

    const admin = await logIn(t, 'admin@offzero.local');
    const marked = await t.request({
      method: 'POST',
      url: `/api/admin/orders/${orderId}/mark-paid`,
      headers: admin.auth,
      payload: { note: 'Seen in the Zelle inbox' },
    });
    expect(marked.statusCode, marked.body).toBe(200);
    // Sent at once on the operator's word, not left for the reconcile pass.
    await vi.waitFor(
      async () => expect(await orderRow(orderId)).toMatchObject({ status: 'completed', txn: paymentHash }),
      { timeout: 5_000, interval: 100 },
    );
    expect(await payoutsOf(orderId)).toHaveLength(1);
  });

  it('refuses an expired invoice and one of another amount at save, with words', async () => {
    const expired = await saveBuy(
      signedByWallet({ amountMsat: null, timestamp: Math.floor(Date.now() / 1000) - 7200 }),
    );
    expect(expired.statusCode).toBe(400);
    expect(expired.json<{ message: string }>().message).toBe(DESTINATION_MESSAGES.expired);
    const other = await saveBuy(signedByWallet({ amountMsat: 1000n }));
    expect(other.statusCode).toBe(400);
    expect(other.json<{ message: string }>().message).toMatch(/^This invoice asks for another amount/);
  });
});

describe('a buy paid out to a Lightning address (LNURL-pay, local server)', () => {
  let server: Server;
  let base: string;
  let answer: 'right' | 'wrong-amount' | 'wrong-hash' | 'hang' = 'right';
  const metadata = JSON.stringify([['text/plain', 'Pay alice']]);

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname === '/.well-known/lnurlp/alice') {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            tag: 'payRequest',
            callback: `${base}/cb`,
            minSendable: 1000,
            maxSendable: 1e11,
            metadata,
          }),
        );
        return;
      }
      if (url.pathname === '/cb') {
        if (answer === 'hang') return; // never answers
        const amountMsat = BigInt(url.searchParams.get('amount') ?? '0');
        const sats = Number(amountMsat / 1000n) + (answer === 'wrong-amount' ? 1 : 0);
        const descriptionHash = createHash('sha256')
          .update(answer === 'wrong-hash' ? 'other' : metadata)
          .digest('hex');
        const paymentHash = randomBytes(32).toString('hex');
        // Signed with the demo wallet's key, committing to the description hash it was told to.
        const pr = signedByWallet({
          amountMsat: BigInt(sats) * 1000n,
          description: undefined,
          descriptionHash,
          paymentHash,
        });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ pr, routes: [] }));
        return;
      }
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  // Generous: a loaded machine signs slowly; the test that times out asks for a short wait itself.
  const lnurl = (timeoutMs = 15_000) => ({
    lnurl: { wellKnownUrl: (name: string) => `${base}/.well-known/lnurlp/${name}`, timeoutMs },
  });

  it.each([
    ['an invoice of another amount', 'wrong-amount' as const],
    ['an invoice of another description hash', 'wrong-hash' as const],
  ])('refuses %s, nothing claimed', async (_name, kind) => {
    answer = kind;
    const orderId = await paidBuy('alice@wallet.example');
    await expect(payOutByLightning(deps(lnurl()), orderId, 'test')).rejects.toMatchObject({
      message: DESTINATION_MESSAGES.wrongInvoice('alice@wallet.example'),
    });
    expect(await payoutsOf(orderId)).toHaveLength(0);
  });

  it('a server that does not answer in time is refused with words', async () => {
    answer = 'hang';
    const orderId = await paidBuy('alice@wallet.example');
    await expect(payOutByLightning(deps(lnurl(1000)), orderId, 'test')).rejects.toMatchObject({
      message: DESTINATION_MESSAGES.addressUnreachable('alice@wallet.example'),
    });
  });

  it('a Lightning address from the address book is paid once its entry is confirmed', async () => {
    answer = 'right';
    const added = await t.request({
      method: 'POST',
      url: '/api/payout-addresses',
      headers: ada.auth,
      payload: { label: 'Alice wallet', address: 'Alice@Wallet.example' },
    });
    expect(added.statusCode, added.body).toBe(200);
    const list = await t.app.inject({ method: 'GET', url: '/api/payout-addresses', headers: ada.auth });
    const entry = list
      .json<{ payoutAddresses: { id: string; address: string | null; status: string }[] }>()
      .payoutAddresses.find((row) => row.address === 'alice@wallet.example')!;
    expect(entry.status).not.toBe('confirmed');
    const [order] = await t.database.db
      .insert(orders)
      .values({
        ...newBuyOrderRow(ada.userId, 10_000n, {
          walletAddress: 'alice@wallet.example',
          payoutAddressId: entry.id,
          amountSats: AMOUNT,
        }),
        status: 'processing',
        paymentConfirmedAt: new Date(),
      })
      .returning();
    // Unconfirmed: nothing claimed, the customer must open the e-mailed link first.
    await expect(payOutByLightning(deps(lnurl()), order!.id, 'test')).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(await payoutsOf(order!.id)).toHaveLength(0);
    await confirmPayoutAddresses(t, ada);
    await payOutByLightning(deps(lnurl()), order!.id, 'test');
    expect(await payoutsOf(order!.id)).toHaveLength(1);
    // A buy may name the confirmed entry.
    const saved = await t.request({
      method: 'POST',
      url: '/api/order/save',
      headers: ada.auth,
      payload: await buyOrderPayload(t, ada, 50, {
        walletAddress: 'alice@wallet.example',
        payoutAddressId: entry.id,
      }),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const savedId = saved.json<{ order: { _id: string } }>().order._id;
    expect(await orderRow(savedId)).toMatchObject({
      walletAddress: 'alice@wallet.example',
      payoutAddressId: entry.id,
    });
  });

  it('a right answer is claimed with the invoice the callback gave', async () => {
    answer = 'right';
    const orderId = await paidBuy('alice@wallet.example');
    // The invoice names no route in the demo network (signed outside the demo node), so it fails; it
    // was checked and claimed all the same, with its payment hash kept for the lookup by hash.
    const payout = await payOutByLightning(deps(lnurl()), orderId, 'test');
    const [row] = await payoutsOf(orderId);
    expect(row!.payouts.id).toBe(payout.id);
    expect(row!.lightning_payouts.invoice.startsWith('lntb1m1')).toBe(true);
  });
});
