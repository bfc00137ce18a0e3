import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDemoBank } from '../../bank/demo-bank';
import { createSimulatedChain, type SimulatedChain } from '../../chain/simulated-chain';
import { orders, outboxEvents, payouts } from '../../db/schema';
import { isDemoBank } from '../../providers/provider-registry';
import { INSTANT_UNREACHABLE } from '../../rails/instant';
import { registerVerifiedCustomer, type RegisteredCustomer } from '../../test/accounts-helpers';
import { fileW9, saveBank, sellOrder, TEST_BANK } from '../../test/sell-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { sendInstantTransfer } from '../../rails/instant/bank-api-payout-sender';
import { claimInstantPayout, runInstantPayouts, UNRECORDED_RESEND_MS } from './instant-payouts';

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
    expect(steps.at(-1)).toMatchObject({ kind: 'status', title: expect.any(String) });
    const foreign = await t.request({
      method: 'GET',
      url: `/api/order/${orderId}/timeline`,
      headers: closed.auth,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('sends once when several passes run at once', async () => {
    const before = (await bankSide.listTransfers('4000123')).length;
    const orderId = await creditedInstantSell(ada, 0.0022);
    await Promise.all(Array.from({ length: 5 }, () => runInstantPayouts(deps())));
    expect(await payoutsOf(orderId)).toHaveLength(1);
    expect(await bankSide.listTransfers('4000123')).toHaveLength(before + 1);
  });

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

  it('a payout the bank rejects fails, flags the order payout_returned and e-mails the customer; nothing is resent', async () => {
    const orderId = await creditedInstantSell(closed, 0.0024);
    await t.app.runInstantPayouts();
    await vi.waitFor(async () => expect((await payoutsOf(orderId))[0]?.state).toBe('failed'));
    const order = await orderRow(orderId);
    expect(order).toMatchObject({ status: 'processing', flag: 'payout_returned' });
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
  });
});
