import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adminActions, orders, outboxMessages } from '../db/schema';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { placeConfirmedBuyOrder } from '../test/buy-helpers';
import { csvRecords, pdfText } from '../test/document-text';
import { fileW9, TEST_W9 } from '../test/sell-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

/**
 * Tax documents (docs/design.md): the yearly CSV exports read back by a real CSV parser, the receipts
 * and statements read back by a real PDF reader, and the operator's 1099-DA file. The orders are
 * written straight into the database as completed orders with known figures.
 */
let t: TestApp;
let ada: RegisteredCustomer;
let bob: RegisteredCustomer;
let carol: RegisteredCustomer;
let admin: RegisteredCustomer;
const YEAR = new Date().getUTCFullYear();
const HOSTILE = '=HYPERLINK("http://evil.example","click"), "quoted"\nnext line';

type NewOrder = typeof orders.$inferInsert;
async function completedOrder(who: RegisteredCustomer, values: Partial<NewOrder>) {
  const at = values.completedAt ?? new Date(Date.UTC(YEAR, 0, 15, 10, 30, 0));
  const [order] = await t.database.db
    .insert(orders)
    .values({
      userId: who.userId,
      type: 'buy',
      status: 'completed',
      amountSats: 1_234_500n,
      valueCents: 100_000n,
      priceCents: 7_900_000n,
      platformFeeCents: 1_500n,
      networkFeeCents: 250n,
      bankFeeCents: 0n,
      quoteExpiresAt: at,
      createdAt: at,
      completedAt: at,
      ...values,
    })
    .returning();
  if (!order) throw new Error('no order');
  return order;
}

let adaBuy: Awaited<ReturnType<typeof completedOrder>>;
let adaSell: Awaited<ReturnType<typeof completedOrder>>;
let bobSell: Awaited<ReturnType<typeof completedOrder>>;

beforeAll(async () => {
  t = await createTestApp();
  ada = await registerVerifiedCustomer(t, 'ada.tax@example.com');
  bob = await registerVerifiedCustomer(t, 'bob.tax@example.com');
  carol = await registerVerifiedCustomer(t, 'carol.tax@example.com');
  admin = await logIn(t, 'admin@offzero.local');
  await fileW9(t, ada, { ...TEST_W9, legalName: 'Ada, "Countess" Lovelace' });
  adaBuy = await completedOrder(ada, {
    type: 'buy',
    paymentMethod: 'zelle',
    walletAddress: 'tb1qn9pd7k0nwl4d5xpyyrhcvtzuc9x7rxe3q9sd8h',
    txn: 'a'.repeat(64),
    bankTxn: HOSTILE,
  });
  adaSell = await completedOrder(ada, {
    type: 'sell',
    amountSats: 5_000_000n,
    priceCents: 8_000_000n,
    // Gross $4,000.00, fee $60.00, ACH $1.00: she receives $3,939.00.
    valueCents: 393_900n,
    platformFeeCents: 6_000n,
    networkFeeCents: 0n,
    bankFeeCents: 100n,
    paymentMethod: 'ach',
    walletAddress: 'tb1qdeposit0000000000000000000000000000000',
    txn: 'b'.repeat(64),
    bankTxn: '+ACH-REF-1',
    completedAt: new Date(Date.UTC(YEAR, 0, 20, 8, 5, 9)),
  });
  bobSell = await completedOrder(bob, {
    type: 'sell',
    amountSats: 1_000_000n,
    valueCents: 79_000n,
    platformFeeCents: 1_200n,
    networkFeeCents: 0n,
    paymentMethod: 'zelle',
    bankTxn: 'BOB-REF',
    completedAt: new Date(Date.UTC(YEAR, 0, 25)),
  });
  // Not in the exports: pending, and last year's.
  await completedOrder(ada, { status: 'pending', completedAt: null, bankTxn: 'PENDING-REF' });
  await completedOrder(ada, {
    bankTxn: 'LAST-YEAR-REF',
    completedAt: new Date(Date.UTC(YEAR - 1, 11, 31, 23, 59)),
  });
});
afterAll(async () => t.close());

const get = (who: RegisteredCustomer | null, url: string) =>
  t.request({ method: 'GET', url, headers: who?.auth ?? {} });

