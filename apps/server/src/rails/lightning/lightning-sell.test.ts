import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBolt11 } from '@offzero/shared/bitcoin/bolt11';
import { btcNumberToSats } from '@offzero/shared/money/money';
import { decode as independentDecode } from 'light-bolt11-decoder';
import { globalSettings, orders, outboxEvents } from '../../db/schema';
import { registerVerifiedCustomer, type RegisteredCustomer } from '../../test/accounts-helpers';
import { fileW9, saveBank, saveZelle, sellOrder } from '../../test/sell-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { forgetCachedGlobalSettings } from '../../settings/global-settings-cache';
import { demoNodeKey } from './demo-lightning-node';
import { nodePublicKey } from '@offzero/shared/bitcoin/bolt11';

/**
 * Sells paid by Lightning (docs/design.md, "Lightning"), on the demo stand-in nodes: the order's
 * invoice, paying it from the demo wallet, paying it twice, paying both it and the address.
 */
let t: TestApp;
let ada: RegisteredCustomer;
let bob: RegisteredCustomer;

beforeAll(async () => {
  t = await createTestApp({ CHAIN_POLL_SECONDS: '600' });
  ada = await registerVerifiedCustomer(t, 'ada.lightning.sell@example.com');
  bob = await registerVerifiedCustomer(t, 'bob.lightning.sell@example.com');
  for (const who of [ada, bob]) {
    await saveBank(t, who);
    await saveZelle(t, who, `${who.email}`);
    await fileW9(t, who);
  }
});
afterAll(async () => t.close());

const save = (who: RegisteredCustomer, payload: object) =>
  t.request({ method: 'POST', url: '/api/order/save', headers: who.auth, payload });
const pay = (invoice: string) =>
  t.request({ method: 'POST', url: '/api/dev/lightning/pay', payload: { invoice } });
