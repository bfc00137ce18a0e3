import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDemoBank } from '../../bank/demo-bank';
import { createSimulatedChain, type SimulatedChain } from '../../chain/simulated-chain';
import { monitoringCases, orders, outboxEvents, payouts } from '../../db/schema';
import { isDemoBank } from '../../providers/provider-registry';
import { INSTANT_PAYOUTS_EVERY_MS } from '../../jobs/background-jobs';
import { INSTANT_UNREACHABLE } from '../../rails/instant';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../../test/accounts-helpers';
import { fileW9, saveBank, sellOrder, TEST_BANK } from '../../test/sell-helpers';
import { createTestApp, createTestAppOnSameDatabase, type TestApp } from '../../test/test-app';
import { sendInstantTransfer } from '../../rails/instant/bank-api-payout-sender';
import {
  applyTransfer,
  applyTransferUpdate,
  claimInstantPayout,
  runInstantPayouts,
  UNRECORDED_RESEND_MS,
} from './instant-payouts';

/**
 * Instant sell payouts (docs/design.md, "Instant payouts"): offered only to a bank on RTP or FedNow,
 * sent by the server once the deposit is credited, with the order id as the bank's idempotency key,
 * completed when the bank settles it, never sent twice.
 */
let t: TestApp;
let chain: SimulatedChain;
let ada: RegisteredCustomer;
let achOnly: RegisteredCustomer;
let closed: RegisteredCustomer;
/** Another handle on the demo bank's tables, as the bank's own side: it settles transfers. */
let bankSide: ReturnType<typeof createDemoBank>;

/** Checksum-valid and ending in an even digit: the demo bank says it is on RTP and FedNow. */
const INSTANT_ROUTING = '022000020';

beforeAll(async () => {
  t = await createTestApp({ BITCOIN_NETWORK: 'testnet' });
  chain = createSimulatedChain(t.database.db);
  bankSide = createDemoBank(t.database.db);
  bankSide.setWebhookSink(async () => undefined);
  const appBank = t.app.providers.bank;
  if (isDemoBank(appBank)) appBank.setWebhookSink(async () => undefined);
  ada = await registerVerifiedCustomer(t, 'ada.instant@example.com');
  achOnly = await registerVerifiedCustomer(t, 'ach.only@example.com');
  closed = await registerVerifiedCustomer(t, 'closed.instant@example.com');
  await saveBank(t, ada, { ...TEST_BANK, routing_number: INSTANT_ROUTING, account_number: '4000123' });
  await saveBank(t, achOnly, TEST_BANK);
  await saveBank(t, closed, { ...TEST_BANK, routing_number: INSTANT_ROUTING, account_number: '55550000' });
  for (const who of [ada, achOnly, closed]) await fileW9(t, who);
});
afterAll(async () => t.close());

