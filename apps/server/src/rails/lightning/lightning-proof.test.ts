import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderTimelineEntry } from '@offzero/shared/api/orders';
import type { OrderLightningPayout } from '@offzero/shared/api/order-lightning';
import { orders, outboxEvents } from '../../db/schema';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../../test/accounts-helpers';
import { csvRecords, pdfText } from '../../test/document-text';
import { newBuyOrderRow } from '../../test/new-buy-order-row';
import { fileW9, saveBank, saveZelle, sellOrder } from '../../test/sell-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { payOutByLightning } from './use-cases/pay-out-by-lightning';

/**
 * The proof of a Lightning payment everywhere it is shown (docs/design.md, "Lightning"): the order API,
 * the timeline, the PDF receipt, the yearly exports and the 1099-DA file carry the payment hash as the
 * transaction reference and the preimage that proves it.
 */
let t: TestApp;
let ada: RegisteredCustomer;
const AMOUNT = 100_000n;
const YEAR = new Date().getUTCFullYear();

beforeAll(async () => {
  t = await createTestApp({ CHAIN_POLL_SECONDS: '600' });
  ada = await registerVerifiedCustomer(t, 'ada.lightning.proof@example.com');
  await saveBank(t, ada);
  await saveZelle(t, ada, ada.email);
  await fileW9(t, ada);
});
afterAll(async () => t.close());

const get = (who: RegisteredCustomer, url: string) => t.request({ method: 'GET', url, headers: who.auth });
const sha256 = (hex: string) => createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');

async function timelineOf(orderId: string): Promise<OrderTimelineEntry[]> {
  const response = await get(ada, `/api/order/${orderId}/timeline`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ timeline: OrderTimelineEntry[] }>().timeline;
}

describe('a Lightning buy’s proof', () => {
  let orderId: string;
  let paymentHash: string;
  let preimage: string;

  beforeAll(async () => {
    const invoice = await t.request({
      method: 'POST',
      url: '/api/dev/lightning/invoice',
      payload: { amountSats: Number(AMOUNT) },
    });
    const [order] = await t.database.db
      .insert(orders)
      .values({
        ...newBuyOrderRow(ada.userId, 10_000n, {
          walletAddress: invoice.json<{ invoice: string }>().invoice,
          amountSats: AMOUNT,
        }),
        status: 'processing',
        paymentConfirmedAt: new Date(),
      })
      .returning();
    orderId = order!.id;
    const deps = {
      db: t.database.db,
      node: t.app.providers.lightning!,
      network: 'testnet' as const,
      now: () => new Date(),
    };
    expect((await payOutByLightning(deps, orderId, 'test')).state).toBe('settled');
    const [paid] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    paymentHash = paid!.txn!;
    preimage = paid!.lightningPreimage!;
    expect(sha256(preimage)).toBe(paymentHash);
  });

  it('the order API shows the settled payout with its preimage and fee', async () => {
    const listed = await get(ada, `/api/order/list?userId=${ada.userId}`);
    const order = listed
      .json<{ result: { orders: { _id: string; txn: string; lightningPayout?: OrderLightningPayout }[] } }>()
      .result.orders.find((row) => row._id === orderId)!;
    expect(order.txn).toBe(paymentHash);
    expect(order.lightningPayout).toEqual({
      status: 'settled',
      destinationKind: 'invoice',
      paymentHash,
      preimage,
      feeSats: expect.any(Number),
      failureReason: null,
      canRetry: false,
    });
  });

  it('the realtime order update carries the settled payout, so an open page shows the proof', async () => {
    const updates = await t.database.db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.channel, 'realtime'), eq(outboxEvents.recipient, ada.userId)));
    const completed = updates
      .map(
        (row) =>
          row.payload as {
            type: string;
            payload?: { order?: { _id: string; status: string; lightningPayout?: OrderLightningPayout } };
          },
      )
      .find(
        (payload) => payload.payload?.order?._id === orderId && payload.payload.order.status === 'completed',
      );
    expect(completed?.payload?.order?.lightningPayout).toMatchObject({ status: 'settled', preimage });
  });

  it('the timeline names the payment hash and the preimage, not a chain transaction', async () => {
    const sent = (await timelineOf(orderId)).find((step) => step.status === 'completed')!;
    expect(sent.title).toBe('Bitcoin sent by Lightning');
    expect(sent.reference).toEqual({ kind: 'lightning', value: paymentHash, preimage });
  });

  it('the PDF receipt prints the payment hash and the preimage', async () => {
    const response = await get(ada, `/api/order/${orderId}/receipt`);
    expect(response.statusCode).toBe(200);
    const text = (await pdfText(response.rawPayload)).replace(/\s+/g, '');
    expect(text).toContain(paymentHash);
    expect(text).toContain(preimage);
    expect(text).toContain('Preimage(proofofpayment)');
  });

  it('the yearly exports use the payment hash as the transaction and carry the preimage', async () => {
    const own = csvRecords((await get(ada, `/api/tax/export?year=${YEAR}&format=offzero`)).body).records;
    expect(own.find((r) => r['Order ID'] === orderId)).toMatchObject({
      'Transaction ID': paymentHash,
      'Lightning Preimage': preimage,
    });
    const koinly = csvRecords((await get(ada, `/api/tax/export?year=${YEAR}&format=koinly`)).body).records;
    const row = koinly.find((r) => r.Description?.includes(orderId))!;
    expect(row.TxHash).toBe(paymentHash);
    expect(row.Description).toContain(`preimage ${preimage}`);
  });
});

describe('a sell paid by Lightning carries the incoming payment as its reference', () => {
  it('in the timeline and in the 1099-DA file', async () => {
    const { payload } = await sellOrder(t, ada, 0.001, 'zelle', { deposit: 'lightning' });
    const saved = await t.request({ method: 'POST', url: '/api/order/save', headers: ada.auth, payload });
    expect(saved.statusCode, saved.body).toBe(200);
    const order = saved.json<{
      order: { _id: string; lightning: { invoice: string; paymentHash: string } };
    }>().order;
    const paid = await t.request({
      method: 'POST',
      url: '/api/dev/lightning/pay',
      payload: { invoice: order.lightning.invoice },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const { preimage } = paid.json<{ preimage: string }>();

    const received = (await timelineOf(order._id)).find((step) => step.title === 'Paid by Lightning')!;
    expect(received.reference).toEqual({ kind: 'lightning', value: order.lightning.paymentHash, preimage });

    // Paid out in dollars by staff: the sale is in the year's 1099-DA file with its Lightning reference.
    await t.database.db
      .update(orders)
      .set({ status: 'completed', completedAt: new Date(), bankTxn: 'ZELLE-1' })
      .where(eq(orders.id, order._id));
    const { auth } = await logIn(t, 'admin@offzero.local');
    const file = await t.request({
      method: 'GET',
      url: `/api/admin/tax/1099-da?year=${YEAR}`,
      headers: auth,
    });
    expect(file.statusCode).toBe(200);
    expect(csvRecords(file.body).records.find((r) => r['Order ID'] === order._id)).toMatchObject({
      'Transaction ID': order.lightning.paymentHash,
      'Lightning Preimage': preimage,
    });
  });
});