const getOrder = async (who: RegisteredCustomer, id: string) => {
  const response = await t.request({
    method: 'GET',
    url: `/api/order/list?userId=${who.userId}`,
    headers: who.auth,
  });
  const found = response
    .json<{ result: { orders: { _id: string; status: string; txn: string; confirmations: number }[] } }>()
    .result.orders.find((order) => order._id === id);
  if (!found) throw new Error('order not listed');
  return found;
};
const row = async (id: string) => (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;

async function lightningSell(who: RegisteredCustomer, amountBtc: number) {
  const { payload } = await sellOrder(t, who, amountBtc, 'zelle', { deposit: 'lightning' });
  const response = await save(who, payload);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{
    order: {
      _id: string;
      lightning: { invoice: string; paymentHash: string; expiresAt: string };
      walletAddress: { address: string };
    };
  }>().order;
}

describe('a sell paid by Lightning', () => {
  it('carries an invoice for exactly the quoted satoshis, expiring with the quote, signed by the node', async () => {
    const order = await lightningSell(ada, 0.001);
    const invoice = decodeBolt11(order.lightning.invoice);
    expect(invoice.amountMsat).toBe(btcNumberToSats(0.001) * 1000n);
    expect(invoice.description).toBe(`OffZero order #${order._id.slice(0, 8)}`);
    expect(invoice.paymentHash).toBe(order.lightning.paymentHash);
    expect(invoice.network).toBe('testnet');
    expect(invoice.payee).toBe(nodePublicKey(demoNodeKey('operator')));
    const stored = await row(order._id);
    expect(
      Math.abs(stored.quoteExpiresAt.getTime() - (invoice.timestamp + invoice.expirySeconds) * 1000),
    ).toBeLessThan(2000);
    expect(new Date(order.lightning.expiresAt).getTime()).toBe(stored.lightningExpiresAt!.getTime());
    // An independent decoder reads the same invoice.
    const sections = independentDecode(order.lightning.invoice).sections;
    expect(sections.find((s) => s.name === 'amount')?.value).toBe(String(btcNumberToSats(0.001) * 1000n));
    // The on-chain address stays beside it.
    expect(order.walletAddress.address).toMatch(/^tb1q/);
  });

  it('paid from the demo wallet: credited at once, no confirmations to wait for, with the toast', async () => {
    const order = await lightningSell(ada, 0.0012);
    const paid = await pay(order.lightning.invoice);
    expect(paid.statusCode, paid.body).toBe(200);
    const { paymentHash, preimage } = paid.json<{ paymentHash: string; preimage: string }>();
    expect(paymentHash).toBe(order.lightning.paymentHash);
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(Buffer.from(preimage, 'hex')).digest('hex')).toBe(paymentHash);
    const after = await getOrder(ada, order._id);
    expect(after.status).toBe('processing');
    expect(after.txn).toBe(paymentHash);
    expect(after.confirmations).toBeGreaterThanOrEqual(1);
    const stored = await row(order._id);
    expect(stored.receivedSats).toBe(btcNumberToSats(0.0012));
    expect(stored.lightningPaidAt).not.toBeNull();
    // The customer's realtime "new transaction" toast, as for an on-chain deposit.
    const toast = await t.database.db
      .select()
      .from(outboxEvents)
      .where(eq(outboxEvents.eventKey, `lightning-credit:${order._id}:${paymentHash}`));
    expect(toast).toHaveLength(1);
    expect(toast[0]!.payload).toMatchObject({
      type: 'new-transaction',
      payload: { _id: order._id, txn: paymentHash },
    });
  });

  it('paying the invoice twice: the second is refused, the order credited once', async () => {
    const order = await lightningSell(ada, 0.0013);
    expect((await pay(order.lightning.invoice)).statusCode).toBe(200);
    const again = await pay(order.lightning.invoice);
    expect(again.statusCode).toBe(400);
    expect(again.json<{ message: string }>().message).toBe('The invoice is already paid.');
    // The webhook job asking again changes nothing.
    expect((await t.app.lightning!.reconcile()).credited).toBe(0);
    const stored = await row(order._id);
    expect(stored.receivedSats).toBe(btcNumberToSats(0.0013));
  });

  it('paying both the address and the invoice: the first credits, the second is flagged to return', async () => {
    const order = await lightningSell(ada, 0.0014);
    expect((await pay(order.lightning.invoice)).statusCode).toBe(200);
    const sent = await t.request({
      method: 'POST',
      url: '/api/dev/chain/send',
      payload: { address: order.walletAddress.address, amount: 0.0014 },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    await t.app.depositWatcher.pollOnce();
    const stored = await row(order._id);
    expect(stored.receivedSats).toBe(btcNumberToSats(0.0014));
    expect(stored.status).toBe('processing');
    expect(stored.flag).toBe('extra_deposit');
  });

  it('paying the address first, then the invoice: the Lightning payment is the extra one', async () => {
    const order = await lightningSell(ada, 0.0015);
    await t.request({
      method: 'POST',
      url: '/api/dev/chain/send',
      payload: { address: order.walletAddress.address, amount: 0.0015 },
    });
    await t.app.depositWatcher.pollOnce();
    expect((await row(order._id)).status).toBe('processing');
    expect((await pay(order.lightning.invoice)).statusCode).toBe(200);
    const stored = await row(order._id);
    expect(stored.receivedSats).toBe(btcNumberToSats(0.0015));
    expect(stored.flag).toBe('extra_deposit');
    expect(stored.flagNote).toContain('Lightning payment');
  });

  it('a sell over lightning.max_order_sats, or with Lightning off, is refused at the quote and at save', async () => {
    await t.database.db.update(globalSettings).set({ lightningMaxOrderSats: 100_000n });
    forgetCachedGlobalSettings();
    try {
      const quote = await t.request({
        method: 'POST',
        url: '/api/quotes',
        headers: ada.auth,
        payload: { type: 'sell', amount: 0.002, method: 'zelle', deposit: 'lightning' },
      });
      expect(quote.statusCode).toBe(400);
      expect(quote.json<{ message: string }>().message).toBe(
        'Lightning takes up to 0.00100000 BTC per order. Sell a smaller amount, or send bitcoin on chain instead.',
      );
      const { payload } = await sellOrder(t, ada, 0.002, 'zelle', { deposit: 'lightning' });
      expect((await save(ada, payload)).statusCode).toBe(400);
      await t.database.db
        .update(globalSettings)
        .set({ lightningMaxOrderSats: 5_000_000n, lightningActive: false });
      forgetCachedGlobalSettings();
      const off = await save(
        ada,
        (await sellOrder(t, ada, 0.0005, 'zelle', { deposit: 'lightning' })).payload,
      );
      expect(off.statusCode).toBe(400);
      expect(off.json<{ message: string }>().message).toBe(
        'Lightning is not available right now. Send bitcoin on chain instead.',
      );
    } finally {
      await t.database.db
        .update(globalSettings)
        .set({ lightningMaxOrderSats: 5_000_000n, lightningActive: true });
      forgetCachedGlobalSettings();
    }
  });

  it('another customer cannot read the order, and a malformed invoice is refused with words', async () => {
    const order = await lightningSell(ada, 0.0011);
    const timeline = await t.request({
      method: 'GET',
      url: `/api/order/${order._id}/timeline`,
      headers: bob.auth,
    });
    expect(timeline.statusCode).toBe(404);
    const bad = await pay('lntb1notaninvoice');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe('This is not a readable Lightning invoice.');
  });
});
