import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulatedChain, type SimulatedChain } from '../chain/simulated-chain';
import { orders } from '../db/schema';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { confirmPayoutAddresses, placeBuyOrder, placeConfirmedBuyOrder } from '../test/buy-helpers';
import { fileW9, saveBank, saveZelle, sellOrder } from '../test/sell-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

/**
 * The back office's order page: it offers the actions the order's state allows and names the reason of
 * each blocked one that concerns it (the action itself refuses with those same words), and its timeline
 * is written in words.
 */
let t: TestApp;
let chain: SimulatedChain;
let admin: RegisteredCustomer;
let ada: RegisteredCustomer;
let bob: RegisteredCustomer;

beforeAll(async () => {
  t = await createTestApp({ BITCOIN_NETWORK: 'testnet' });
  chain = createSimulatedChain(t.database.db);
  admin = await logIn(t, 'admin@offzero.local');
  ada = await registerVerifiedCustomer(t, 'ada.actions@example.com');
  await saveBank(t, ada);
  await fileW9(t, ada);
  await saveZelle(t, ada, 'ada.actions@example.com');
  bob = await registerVerifiedCustomer(t, 'bob.actions@example.com');
});
afterAll(async () => t.close());

type Offer = { kind: string; allowed: boolean; reason: string | null };

const act = (orderId: string, kind: string, payload: object = {}) =>
  t.request({ method: 'POST', url: `/api/admin/orders/${orderId}/${kind}`, headers: admin.auth, payload });

async function offers(orderId: string): Promise<Offer[]> {
  const detail = await t.app.inject({
    method: 'GET',
    url: `/api/admin/orders/${orderId}`,
    headers: admin.auth,
  });
  expect(detail.statusCode).toBe(200);
  return detail.json<{ actions: Offer[] }>().actions;
}

async function payByZelle(orderId: string): Promise<void> {
  const paid = await t.request({
    method: 'POST',
    url: '/api/order/update',
    headers: ada.auth,
    payload: { _id: orderId, payment: { method: 'zelle' }, status: 'processing' },
  });
  expect(paid.statusCode).toBe(200);
}

