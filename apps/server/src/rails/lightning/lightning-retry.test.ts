import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderLightningPayout } from '@offzero/shared/api/order-lightning';
import { orders, payouts } from '../../db/schema';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../../test/accounts-helpers';
import { confirmPayoutAddresses, TEST_WALLET } from '../../test/buy-helpers';
import { newBuyOrderRow } from '../../test/new-buy-order-row';
import { createTestApp, type TestApp } from '../../test/test-app';
import type { LightningNode } from './lightning-node';
import { FAILED_PAYOUT_MESSAGES } from './use-cases/failed-payout-actions';
import { payOutByLightning } from './use-cases/pay-out-by-lightning';

/**
 * A failed Lightning payout tried again or sent on chain (docs/design.md, "Lightning"): by the
 * customer of the order or by staff, never two attempts in flight, never to an unconfirmed address.
 */
let t: TestApp;
let ada: RegisteredCustomer;
let bob: RegisteredCustomer;
const AMOUNT = 100_000n;

beforeAll(async () => {
  t = await createTestApp({ CHAIN_POLL_SECONDS: '600' });
  ada = await registerVerifiedCustomer(t, 'ada.lightning.retry@example.com');
  bob = await registerVerifiedCustomer(t, 'bob.lightning.retry@example.com');
});
afterAll(async () => t.close());

async function walletInvoice(): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: '/api/dev/lightning/invoice',
    payload: { amountSats: Number(AMOUNT) },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ invoice: string }>().invoice;
}

/** A node that refuses every payment (no route), sending nothing. */
const noRoute = (): LightningNode => ({
  ...t.app.providers.lightning!,
  payInvoice: async () => ({
    status: 'failed',
    paymentId: null,
    paymentHash: null,
    reason: 'No route found.',
  }),
});

/** A paid buy of Ada's to a fresh wallet invoice, whose first Lightning payout went `state`. */
async function buyWithPayout(state: 'failed' | 'submitted' | 'none'): Promise<string> {
  const [order] = await t.database.db
    .insert(orders)
    .values({
      ...newBuyOrderRow(ada.userId, 10_000n, { walletAddress: await walletInvoice(), amountSats: AMOUNT }),
      status: 'processing',
      paymentConfirmedAt: new Date(),
    })
    .returning();
  if (state === 'none') return order!.id;
  const node =
    state === 'failed'
      ? noRoute()
      : { ...t.app.providers.lightning!, payInvoice: () => Promise.reject(new Error('killed')) };
  const deps = { db: t.database.db, node, network: 'testnet' as const, now: () => new Date() };
  expect((await payOutByLightning(deps, order!.id, 'test')).state).toBe(state);
  return order!.id;
}

const post = (who: RegisteredCustomer, url: string, payload: object = {}) =>
  t.request({ method: 'POST', url, headers: who.auth, payload });
const retry = (who: RegisteredCustomer, orderId: string) =>
  post(who, `/api/lightning/payouts/${orderId}/retry`);
const onchain = (who: RegisteredCustomer, orderId: string, payoutAddressId: string) =>
  post(who, `/api/lightning/payouts/${orderId}/onchain`, { payoutAddressId });
const payoutsOf = (orderId: string) =>
  t.database.db.select().from(payouts).where(eq(payouts.orderId, orderId));

type Answer = {
  message: string;
  order: { status: string; walletAddress: string; lightningPayout?: OrderLightningPayout };
};

async function addressEntry(who: RegisteredCustomer, address: string, confirm: boolean): Promise<string> {
  const added = await post(who, '/api/payout-addresses', { label: `Cold ${address.slice(-4)}`, address });
  expect(added.statusCode, added.body).toBe(200);
  if (confirm) await confirmPayoutAddresses(t, who);
  const list = await t.app.inject({ method: 'GET', url: '/api/payout-addresses', headers: who.auth });
  const entry = list
    .json<{ payoutAddresses: { id: string; address: string | null }[] }>()
    .payoutAddresses.find((row) => row.address === address);
  return entry!.id;
}