const orderRow = async (id: string) =>
  (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const payoutsOf = (orderId: string) =>
  t.database.db.select().from(payouts).where(eq(payouts.orderId, orderId));

/** An instant sell whose deposit arrived and confirmed: its dollars are due. */
async function creditedInstantSell(
  who: RegisteredCustomer,
  amountBtc: number,
  confirm = true,
): Promise<string> {
  const { payload } = await sellOrder(t, who, amountBtc, 'instant');
  const saved = await t.request({ method: 'POST', url: '/api/order/save', headers: who.auth, payload });
  expect(saved.statusCode, saved.body).toBe(200);
  const order = saved.json().order as { _id: string; walletAddress: { address: string } };
  await chain.send(order.walletAddress.address, BigInt(Math.round(amountBtc * 1e8)));
  if (confirm) await chain.mine(1);
  await t.app.depositWatcher.pollOnce();
  expect((await orderRow(order._id)).status).toBe('processing');
  return order._id;
}

const deps = () => ({
  db: t.database.db,
  bank: t.app.providers.bank,
  confirmationsRequired: 1,
  notify: async () => undefined,
});

describe('instant sell payouts', () => {
  it('refuses an instant sell to a bank that is only on ACH, at the quote and at the save', async () => {
    const quote = await t.request({
      method: 'POST',
      url: '/api/quotes',
      headers: achOnly.auth,
      payload: { type: 'sell', amount: 0.002, method: 'instant' },
    });
    expect(quote.statusCode).toBe(400);
    expect(quote.json().message).toBe(INSTANT_UNREACHABLE);
    const { payload } = await sellOrder(t, achOnly, 0.002, 'instant');
    const saved = await t.request({ method: 'POST', url: '/api/order/save', headers: achOnly.auth, payload });
    expect(saved.statusCode).toBe(400);
    expect(saved.json().message).toBe('Your bank cannot receive instant payments; choose ACH.');
  });

  it('sends a credited instant sell by itself, keyed by the order id, and completes it when the bank settles', async () => {
    const orderId = await creditedInstantSell(ada, 0.0021);
    await t.app.runInstantPayouts();
    // The app's own job may be the one sending it: wait for the transfer to be recorded.
    const payout = await vi.waitFor(async () => {
      const [row] = await payoutsOf(orderId);
      expect(row?.reference).toBeTruthy();
      return row!;
    });
    expect(payout).toMatchObject({ state: 'submitted', rail: 'instant', sender: 'bank-api' });
    expect(payout.reference).toMatch(/^real_time_payments_transfer_demo/);
    const order = await orderRow(orderId);
    // The same key (the order id) answers the same transfer: the bank holds one.
    const again = await sendInstantTransfer(t.app.providers.bank, payout, order);
    expect(again.id).toBe(payout.reference);
    expect(again.amountCents).toBe(order.valueCents);
    expect(await bankSide.listTransfers('4000123')).toHaveLength(1);

    expect(await bankSide.settle(payout.reference!)).not.toBeNull();
    await t.app.runInstantPayouts();
    const [settled] = await payoutsOf(orderId);
    expect(settled).toMatchObject({ state: 'settled', reference: payout.reference });
    const completed = await orderRow(orderId);
    expect(completed.status).toBe('completed');
    expect(completed.bankTxn).toBeTruthy();

    // The customer's timeline shows each step with its time; another customer cannot read it.
    const timeline = await t.request({
      method: 'GET',
      url: `/api/order/${orderId}/timeline`,
      headers: ada.auth,
    });
    expect(timeline.statusCode).toBe(200);
    const steps = timeline.json<{ timeline: { kind: string; title: string; at: string }[] }>().timeline;
    const sentStep = steps.find((step) => step.kind === 'payout_sent');
    expect(sentStep).toMatchObject({ title: 'Dollars sent' });
    expect(Date.parse(sentStep!.at)).not.toBeNaN();
    expect(steps.at(-1)).toMatchObject({ kind: 'status', title: 'Dollars arrived' });
    expect(Date.parse(steps.at(-1)!.at)).not.toBeNaN();
    const foreign = await t.request({
      method: 'GET',
      url: `/api/order/${orderId}/timeline`,
      headers: closed.auth,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('is sent as soon as its deposit is credited, long before the backstop pass', async () => {
    expect(INSTANT_PAYOUTS_EVERY_MS).toBeGreaterThanOrEqual(30_000);
    const orderId = await creditedInstantSell(ada, 0.0027);
    // No pass is called here: the credit queued one.
    await vi.waitFor(async () => expect((await payoutsOf(orderId))[0]?.reference).toBeTruthy(), {
      timeout: 5_000,
    });
  });

  it('sends once when several passes run at once', async () => {
    const before = (await bankSide.listTransfers('4000123')).length;
    const orderId = await creditedInstantSell(ada, 0.0022);
    await Promise.all(Array.from({ length: 5 }, () => runInstantPayouts(deps())));
    expect(await payoutsOf(orderId)).toHaveLength(1);
    expect(await bankSide.listTransfers('4000123')).toHaveLength(before + 1);
  });

  it.skipIf(process.env.TEST_DATABASE_KIND !== 'postgres')(
    'sends once when two processes on one database send the same payout at once',
    async () => {
      const other = await createTestAppOnSameDatabase(t, { BITCOIN_NETWORK: 'testnet' });
      try {
        const otherBank = other.app.providers.bank;
        if (isDemoBank(otherBank)) otherBank.setWebhookSink(async () => undefined);
        const before = (await bankSide.listTransfers('4000123')).length;
        const orderId = await creditedInstantSell(ada, 0.0026);
        await Promise.all([t.app.runInstantPayouts(), other.app.runInstantPayouts()]);
        await vi.waitFor(async () => expect((await payoutsOf(orderId))[0]?.reference).toBeTruthy());
        expect(await payoutsOf(orderId)).toHaveLength(1);
        expect(await bankSide.listTransfers('4000123')).toHaveLength(before + 1);
      } finally {
        await other.close();
      }
    },
  );

  it('after a stop between "sent" and "recorded", sends again with the same key and records the one transfer', async () => {
    // Unconfirmed, so the app's own job leaves it alone; this test's passes take no confirmation.
    const orderId = await creditedInstantSell(ada, 0.0023, false);
    const before = (await bankSide.listTransfers('4000123')).length;
    const unconfirmed = { ...deps(), confirmationsRequired: 0 };
    const claimed = await claimInstantPayout(unconfirmed, orderId);
    expect(claimed).not.toBeNull();
    // Sent, then the process died before recording it.
    const sent = await sendInstantTransfer(t.app.providers.bank, claimed!.payout, claimed!.order);
    expect((await payoutsOf(orderId))[0]?.reference).toBeNull();
    // A pass soon after leaves it to the sender that may still be running; a later one sends again.
    await runInstantPayouts(unconfirmed);
    expect((await payoutsOf(orderId))[0]?.reference).toBeNull();
    await runInstantPayouts({
      ...unconfirmed,
      now: () => new Date(Date.now() + UNRECORDED_RESEND_MS + 1_000),
    });
    expect((await payoutsOf(orderId))[0]?.reference).toBe(sent.id);
    expect(await bankSide.listTransfers('4000123')).toHaveLength(before + 1);
  });

  it('a payout the bank rejects is returned, flags the order, opens a case and e-mails the customer; nothing is resent', async () => {
    const orderId = await creditedInstantSell(closed, 0.0024);
    await t.app.runInstantPayouts();
    await vi.waitFor(async () => expect((await payoutsOf(orderId))[0]?.state).toBe('returned'));
    const [payout] = await payoutsOf(orderId);
    expect(payout?.reference).toMatch(/^real_time_payments_transfer_demo/);
    const order = await orderRow(orderId);
    expect(order).toMatchObject({ status: 'processing', flag: 'payout_returned' });
    await t.app.cases.runMonitorJob({ orderIds: [orderId] });
    const opened = await t.database.db
      .select()
      .from(monitoringCases)
      .where(eq(monitoringCases.triggerKey, `order:${orderId}:payout_returned`));
    expect(opened).toHaveLength(1);
    const mails = await t.database.db
      .select()
      .from(outboxEvents)
      .where(eq(outboxEvents.userId, closed.userId));
    expect(
      mails.some(
        (mail) => mail.channel === 'email' && String(mail.payload.subject).includes('did not accept'),
      ),
    ).toBe(true);
    await t.app.runInstantPayouts();
    expect(await payoutsOf(orderId)).toHaveLength(1);
    expect(await bankSide.listTransfers('55550000')).toHaveLength(1);

    // Paying it again is staff's, and takes two admins whatever the amount.
    const admin = await logIn(t, 'admin@offzero.local');
    const approver = await logIn(t, 'approver@offzero.local');
    const as = (who: RegisteredCustomer, action: string, payload: object) =>
      t.request({
        method: 'POST',
        url: `/api/admin/orders/${orderId}/${action}`,
        headers: who.auth,
        payload,
      });
    // Staff see the bank's word on the transfer where they look at the order; customers cannot.
    const page = await t.request({ method: 'GET', url: `/api/admin/orders/${orderId}`, headers: admin.auth });
    expect(page.statusCode).toBe(200);
    expect(page.json().payouts).toEqual([
      expect.objectContaining({
        state: 'returned',
        sender: 'bank-api',
        reference: payout!.reference,
        bankUnavailable: false,
        bankTransfer: expect.objectContaining({
          id: payout!.reference,
          status: 'rejected',
          returnCode: 'AC04',
          createdAt: expect.any(String),
        }),
      }),
    ]);
    const asCustomer = await t.request({
      method: 'GET',
      url: `/api/admin/orders/${orderId}`,
      headers: ada.auth,
    });
    expect(asCustomer.statusCode).toBe(403);
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/offzero_payouts\{rail="instant",state="returned"\} [1-9]/);

    const flagged = await as(admin, 'payout-usd', { reference: 'RESENT-1' });
    expect(flagged.statusCode).toBe(409);
    expect(flagged.json().message).toBe('Resolve the flag first.');
    expect((await as(admin, 'resolve-flag', { note: 'customer sent a new account' })).statusCode).toBe(200);
    expect(order.valueCents).toBeLessThan(300_000n); // below the usual four-eyes threshold
    const first = await as(admin, 'payout-usd', { reference: 'RESENT-1' });
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json().message).toBe('Waiting for a second approver.');
    expect((await as(admin, 'payout-usd', { reference: 'RESENT-1' })).statusCode).toBe(409);
    const second = await as(approver, 'payout-usd', { reference: 'RESENT-1' });
    expect(second.statusCode, second.body).toBe(200);
    expect((await orderRow(orderId)).status).toBe('completed');
    const rows = await payoutsOf(orderId);
    expect(rows.map((row) => [row.state, row.sender]).sort()).toEqual([
      ['returned', 'bank-api'],
      ['settled', 'operator'],
    ]);
  });

  it("settles at once from the bank's transfer_updated webhook, and a transfer of no payout changes nothing", async () => {
    const orderId = await creditedInstantSell(ada, 0.0025, false);
    const unconfirmed = { ...deps(), confirmationsRequired: 0 };
    const claimed = await claimInstantPayout(unconfirmed, orderId);
    const sent = await sendInstantTransfer(t.app.providers.bank, claimed!.payout, claimed!.order);
    await applyTransfer(unconfirmed, claimed!.payout.id, sent);
    // Another customer's transfer (not this payout's) reaches the same handler: nothing moves.
    const foreign = await bankSide.createTransfer({
      kind: 'rtp',
      amountCents: 1_00n,
      idempotencyKey: `foreign-${orderId}`,
      counterparty: { accountNumber: '55550001', routingNumber: INSTANT_ROUTING, name: 'Somebody Else' },
      description: 'not a payout',
    });
    await t.database.db.transaction((tx) =>
      applyTransferUpdate(async () => undefined)(tx, { ...foreign, status: 'settled' }),
    );
    expect((await payoutsOf(orderId))[0]).toMatchObject({ state: 'submitted', reference: sent.id });

    // The bank settles it and says so by its signed webhook; no read-back pass runs.
    bankSide.setWebhookSink((delivery) => t.app.bankWebhooks.receive(delivery.rawBody, delivery.headers));
    try {
      await bankSide.settle(sent.id);
      await vi.waitFor(async () => {
        await t.app.inbox.process(null);
        expect((await payoutsOf(orderId))[0]?.state).toBe('settled');
      });
    } finally {
      bankSide.setWebhookSink(async () => undefined);
    }
    expect((await orderRow(orderId)).status).toBe('completed');
  });

  it('a transfer the bank returns with a NACHA code is returned and flagged, by its webhook', async () => {
    const orderId = await creditedInstantSell(ada, 0.0028, false);
    const unconfirmed = { ...deps(), confirmationsRequired: 0 };
    const claimed = await claimInstantPayout(unconfirmed, orderId);
    const sent = await sendInstantTransfer(t.app.providers.bank, claimed!.payout, claimed!.order);
    await applyTransfer(unconfirmed, claimed!.payout.id, sent);
    const appBank = t.app.providers.bank;
    if (!isDemoBank(appBank)) throw new Error('the demo app has the demo bank');
    appBank.setWebhookSink((delivery) => t.app.bankWebhooks.receive(delivery.rawBody, delivery.headers));
    try {
      const answer = await t.request({
        method: 'POST',
        url: `/api/dev/bank/transfers/${sent.id}/return`,
        payload: { code: 'R03' },
      });
      expect(answer.statusCode, answer.body).toBe(200);
      await vi.waitFor(async () => {
        await t.app.inbox.process(null);
        expect((await payoutsOf(orderId))[0]?.state).toBe('returned');
      });
    } finally {
      appBank.setWebhookSink(async () => undefined);
    }
    const order = await orderRow(orderId);
    expect(order).toMatchObject({ status: 'processing', flag: 'payout_returned' });
    expect(order.flagNote).toContain('R03');
  });
});