describe('yearly CSV exports', () => {
  it("OffZero's layout has every figure of the year's completed orders, and only the customer's own", async () => {
    const answer = await get(ada, `/api/tax/export?year=${YEAR}&format=offzero`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="offzero-offzero-${YEAR}.csv"`);
    const { header, records } = csvRecords(answer.body);
    expect(header).toEqual([
      'Date (UTC)', 'Type', 'BTC Amount', 'USD Value', 'Rate (USD per BTC)', 'Platform Fee (USD)',
      'Network Fee (USD)', 'Bank Fee (USD)', 'Total Fees (USD)', 'Cost Basis or Proceeds (USD)',
      'Payment Method', 'Address', 'Transaction ID', 'Lightning Preimage', 'Bank Reference', 'Order ID', 'Source',
    ]); // prettier-ignore
    expect(records.map((r) => r['Order ID'])).toEqual([adaBuy.id, adaSell.id]);
    expect(records[0]).toMatchObject({
      'Date (UTC)': `${YEAR}-01-15T10:30:00.000Z`,
      Type: 'buy',
      'BTC Amount': '0.01234500',
      'USD Value': '1000.00',
      'Rate (USD per BTC)': '79000.00',
      'Platform Fee (USD)': '15.00',
      'Network Fee (USD)': '2.50',
      'Total Fees (USD)': '17.50',
      'Cost Basis or Proceeds (USD)': '1000.00',
      'Payment Method': 'zelle',
      'Transaction ID': 'a'.repeat(64),
      // The formula is neutralised; the quotes, comma and line break survive the round trip.
      'Bank Reference': `'${HOSTILE}`,
    });
    expect(records[1]).toMatchObject({
      Type: 'sell',
      'BTC Amount': '0.05000000',
      'USD Value': '3939.00',
      'Bank Fee (USD)': '1.00',
      'Total Fees (USD)': '61.00',
      'Bank Reference': "'+ACH-REF-1",
    });
    expect(answer.body).not.toContain('BOB-REF');
    expect(answer.body).not.toContain('PENDING-REF');
    expect(answer.body).not.toContain('LAST-YEAR-REF');
  });

  it("Koinly's universal layout: a buy's cost includes its fees, a sell's proceeds are after them", async () => {
    const { header, records } = csvRecords(
      (await get(ada, `/api/tax/export?year=${YEAR}&format=koinly`)).body,
    );
    expect(header).toEqual([
      'Date', 'Sent Amount', 'Sent Currency', 'Received Amount', 'Received Currency', 'Fee Amount',
      'Fee Currency', 'Net Worth Amount', 'Net Worth Currency', 'Label', 'Description', 'TxHash',
    ]); // prettier-ignore
    const [buy, sell] = records;
    expect(buy).toMatchObject({
      Date: `${YEAR}-01-15 10:30 UTC`,
      'Sent Amount': '982.50',
      'Sent Currency': 'USD',
      'Received Amount': '0.01234500',
      'Received Currency': 'BTC',
      'Fee Amount': '17.50',
      'Fee Currency': 'USD',
      TxHash: 'a'.repeat(64),
    });
    // Cost = sent + fee = everything paid.
    expect(Number(buy?.['Sent Amount']) + Number(buy?.['Fee Amount'])).toBeCloseTo(1000, 2);
    expect(sell).toMatchObject({
      Date: `${YEAR}-01-20 08:05 UTC`,
      'Sent Amount': '0.05000000',
      'Sent Currency': 'BTC',
      'Received Amount': '4000.00',
      'Fee Amount': '61.00',
    });
    // Proceeds = received − fee = what she was paid.
    expect(Number(sell?.['Received Amount']) - Number(sell?.['Fee Amount'])).toBeCloseTo(3939, 2);
  });

  it("CoinTracker's import layout with its exact header and date format", async () => {
    const { header, records } = csvRecords(
      (await get(ada, `/api/tax/export?year=${YEAR}&format=cointracker`)).body,
    );
    expect(header).toEqual([
      'Date', 'Received Quantity', 'Received Currency', 'Sent Quantity', 'Sent Currency', 'Fee Amount',
      'Fee Currency', 'Tag',
    ]); // prettier-ignore
    expect(records[0]).toMatchObject({
      Date: `01/15/${YEAR} 10:30:00`,
      'Received Quantity': '0.01234500',
      'Received Currency': 'BTC',
      'Sent Quantity': '982.50',
      'Sent Currency': 'USD',
      'Fee Amount': '17.50',
    });
    expect(records[1]).toMatchObject({
      Date: `01/20/${YEAR} 08:05:09`,
      'Received Quantity': '4000.00',
      'Received Currency': 'USD',
      'Sent Quantity': '0.05000000',
      'Sent Currency': 'BTC',
      'Fee Amount': '61.00',
    });
  });

  it('pages through a long year exactly once per order, ties on the same instant included', async () => {
    const dave = await registerVerifiedCustomer(t, 'dave.tax@example.com');
    const sameInstant = new Date(Date.UTC(YEAR, 1, 1, 12, 0, 0));
    const rows = Array.from({ length: 1_100 }, (_, i) => {
      const at = i % 2 === 0 ? sameInstant : new Date(sameInstant.getTime() + i * 1_000);
      return {
        userId: dave.userId,
        type: 'buy' as const,
        status: 'completed' as const,
        amountSats: 10_000n + BigInt(i),
        valueCents: 1_000n,
        priceCents: 7_900_000n,
        platformFeeCents: 15n,
        networkFeeCents: 5n,
        bankFeeCents: 0n,
        quoteExpiresAt: at,
        createdAt: at,
        completedAt: at,
        bankTxn: `DAVE-${i}`,
      };
    });
    for (let i = 0; i < rows.length; i += 250)
      await t.database.db.insert(orders).values(rows.slice(i, i + 250));
    const { records } = csvRecords((await get(dave, `/api/tax/export?year=${YEAR}&format=offzero`)).body);
    expect(records).toHaveLength(1_100);
    expect(new Set(records.map((r) => r['Order ID'])).size).toBe(1_100);
    const text = await pdfText((await get(dave, `/api/tax/statement?year=${YEAR}`)).rawPayload);
    expect(text).toContain('1100 orders · ');
    expect(text).toContain('$11,000.00 (fees included)');
  });

  it('a year without orders is the header alone', async () => {
    for (const format of ['offzero', 'koinly', 'cointracker']) {
      const answer = await get(carol, `/api/tax/export?year=${YEAR}&format=${format}`);
      expect(answer.statusCode).toBe(200);
      const { header, records } = csvRecords(answer.body);
      expect(header.length).toBeGreaterThan(5);
      expect(records).toEqual([]);
    }
  });

  it('refuses a future, malformed or missing year, an unknown format, and no session', async () => {
    for (const query of [
      `year=${YEAR + 1}&format=offzero`,
      'year=20x6&format=offzero',
      'year=99999&format=offzero',
      'year=1999&format=offzero',
      'format=offzero',
      `year=${YEAR}&format=turbotax`,
      `year=${YEAR}&format=offzero&userId=${bob.userId}`,
    ]) {
      const answer = await get(ada, `/api/tax/export?${query}`);
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json().message, query).toBeTruthy();
    }
    expect((await get(null, `/api/tax/export?year=${YEAR}&format=offzero`)).statusCode).toBe(401);
  });
});