describe('retrying a failed Lightning payout', () => {
  it('the customer retries their own: a new attempt settles, the order shows the preimage', async () => {
    const orderId = await buyWithPayout('failed');
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/order/list?userId=${ada.userId}`,
      headers: ada.auth,
    });
    const before = listed
      .json<{ result: { orders: { _id: string; lightningPayout?: OrderLightningPayout }[] } }>()
      .result.orders.find((order) => order._id === orderId)!;
    expect(before.lightningPayout).toMatchObject({
      status: 'failed',
      destinationKind: 'invoice',
      failureReason: 'No route found.',
      preimage: null,
      canRetry: true,
    });

    const response = await retry(ada, orderId);
    expect(response.statusCode, response.body).toBe(200);
    const { message, order } = response.json<Answer>();
    expect(message).toBe(FAILED_PAYOUT_MESSAGES.retried);
    expect(order.status).toBe('completed');
    expect(order.lightningPayout).toMatchObject({ status: 'settled', canRetry: false, failureReason: null });
    expect(order.lightningPayout!.preimage).toMatch(/^[0-9a-f]{64}$/);
    expect((await payoutsOf(orderId)).map((row) => row.state).sort()).toEqual(['failed', 'settled']);
    // Paid: nothing more to retry.
    expect((await retry(ada, orderId)).statusCode).toBe(409);
  });

  it('another customer’s order answers 404 and sends nothing', async () => {
    const orderId = await buyWithPayout('failed');
    const response = await retry(bob, orderId);
    expect(response.statusCode).toBe(404);
    expect((await retry(bob, 'not-an-id')).statusCode).toBe(404);
    expect(await payoutsOf(orderId)).toHaveLength(1);
  });

  it('a payout not failed is refused: none yet (400), one in flight (409)', async () => {
    const waiting = await buyWithPayout('none');
    const none = await retry(ada, waiting);
    expect(none.statusCode).toBe(400);
    expect(none.json<{ message: string }>().message).toBe(FAILED_PAYOUT_MESSAGES.notFailed);
    const inFlight = await buyWithPayout('submitted');
    const live = await retry(ada, inFlight);
    expect(live.statusCode).toBe(409);
    expect(live.json<{ message: string }>().message).toBe(FAILED_PAYOUT_MESSAGES.live);
    expect(await payoutsOf(inFlight)).toHaveLength(1);
  });

  it('two retries at once: one attempt, the other answers 409', async () => {
    const orderId = await buyWithPayout('failed');
    const answers = await Promise.all([retry(ada, orderId), retry(ada, orderId)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const rows = await payoutsOf(orderId);
    expect(rows.filter((row) => row.state === 'settled')).toHaveLength(1);
    expect(rows).toHaveLength(2);
  });

  it('staff retry from the back office; a customer may not use the staff route', async () => {
    const orderId = await buyWithPayout('failed');
    const url = `/api/admin/lightning/payouts/${orderId}/retry`;
    expect((await post(ada, url)).statusCode).toBe(403);
    const staff = await logIn(t, 'admin@offzero.local');
    // The back office's order page shows the failed payout and that it may be retried.
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/admin/orders/${orderId}`,
      headers: staff.auth,
    });
    expect(
      detail.json<{ order: { lightningPayout?: OrderLightningPayout } }>().order.lightningPayout,
    ).toMatchObject({
      status: 'failed',
      canRetry: true,
    });
    const response = await post(staff, url);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<Answer>().order.status).toBe('completed');
  });

  it('refuses a body with fields it does not know', async () => {
    const orderId = await buyWithPayout('failed');
    const response = await post(ada, `/api/lightning/payouts/${orderId}/retry`, { amountSats: 1 });
    expect(response.statusCode).toBe(400);
  });
});

describe('sending a failed Lightning payout on chain instead', () => {
  it('refuses an unconfirmed address and another customer’s, then converts to a confirmed one', async () => {
    const orderId = await buyWithPayout('failed');
    const unconfirmed = await addressEntry(ada, TEST_WALLET, false);
    const refused = await onchain(ada, orderId, unconfirmed);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe(FAILED_PAYOUT_MESSAGES.addressNotUsable);

    const bobs = await addressEntry(bob, TEST_WALLET, true);
    expect((await onchain(ada, orderId, bobs)).statusCode).toBe(400);
    expect((await onchain(bob, orderId, bobs)).statusCode).toBe(404);

    // Before: a Lightning buy is not the batch's to pay.
    const { auth } = await logIn(t, 'admin@offzero.local');
    const dueBuys = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/admin/payouts/due', headers: auth })).body;
    expect(await dueBuys()).not.toContain(orderId);

    await confirmPayoutAddresses(t, ada);
    const response = await onchain(ada, orderId, unconfirmed);
    expect(response.statusCode, response.body).toBe(200);
    const { message, order } = response.json<Answer>();
    expect(message).toBe(FAILED_PAYOUT_MESSAGES.converted);
    expect(order).toMatchObject({ status: 'processing', walletAddress: TEST_WALLET });
    expect(order.lightningPayout).toMatchObject({ status: 'failed', canRetry: false });
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row!.payoutAddressId).toBe(unconfirmed);

    // Now an on-chain buy: no Lightning retry, no second conversion, and the batch sees it as due.
    expect((await retry(ada, orderId)).statusCode).toBe(400);
    expect((await onchain(ada, orderId, unconfirmed)).statusCode).toBe(400);
    expect(await dueBuys()).toContain(orderId);
  });

  it('refuses while a payout is in flight (409) and a missing address id (400)', async () => {
    const orderId = await buyWithPayout('submitted');
    // The live payout is answered before the address is even looked at.
    expect((await onchain(ada, orderId, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(409);
    const missing = await post(ada, `/api/lightning/payouts/${orderId}/onchain`, {});
    expect(missing.statusCode).toBe(400);
  });
});