describe('a buy', () => {
  it('offers no payout to an address the customer has not confirmed, says why, and the send refuses with the same words', async () => {
    // The buy names a new address: its confirmation link is in the customer's mailbox, not opened yet.
    const orderId = await placeBuyOrder(t, ada, 90);
    await payByZelle(orderId);
    expect((await act(orderId, 'mark-paid')).statusCode).toBe(200);

    const waiting =
      'The payout waits until the customer confirms the address from the link we e-mailed them.';
    expect(await offers(orderId)).toEqual([
      { kind: 'payout-btc', allowed: false, reason: waiting },
      { kind: 'send-btc', allowed: false, reason: waiting },
      { kind: 'cancel', allowed: true, reason: null },
    ]);
    for (const [kind, payload] of [
      ['send-btc', {}],
      ['payout-btc', { txid: 'c'.repeat(64) }],
    ] as const) {
      const refused = await act(orderId, kind, payload);
      expect(refused.statusCode, kind).toBe(409);
      expect(refused.json().message, kind).toBe(waiting);
    }
    expect((await t.database.db.select().from(orders).where(eq(orders.id, orderId)))[0]?.status).toBe(
      'processing',
    );

    await confirmPayoutAddresses(t, ada);
    expect(await offers(orderId)).toEqual([
      { kind: 'payout-btc', allowed: true, reason: null },
      { kind: 'send-btc', allowed: true, reason: null },
      { kind: 'cancel', allowed: true, reason: null },
    ]);
  });

  it('waits for the customer to pay before a payment can be marked received', async () => {
    const orderId = await placeConfirmedBuyOrder(t, ada, 40);
    expect(await offers(orderId)).toEqual([
      { kind: 'mark-paid', allowed: false, reason: 'Waiting for the customer to pay.' },
      { kind: 'cancel', allowed: true, reason: null },
    ]);
    const early = await act(orderId, 'mark-paid');
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('Waiting for the customer to pay.');

    await payByZelle(orderId);
    expect(await offers(orderId)).toEqual([
      { kind: 'mark-paid', allowed: true, reason: null },
      { kind: 'cancel', allowed: true, reason: null },
    ]);
  });

  it('a flagged paid buy offers the flag’s resolution and names the flag as what blocks the payout', async () => {
    const orderId = await placeConfirmedBuyOrder(t, ada, 45);
    await payByZelle(orderId);
    expect((await act(orderId, 'mark-paid')).statusCode).toBe(200);
    await t.database.db
      .update(orders)
      .set({ flag: 'duplicate_reference', flagNote: 'reference seen on another order' })
      .where(eq(orders.id, orderId));
    expect(await offers(orderId)).toEqual([
      { kind: 'payout-btc', allowed: false, reason: 'Resolve the flag first.' },
      { kind: 'send-btc', allowed: false, reason: 'Resolve the flag first.' },
      { kind: 'cancel', allowed: true, reason: null },
      { kind: 'resolve-flag', allowed: true, reason: null },
    ]);
  });

  it('a completed buy offers nothing, and every action refuses it with a reason', async () => {
    const orderId = await placeConfirmedBuyOrder(t, ada, 50);
    await payByZelle(orderId);
    expect((await act(orderId, 'mark-paid')).statusCode).toBe(200);
    expect((await act(orderId, 'send-btc')).statusCode).toBe(200);
    expect(await offers(orderId)).toEqual([]);
    for (const [kind, payload, message] of [
      ['mark-paid', {}, 'Only a processing buy can be marked paid; this order is a completed buy.'],
      ['send-btc', {}, 'Only a processing buy whose payment was marked received can be paid out.'],
      ['payout-btc', { txid: 'e'.repeat(64) }, 'This order was already paid out.'],
      ['payout-usd', { reference: 'WIRE-42' }, 'A dollar payout completes sell orders only.'],
      ['cancel', { reason: 'asked by phone' }, 'This order is completed, so it cannot be cancelled.'],
      ['resolve-flag', { note: 'looked at it' }, 'This order has no flag to resolve.'],
    ] as const) {
      const refused = await act(orderId, kind, payload);
      expect(refused.statusCode, kind).toBe(409);
      expect(refused.json().message, kind).toBe(message);
    }
  });
});

describe('a sell', () => {
  it('offers the dollar payout only once the deposit is confirmed, saying what it waits for until then', async () => {
    const { payload } = await sellOrder(t, ada, 0.002);
    const saved = await t.request({ method: 'POST', url: '/api/order/save', headers: ada.auth, payload });
    expect(saved.statusCode).toBe(200);
    const order = saved.json().order as { _id: string; walletAddress: { address: string } };
    expect(await offers(order._id)).toEqual([
      { kind: 'payout-usd', allowed: false, reason: 'Waiting for the customer’s bitcoin deposit.' },
      { kind: 'cancel', allowed: true, reason: null },
    ]);

    await chain.send(order.walletAddress.address, 200_000n);
    await t.app.depositWatcher.pollOnce();
    const unconfirmed = 'Waiting for confirmations: 0 of 1. The dollar payout unlocks after that.';
    expect(await offers(order._id)).toEqual([
      { kind: 'payout-usd', allowed: false, reason: unconfirmed },
      { kind: 'cancel', allowed: true, reason: null },
    ]);
    const early = await act(order._id, 'payout-usd', { reference: 'ZELLE-EARLY' });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(unconfirmed);

    await chain.mine(1);
    await t.app.depositWatcher.pollOnce();
    expect(await offers(order._id)).toEqual([
      { kind: 'payout-usd', allowed: true, reason: null },
      { kind: 'cancel', allowed: true, reason: null },
    ]);
  });
});

type Step = { kind: string; title: string; reason: string | null; facts: { label: string; value: string }[] };

