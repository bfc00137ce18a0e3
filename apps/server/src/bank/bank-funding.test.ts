import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bankInboundCredits, kycRecords, orders } from '../db/schema';
import {
  logIn,
  registerCustomer,
  registerVerifiedCustomer,
  type RegisteredCustomer,
} from '../test/accounts-helpers';
import { placeBuyOrder } from '../test/buy-helpers';
import { createTestApp, type TestApp } from '../test/test-app';
import { DEMO_ADMIN_EMAIL } from '../config/config';
import { findVerifiedName } from './bank-credits.repository';

const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 20_000, interval: 100 });

interface Funding {
  accountNumber: string;
  routingNumber: string;
  bankName: string;
  accountHolder: string;
}

describe('customers’ own account numbers and inbound bank credits (demo bank)', () => {
  let t: TestApp;
  let ada: RegisteredCustomer;
  let bob: RegisteredCustomer;
  let admin: RegisteredCustomer;
  let adaFunding: Funding;
  let bobFunding: Funding;
  let adaName: string;

  const funding = (who: RegisteredCustomer) =>
    t.request({ method: 'GET', url: '/api/funding', headers: who.auth });
  const inbound = (payload: Record<string, unknown>) =>
    t.request({ method: 'POST', url: '/api/dev/bank/inbound', payload });
  const orderRow = async (id: string) =>
    (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const creditsOf = async (traceNumber: string) =>
    t.database.db.select().from(bankInboundCredits).where(eq(bankInboundCredits.traceNumber, traceNumber));
  /** Applies what the bank sent (the inbox's job), until the credit with this trace is stored. */
  const applied = async (traceNumber: string) =>
    eventually(async () => {
      await t.app.inbox.process(null);
      expect(await creditsOf(traceNumber)).toHaveLength(1);
    });

  beforeAll(async () => {
    t = await createTestApp();
    ada = await registerVerifiedCustomer(t, 'ada.bank-funding@example.com');
    bob = await registerVerifiedCustomer(t, 'bob.bank-funding@example.com');
    admin = await logIn(t, DEMO_ADMIN_EMAIL);
    // The name her verification carries, which a sending bank's originator name is compared with.
    await t.database.db
      .update(kycRecords)
      .set({ legalName: 'Ada Lovelace' })
      .where(eq(kycRecords.userId, ada.userId));
    adaName = (await findVerifiedName(t.database.db, ada.userId))!;
    expect(adaName).toBe('Ada Lovelace');
  });
  afterAll(async () => t.close());

  it('gives a verified customer one account number, however many first calls arrive at once', async () => {
    const answers = await Promise.all([funding(ada), funding(ada), funding(ada)]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const numbers = new Set(answers.map((answer) => answer.json<Funding>().accountNumber));
    expect(numbers.size).toBe(1);
    adaFunding = answers[0].json<Funding>();
    expect(adaFunding).toMatchObject({ routingNumber: '110000000', bankName: 'OffZero Demo Bank' });
    expect(adaFunding.accountNumber).toMatch(/^\d{12}$/);
    bobFunding = (await funding(bob)).json<Funding>();
    expect(bobFunding.accountNumber).not.toBe(adaFunding.accountNumber);

    const unverified = await registerCustomer(t, 'cy.bank-funding@example.com');
    const refused = await funding(unverified);
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toBe(
      'Verify your identity to get your own account number.',
    );
  });

  it('looks routing numbers up: checksum failures 400, known ones with their networks', async () => {
    const look = (rn: string) =>
      t.request({ method: 'GET', url: `/api/bank/routing/${rn}`, headers: ada.auth });
    const bad = await look('110000001');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe('This is not a valid routing number.');
    expect((await look('12345')).statusCode).toBe(400);
    expect((await look('021000021')).json()).toMatchObject({
      routingNumber: '021000021',
      ach: true,
      rtp: false,
      fednow: false,
    });
    expect((await look('110000000')).json()).toMatchObject({
      ach: true,
      wire: true,
      rtp: true,
      fednow: true,
    });
  });

  it('pays the oldest pending buy of exactly that amount with no operator, the trace as bankTxn, once', async () => {
    const older = await placeBuyOrder(t, ada, 25);
    // Another amount (two pending buys of the same figures within 10 s are one order).
    const newer = await placeBuyOrder(t, ada, 26);
    const sent = await inbound({
      accountNumber: adaFunding.accountNumber,
      amount: 25,
      originatorName: adaName.toUpperCase(),
      rail: 'ach',
      traceNumber: '110000001234567',
    });
    expect(sent.statusCode).toBe(200);
    await applied('110000001234567');
    const paid = await orderRow(older);
    expect(paid).toMatchObject({
      status: 'processing',
      bankTxn: '110000001234567',
      paymentConfirmedBy: 'bank',
    });
    expect(paid.paymentConfirmedAt).not.toBeNull();
    expect((await orderRow(newer)).paymentConfirmedAt).toBeNull();

    // The same trace number again credits nothing more.
    await inbound({
      accountNumber: adaFunding.accountNumber,
      amount: 25,
      originatorName: adaName,
      rail: 'ach',
      traceNumber: '110000001234567',
    });
    await eventually(async () => {
      await t.app.inbox.process(null);
      const pending = await t.app.inbox.counts();
      expect(pending.pending).toBe(0);
    });
    expect(await creditsOf('110000001234567')).toHaveLength(1);
    expect((await orderRow(newer)).paymentConfirmedAt).toBeNull();

    const timeline = await t.request({
      method: 'GET',
      url: `/api/order/${older}/timeline`,
      headers: ada.auth,
    });
    const step = timeline
      .json<{ timeline: { kind: string; title: string; reference: { value: string } | null }[] }>()
      .timeline.find((entry) => entry.kind === 'bank_credit');
    expect(step).toMatchObject({ title: 'Bank transfer received', reference: { value: '110000001234567' } });
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/offzero_bank_inbound_credits_total\{outcome="matched"\} 1/);
    expect(metrics.body).toMatch(/offzero_bank_inbound_credits_total\{outcome="duplicate"\} 1/);
  });

  it('never pays another customer’s order, a cancelled one, another amount, or under another name', async () => {
    const bobsOrder = await placeBuyOrder(t, bob, 40);
    // Bob's amount, sent to Ada's account number: Ada has no such buy, Bob's stays unpaid.
    await inbound({
      accountNumber: adaFunding.accountNumber,
      amount: 40,
      originatorName: adaName,
      rail: 'wire',
      traceNumber: 'T1OTHER',
    });
    await applied('T1OTHER');
    expect((await orderRow(bobsOrder)).paymentConfirmedAt).toBeNull();

    const cancelled = await placeBuyOrder(t, ada, 31);
    const cancel = await t.request({
      method: 'POST',
      url: '/api/order/cancel',
      headers: ada.auth,
      payload: { _id: cancelled, reason: 'changed my mind' },
    });
    expect(cancel.statusCode).toBe(200);
    await inbound({
      accountNumber: adaFunding.accountNumber,
      amount: 31,
      originatorName: adaName,
      rail: 'ach',
      traceNumber: 'T2CANCELLED',
    });
    await applied('T2CANCELLED');
    expect((await orderRow(cancelled)).status).toBe('cancelled');

    const fifty = await placeBuyOrder(t, ada, 50);
    await inbound({
      accountNumber: adaFunding.accountNumber,
      amount: 100,
      originatorName: adaName,
      rail: 'ach',
      traceNumber: 'T3TWICE',
    });
    await applied('T3TWICE');
    await inbound({
      accountNumber: adaFunding.accountNumber,
      amount: 50,
      originatorName: 'Mallory Stranger',
      rail: 'ach',
      traceNumber: 'T4NAME',
    });
    await applied('T4NAME');
    expect((await orderRow(fifty)).paymentConfirmedAt).toBeNull();

    for (const trace of ['T1OTHER', 'T2CANCELLED', 'T3TWICE', 'T4NAME'])
      expect((await creditsOf(trace))[0]).toMatchObject({ status: 'unmatched', orderId: null });
    expect((await creditsOf('T4NAME'))[0]!.reason).toContain('not the customer');

    const queue = await t.request({
      method: 'GET',
      url: '/api/admin/bank-credits?status=unmatched',
      headers: admin.auth,
    });
    expect(
      queue.json<{ credits: { traceNumber: string }[] }>().credits.map((credit) => credit.traceNumber),
    ).toEqual(expect.arrayContaining(['T1OTHER', 'T2CANCELLED', 'T3TWICE', 'T4NAME']));
    const asCustomer = await t.request({ method: 'GET', url: '/api/admin/bank-credits', headers: ada.auth });
    expect(asCustomer.statusCode).toBe(403);
  });

  it('lets an operator match a held credit to its customer’s order, never to another customer’s, or return it', async () => {
    const [nameCredit] = await creditsOf('T4NAME');
    const fifty = (await t.database.db.select().from(orders).where(eq(orders.userId, ada.userId))).find(
      (order) => order.valueCents === 5000n,
    )!;
    const bobsOrder = await placeBuyOrder(t, bob, 50);
    const match = (creditId: string, orderId: string) =>
      t.request({
        method: 'POST',
        url: `/api/admin/bank-credits/${creditId}/match`,
        headers: admin.auth,
        payload: { orderId },
      });

    expect((await match(nameCredit!.id, bobsOrder)).statusCode).toBe(404);
    const [twice] = await creditsOf('T3TWICE');
    expect((await match(twice!.id, fifty.id)).statusCode).toBe(409);

    const matched = await match(nameCredit!.id, fifty.id);
    expect(matched.statusCode).toBe(200);
    expect(await orderRow(fifty.id)).toMatchObject({
      bankTxn: 'T4NAME',
      paymentConfirmedBy: DEMO_ADMIN_EMAIL,
    });
    expect((await match(nameCredit!.id, fifty.id)).statusCode).toBe(409);

    const returned = await t.request({
      method: 'POST',
      url: `/api/admin/bank-credits/${twice!.id}/return`,
      headers: admin.auth,
      payload: { reason: 'twice the order amount' },
    });
    expect(returned.statusCode).toBe(200);
    expect((await creditsOf('T3TWICE'))[0]).toMatchObject({ status: 'returned' });
    const transfers = await t.request({
      method: 'GET',
      url: `/api/dev/bank/transfers?accountNumber=${adaFunding.accountNumber}`,
    });
    const bankSide = transfers
      .json<{ transfers: { id: string; status: string; returnCode: string | null }[] }>()
      .transfers.find((transfer) => transfer.id === twice!.bankTransferId);
    expect(bankSide).toMatchObject({ status: 'returned', returnCode: 'R23' });
    expect(
      (
        await t.request({
          method: 'POST',
          url: `/api/admin/bank-credits/${twice!.id}/match`,
          headers: admin.auth,
          payload: { orderId: fifty.id },
        })
      ).statusCode,
    ).toBe(409);
  });

  it('answers 404 for a transfer id the demo bank does not hold, and refuses a bad return code', async () => {
    const settle = await t.request({
      method: 'POST',
      url: '/api/dev/bank/transfers/ach_transfer_nope/settle',
    });
    expect(settle.statusCode).toBe(404);
    const badCode = await t.request({
      method: 'POST',
      url: '/api/dev/bank/transfers/ach_transfer_nope/return',
      payload: { code: 'X1' },
    });
    expect(badCode.statusCode).toBe(400);
    const unknownAccount = await inbound({
      accountNumber: '999999999999',
      amount: 5,
      originatorName: 'A',
      rail: 'ach',
    });
    expect(unknownAccount.statusCode).toBe(404);
  });
});
