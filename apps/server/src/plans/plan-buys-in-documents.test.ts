import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEvents, orders } from '../db/schema';
import { registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { csvRecords, pdfText } from '../test/document-text';
import { newBuyOrderRow } from '../test/new-buy-order-row';
import { createTestApp, type TestApp } from '../test/test-app';

/**
 * Plan and deposit buys name their source in the customer's tax exports, statement and receipts
 * (docs/design.md, "Recurring buys"); the customer's own buys do not.
 */
let t: TestApp;
let ada: RegisteredCustomer;
const YEAR = new Date().getUTCFullYear();
const at = new Date(Date.UTC(YEAR, 0, 10, 12, 0, 0));
const ids: Record<'own' | 'recurring' | 'deposit', string> = { own: '', recurring: '', deposit: '' };

async function completedBuy(origin: 'recurring' | 'deposit' | null): Promise<string> {
  const [order] = await t.database.db
    .insert(orders)
    .values({
      ...newBuyOrderRow(ada.userId, 5_000n, { origin, paymentMethod: 'ach' }),
      status: 'completed',
      createdAt: at,
      completedAt: at,
    })
    .returning();
  return order!.id;
}

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: ada.auth });

beforeAll(async () => {
  t = await createTestApp();
  ada = await registerVerifiedCustomer(t, 'ada.documents.plans@example.com');
  ids.own = await completedBuy(null);
  ids.recurring = await completedBuy('recurring');
  ids.deposit = await completedBuy('deposit');
  // The deposit's step in the timeline names who sent it.
  await t.database.db.insert(orderEvents).values({
    orderId: ids.deposit,
    fromStatus: 'processing',
    toStatus: 'processing',
    actor: 'bank',
    reason: 'deposit 110000001234567 from Ada Lovelace bought bitcoin',
    details: { event: 'bank_credit', traceNumber: '110000001234567', originatorName: 'Acme Payroll Inc' },
  });
});
afterAll(async () => t.close());

describe('plan and deposit buys in the documents', () => {
  it('the OffZero export has a Source column; Koinly’s Description says it', async () => {
    const own = csvRecords((await get(`/api/tax/export?year=${YEAR}&format=offzero`)).body);
    const source = Object.fromEntries(own.records.map((r) => [r['Order ID'], r.Source]));
    expect(source).toEqual({ [ids.own]: '', [ids.recurring]: 'Recurring buy', [ids.deposit]: 'Deposit buy' });
    const koinly = csvRecords((await get(`/api/tax/export?year=${YEAR}&format=koinly`)).body);
    const descriptions = koinly.records.map((r) => r.Description);
    expect(descriptions).toContain(`OffZero buy ${ids.recurring} (Recurring buy)`);
    expect(descriptions).toContain(`OffZero buy ${ids.deposit} (Deposit buy)`);
    expect(descriptions).toContain(`OffZero buy ${ids.own}`);
  });

  it('the statement lists them as recurring and deposit buys', async () => {
    const text = await pdfText((await get(`/api/tax/statement?year=${YEAR}`)).rawPayload);
    expect(text).toContain('recurring buy');
    expect(text).toContain('deposit buy');
  });

  it('the receipt names the source, and a deposit buy’s sender', async () => {
    const deposit = await pdfText((await get(`/api/order/${ids.deposit}/receipt`)).rawPayload);
    expect(deposit).toContain('Deposit buy (you bought bitcoin)');
    expect(deposit).toContain('Acme Payroll Inc');
    const recurring = await pdfText((await get(`/api/order/${ids.recurring}/receipt`)).rawPayload);
    expect(recurring).toContain('Recurring buy (you bought bitcoin)');
    const own = await pdfText((await get(`/api/order/${ids.own}/receipt`)).rawPayload);
    expect(own).toContain('Buy (you bought bitcoin)');
    expect(own).not.toContain('Deposit sent by');
  });
});