describe('PDF receipts', () => {
  it("carry every figure, the addresses, the company's name and address and the timeline", async () => {
    const answer = await get(ada, `/api/order/${adaSell.id}/receipt`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.headers['content-disposition']).toBe(
      `attachment; filename="offzero-receipt-${adaSell.id.slice(0, 8)}.pdf"`,
    );
    const text = await pdfText(answer.rawPayload);
    for (const expected of [
      'OffZero',
      t.config.postalAddress,
      t.config.supportEmail,
      'Receipt — Bitcoin sale',
      adaSell.id,
      '0.05000000 BTC',
      '$80,000.00 per BTC',
      '$4,000.00',
      '$60.00',
      '$1.00',
      '$3,939.00',
      '$61.00',
      'ACH bank transfer',
      'tb1qdeposit0000000000000000000000000000000',
      'b'.repeat(64),
      '+ACH-REF-1',
      `${YEAR}-01-20 08:05:09 UTC`,
    ]) {
      expect(text, expected).toContain(expected);
    }
  });

  it("shows a buy's payment, fees and payout, with its timeline", async () => {
    const text = await pdfText((await get(ada, `/api/order/${adaBuy.id}/receipt`)).rawPayload);
    for (const expected of [
      'Receipt — Bitcoin purchase',
      '$1,000.00',
      '$15.00',
      '$2.50',
      '$982.50',
      '0.01234500 BTC',
      'Zelle',
      'Timeline',
    ]) {
      expect(text, expected).toContain(expected);
    }
  });

  it("answers 404 for another customer's order, a malformed id and an unknown one", async () => {
    for (const id of [bobSell.id, 'not-an-id', '00000000-0000-4000-8000-000000000000']) {
      const answer = await get(ada, `/api/order/${id}/receipt`);
      expect(answer.statusCode, id).toBe(404);
      expect(answer.body).not.toContain('BOB-REF');
    }
    expect((await get(null, `/api/order/${adaBuy.id}/receipt`)).statusCode).toBe(401);
  });
});