async function timeline(orderId: string): Promise<Step[]> {
  const detail = await t.app.inject({
    method: 'GET',
    url: `/api/admin/orders/${orderId}`,
    headers: admin.auth,
  });
  return detail.json<{ timeline: Step[] }>().timeline;
}

describe('the timeline', () => {
  it('names each step in words, with amounts in BTC and USD and no move from a state to itself', async () => {
    const orderId = await placeConfirmedBuyOrder(t, ada, 55);
    await payByZelle(orderId);
    await t.database.db
      .update(orders)
      .set({ flag: 'duplicate_reference', flagNote: 'reference seen on another order' })
      .where(eq(orders.id, orderId));
    expect((await act(orderId, 'resolve-flag', { note: 'the bank shows two payments' })).statusCode).toBe(
      200,
    );
    expect((await act(orderId, 'mark-paid')).statusCode).toBe(200);
    expect((await act(orderId, 'send-btc')).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));

    const steps = await timeline(orderId);
    expect(steps.map((step) => [step.kind, step.title])).toEqual([
      ['created', 'Order placed'],
      ['moved', 'Pending → Processing'],
      ['event', 'Flag cleared'],
      ['event', 'Bitcoin payout started'],
      ['moved', 'Processing → Completed'],
    ]);
    expect(steps[2]).toMatchObject({
      reason: null,
      facts: [
        { label: 'Flag', value: 'Duplicate bank reference → none' },
        { label: 'Outcome', value: 'checked and released' },
      ],
    });
    expect(steps[3]!.facts).toContainEqual({ label: 'Address', value: row!.walletAddress });
    expect(steps[4]!.facts).toEqual([{ label: 'Transaction', value: `${row!.txn}:0` }]);
    for (const step of steps) {
      expect(step.title).not.toMatch(/_|Processing → Processing/);
      for (const fact of step.facts) expect(fact.label).not.toMatch(/_|[a-z][A-Z]/);
    }
  });

  it('writes a re-priced sell’s figures and the bitcoin held as BTC and dollars, never satoshis or cents', async () => {
    const { payload } = await sellOrder(t, ada, 0.002);
    const saved = await t.request({ method: 'POST', url: '/api/order/save', headers: ada.auth, payload });
    const order = saved.json().order as { _id: string; walletAddress: { address: string } };
    // Less than the order asked for arrives: the sell is priced on what arrived.
    await chain.send(order.walletAddress.address, 150_000n);
    await chain.mine(1);
    await t.app.depositWatcher.pollOnce();
    await t.database.db
      .update(orders)
      .set({ flag: 'over_limit', flagNote: 'held' })
      .where(eq(orders.id, order._id));
    expect(
      (
        await act(order._id, 'refund-btc', {
          address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
          txid: 'f'.repeat(64),
        })
      ).statusCode,
    ).toBe(200);

    const steps = await timeline(order._id);
    const received = steps.find((step) => step.title === 'Pending → Processing')!;
    expect(received.facts).toContainEqual({
      label: 'Price after',
      value: expect.stringMatching(/^0\.00150000 BTC for \$[\d,]+\.\d{2} at \$[\d,]+\.\d{2} \/ BTC$/),
    });
    const returned = steps.at(-1)!;
    expect(returned).toMatchObject({ kind: 'moved', title: 'Processing → Cancelled' });
    expect(returned.facts).toContainEqual({ label: 'Bitcoin held', value: '0.00150000 BTC' });
    expect(JSON.stringify(steps)).not.toMatch(/Sats|Cents|"150000"/);
  });
});

it('answers 403 to a customer asking for the actions of another customer’s order', async () => {
  const orderId = await placeConfirmedBuyOrder(t, ada, 30);
  const asBob = await t.app.inject({ method: 'GET', url: `/api/admin/orders/${orderId}`, headers: bob.auth });
  expect(asBob.statusCode).toBe(403);
  expect(asBob.body).not.toContain('actions');
});