describe('annual statements', () => {
  it('total what was bought, sold and paid in fees, and list the orders', async () => {
    const answer = await get(ada, `/api/tax/statement?year=${YEAR}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(answer.rawPayload);
    for (const expected of [
      `Annual statement ${YEAR}`,
      '1 order · 0.01234500 BTC for $1,000.00 (fees included)',
      '1 order · 0.05000000 BTC for $3,939.00 (after fees)',
      '$78.50',
      adaBuy.id,
      adaSell.id,
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain(bobSell.id);
  });

  it('say so when the year had no orders, and refuse a future year', async () => {
    const text = await pdfText((await get(carol, `/api/tax/statement?year=${YEAR}`)).rawPayload);
    expect(text).toContain(`You had no completed orders in ${YEAR}.`);
    expect((await get(ada, `/api/tax/statement?year=${YEAR + 1}`)).statusCode).toBe(400);
    expect((await get(ada, '/api/tax/statement?year=abc')).statusCode).toBe(400);
  });
});

describe('the 1099-DA file', () => {
  it('is for staff only', async () => {
    expect((await get(ada, `/api/admin/tax/1099-da?year=${YEAR}`)).statusCode).toBe(403);
    expect((await get(null, `/api/admin/tax/1099-da?year=${YEAR}`)).statusCode).toBe(401);
  });

  it('lists every completed sell, sellers without a W-9 first, with masked TINs, and is audited', async () => {
    const answer = await get(admin, `/api/admin/tax/1099-da?year=${YEAR}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="offzero-1099-da-${YEAR}.csv"`);
    const { records } = csvRecords(answer.body);
    expect(records.map((r) => r['Order ID'])).toEqual([bobSell.id, adaSell.id]);
    expect(records[0]).toMatchObject({ 'W-9 Status': 'missing', 'Legal Name': '', 'TIN (masked)': '' });
    expect(records[1]).toMatchObject({
      'Legal Name': 'Ada, "Countess" Lovelace',
      'TIN (masked)': '***-**-6789',
      'TIN Type': 'SSN',
      Address: '12 Engine Row',
      City: 'Cheyenne',
      State: 'WY',
      ZIP: '82001',
      'Date Sold': `${YEAR}-01-20`,
      'Gross Proceeds (USD)': '3939.00',
      'Transaction Costs (USD)': '61.00',
      'Quantity (BTC)': '0.05000000',
      'Cost Basis': 'noncovered',
    });
    expect(records[1]?.['W-9 Status']).toMatch(/^on file/);
    expect(answer.body).not.toContain('123456789');
    expect(answer.body).not.toContain(adaBuy.id);
    const audit = await t.database.db.select().from(adminActions);
    expect(audit.filter((a) => a.action === 'tax.1099da_export' && a.targetId === String(YEAR))).toHaveLength(
      1,
    );
  });
});

describe('the completion e-mail', () => {
  it("links to the order's receipt on My Orders, which needs the customer's session", async () => {
    const dan = await registerVerifiedCustomer(t, 'dan.tax@example.com');
    const orderId = await placeConfirmedBuyOrder(t, dan, 250);
    const asAdmin = (url: string, payload: object) =>
      t.request({ method: 'POST', url, headers: admin.auth, payload });
    await t.request({
      method: 'POST',
      url: '/api/order/update',
      headers: dan.auth,
      payload: { _id: orderId, payment: { method: 'zelle' }, status: 'processing' },
    });
    expect((await asAdmin(`/api/admin/orders/${orderId}/mark-paid`, {})).statusCode).toBe(200);
    expect(
      (await asAdmin(`/api/admin/orders/${orderId}/payout-btc`, { txid: 'c'.repeat(64) })).statusCode,
    ).toBe(200);

    const messages = await t.database.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.to, 'dan.tax@example.com'));
    const completion = messages.filter((m) => m.text.includes('is complete'));
    expect(completion).toHaveLength(1);
    const link = `${t.config.publicUrl}/orders?order=${orderId}`;
    expect(completion[0]?.text).toContain(`Your receipt: ${link}`);
    // Only the completion carries it: the earlier notices of the order do not.
    expect(messages.filter((m) => m.text.includes('/orders?order='))).toHaveLength(1);

    // The page it opens offers the receipt, which is the signed-in customer's alone.
    expect((await get(null, `/api/order/${orderId}/receipt`)).statusCode).toBe(401);
    expect((await get(ada, `/api/order/${orderId}/receipt`)).statusCode).toBe(404);
    const receipt = await get(dan, `/api/order/${orderId}/receipt`);
    expect(receipt.statusCode).toBe(200);
    expect(await pdfText(receipt.rawPayload)).toContain(orderId);
  });
});
