import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEPOSIT_BUY_MESSAGES } from '@offzero/shared/api/deposit-buys';
import { PLAN_MESSAGES } from '@offzero/shared/api/plans';
import { SCAM_MESSAGES } from '@offzero/shared/places/scam-shield';
import { bankInboundCredits, depositBuys, globalSettings, orders } from '../../db/schema';
import type { RegisteredCustomer } from '../../test/accounts-helpers';
import { addAddress, ok, readyPlanCustomer } from '../../test/plan-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import type { BankWebhookDelivery } from '../../bank/demo-bank';
import { isDemoBank } from '../../providers/provider-registry';

let t: TestApp;
const NAME = 'Ada Lovelace';
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 20_000, interval: 100 });

interface Customer {
  who: RegisteredCustomer;
  address: string;
  accountNumber: string;
}

async function customer(email: string, kyc: Record<string, string> = {}): Promise<Customer> {
  const { who, address } = await readyPlanCustomer(t, email, { fullName: NAME, ...kyc });
  const funding = await ok<{ accountNumber: string }>(
    t.request({ method: 'GET', url: '/api/funding', headers: who.auth }),
  );
  return { who, address, accountNumber: funding.accountNumber };
}

const saveSetting = (who: RegisteredCustomer, payload: Record<string, unknown>) =>
  t.request({ method: 'PUT', url: '/api/plans/deposit-buys', headers: who.auth, payload });

async function turnOn(one: Customer, extra: Record<string, unknown> = {}): Promise<void> {
  await ok(saveSetting(one.who, { enabled: true, payoutAddressId: one.address, ...extra }));
}

/** Money sent to an account number, applied by the inbox job; answers the stored credit. */
async function deposit(accountNumber: string, amount: number, extra: Record<string, unknown> = {}) {
  const sent = await ok<{ traceNumber: string }>(
    t.request({
      method: 'POST',
      url: '/api/dev/bank/inbound',
      payload: { accountNumber, amount, originatorName: NAME, rail: 'ach', ...extra },
    }),
  );
  return creditOf(sent.traceNumber);
}

async function creditOf(traceNumber: string) {
  let found: typeof bankInboundCredits.$inferSelect | undefined;
  await eventually(async () => {
    await t.app.inbox.process(null);
    [found] = await t.database.db
      .select()
      .from(bankInboundCredits)
      .where(eq(bankInboundCredits.traceNumber, traceNumber));
    expect(found).toBeDefined();
    // Settled: matched, or unmatched with a reason other than "on its way to becoming a buy".
    expect(found?.reason).not.toBe(DEPOSIT_BUY_MESSAGES.becomingBuy);
  });
  return found!;
}

const buysOf = (creditId: string) =>
  t.database.db.select().from(depositBuys).where(eq(depositBuys.creditId, creditId));

const deliveries: BankWebhookDelivery[] = [];

beforeAll(async () => {
  t = await createTestApp();
  if (!isDemoBank(t.app.providers.bank)) throw new Error('the test app has the demo bank');
  // The demo bank's webhooks go where the app sends them, kept on the way so a test can replay one.
  t.app.providers.bank.setWebhookSink(async (delivery) => {
    deliveries.push(delivery);
    return t.app.bankWebhooks.receive(delivery.rawBody, delivery.headers);
  });
  await t.database.db.update(globalSettings).set({ recurringHoldDays: 0 });
});
afterAll(async () => t.close());

describe('the setting: GET and PUT /api/plans/deposit-buys', () => {
  it('is off at first; on needs one of the customer’s own confirmed entries; off keeps it', async () => {
    const ada = await customer('ada.setting.deposit@example.com');
    const bob = await customer('bob.setting.deposit@example.com');
    const read = () =>
      ok<{ setting: unknown }>(
        t.request({ method: 'GET', url: '/api/plans/deposit-buys', headers: ada.who.auth }),
      );
    expect(await read()).toEqual({ setting: { enabled: false, payoutAddressId: null } });

    const noEntry = await saveSetting(ada.who, { enabled: true });
    expect(noEntry.statusCode).toBe(400);
    expect(noEntry.json<{ message: string }>().message).toBe(DEPOSIT_BUY_MESSAGES.addressRequired);
    expect((await saveSetting(ada.who, { enabled: true, payoutAddressId: bob.address })).statusCode).toBe(
      404,
    );
    expect((await saveSetting(ada.who, { enabled: true, payoutAddressId: 'not-an-id' })).statusCode).toBe(
      404,
    );
    const unconfirmed = await addAddress(
      t,
      ada.who,
      'Unconfirmed',
      false,
      'tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl',
    );
    const refused = await saveSetting(ada.who, { enabled: true, payoutAddressId: unconfirmed });
    expect(refused.json<{ message: string }>().message).toBe(PLAN_MESSAGES.addressUnconfirmed);
    expect((await saveSetting(ada.who, { enabled: 'yes' })).statusCode).toBe(400);

    await turnOn(ada);
    expect(await read()).toEqual({ setting: { enabled: true, payoutAddressId: ada.address } });
    await ok(saveSetting(ada.who, { enabled: false }));
    expect(await read()).toEqual({ setting: { enabled: false, payoutAddressId: ada.address } });
    expect((await t.request({ method: 'GET', url: '/api/plans/deposit-buys' })).statusCode).toBe(401);
  });

  it('asks a new customer the scam question; "someone asked me" is refused with the guidance', async () => {
    const nina = await customer('nina.setting.deposit@example.com', { approvedAt: new Date().toISOString() });
    const unanswered = await saveSetting(nina.who, { enabled: true, payoutAddressId: nina.address });
    expect(unanswered.json()).toMatchObject({ code: 'SCAM_CHECK_REQUIRED' });
    const asked = await saveSetting(nina.who, {
      enabled: true,
      payoutAddressId: nina.address,
      scamCheck: { ownWallet: true, someoneAskedMe: true },
    });
    expect(asked.json()).toMatchObject({ code: 'SCAM_SUSPECTED', message: SCAM_MESSAGES.someoneAsked });
    await turnOn(nina, { scamCheck: { ownWallet: true, someoneAskedMe: false } });
    // Her first buy is a deposit's, with the answer she gave.
    const credit = await deposit(nina.accountNumber, 40);
    expect(credit.status).toBe('matched');
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, credit.orderId!));
    expect(order).toMatchObject({ origin: 'deposit', scamCheck: { ownWallet: true, someoneAskedMe: false } });
  });
});

describe('a deposit that pays no waiting buy (docs/design.md, "Recurring buys")', () => {
  it('with the setting off stays unmatched, as before', async () => {
    const ada = await customer('ada.off.deposit@example.com');
    const credit = await deposit(ada.accountNumber, 100);
    expect(credit).toMatchObject({
      status: 'unmatched',
      reason: 'The customer has no unpaid ACH or wire buy.',
    });
    expect(await buysOf(credit.id)).toHaveLength(0);
  });

  it('with it on becomes a buy at the arrival price, paid once to the entry; a replayed trace buys nothing more', async () => {
    const ada = await customer('ada.on.deposit@example.com');
    await turnOn(ada);
    const credit = await deposit(ada.accountNumber, 250);
    expect(credit.status).toBe('matched');
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, credit.orderId!));
    expect(order).toMatchObject({
      type: 'buy',
      userId: ada.who.userId,
      origin: 'deposit',
      status: 'processing',
      paymentMethod: 'ach',
      valueCents: 25_000n,
      payoutAddressId: ada.address,
      bankTxn: credit.traceNumber,
    });
    // No hold in this test's settings: the payment is confirmed and the buy waits for the batch.
    expect(order?.paymentConfirmedAt).not.toBeNull();
    expect(await buysOf(credit.id)).toMatchObject([{ status: 'paid', orderId: order!.id }]);

    const timeline = await ok<{ timeline: { title: string; detail: string }[] }>(
      t.request({ method: 'GET', url: `/api/order/${order!.id}/timeline`, headers: ada.who.auth }),
    );
    expect(JSON.stringify(timeline)).toContain(`from ${NAME}`);
    expect(timeline.timeline[0]?.detail).toMatch(/^Deposit buy: /);
    const listed = await ok<{ result: { orders: { _id: string; origin?: string }[] } }>(
      t.request({ method: 'GET', url: `/api/order/list?userId=${ada.who.userId}`, headers: ada.who.auth }),
    );
    expect(listed.result.orders.find((one) => one._id === order!.id)?.origin).toBe('deposit');

    // The bank's very delivery again, then another event with the same trace: nothing more is bought.
    const delivery = deliveries.at(-1)!;
    await t.app.bankWebhooks.receive(delivery.rawBody, delivery.headers);
    await t.app.inbox.process(null);
    await deposit(ada.accountNumber, 250, { traceNumber: credit.traceNumber });
    const all = await t.database.db.select().from(orders).where(eq(orders.userId, ada.who.userId));
    expect(all).toHaveLength(1);
    expect(await buysOf(credit.id)).toHaveLength(1);
  });

  it('waits the hold before the payment is confirmed, then the run job releases it', async () => {
    const ada = await customer('ada.hold.deposit@example.com');
    await turnOn(ada);
    await t.database.db.update(globalSettings).set({ recurringHoldDays: 3 });
    try {
      const credit = await deposit(ada.accountNumber, 60);
      const [held] = await buysOf(credit.id);
      expect(held).toMatchObject({ status: 'holding' });
      const unpaid = await t.database.db.select().from(orders).where(eq(orders.id, credit.orderId!));
      expect(unpaid[0]?.paymentConfirmedAt).toBeNull();
      await t.app.plans.runDue();
      expect((await buysOf(credit.id))[0]?.status).toBe('holding');
      await t.database.db
        .update(depositBuys)
        .set({ releaseAt: new Date(Date.now() - 1000) })
        .where(eq(depositBuys.id, held!.id));
      await t.app.plans.runDue();
      expect((await buysOf(credit.id))[0]?.status).toBe('paid');
      const paid = await t.database.db.select().from(orders).where(eq(orders.id, credit.orderId!));
      expect(paid[0]?.paymentConfirmedAt).not.toBeNull();
    } finally {
      await t.database.db.update(globalSettings).set({ recurringHoldDays: 0 });
    }
  });

  it('to another customer’s account number buys nothing for them, and nothing for the one with the setting', async () => {
    const ada = await customer('ada.other.deposit@example.com');
    const bob = await customer('bob.other.deposit@example.com');
    await turnOn(ada);
    const credit = await deposit(bob.accountNumber, 100);
    expect(credit).toMatchObject({ status: 'unmatched', userId: bob.who.userId });
    expect(await buysOf(credit.id)).toHaveLength(0);
  });

  it.each([
    ['over the limits', { amount: 20_000 }, 'Maximum limit is $10,000.00'],
    ['from a sender who is not the customer', { originatorName: 'Mallory Scammer' }, 'is not the customer'],
    ['by wire', { rail: 'wire' }, 'The customer has no unpaid ACH or wire buy.'],
  ])('%s stays in "Unmatched bank credits" with the reason', async (_case, change, reason) => {
    const ada = await customer(`ada.${_case.replace(/\W/g, '')}.deposit@example.com`);
    await turnOn(ada);
    const { amount = 100, ...extra } = change as { amount?: number };
    const credit = await deposit(ada.accountNumber, amount, extra);
    expect(credit.status).toBe('unmatched');
    expect(credit.reason).toContain(reason);
    const all = await t.database.db.select().from(orders).where(eq(orders.userId, ada.who.userId));
    expect(all.every((order) => order.status === 'cancelled')).toBe(true);
  });

  it('of a New York customer is refused by the place rules and waits for an operator', async () => {
    const nora = await customer('nora.ny.deposit@example.com', { residenceState: 'NY' });
    await turnOn(nora);
    const credit = await deposit(nora.accountNumber, 100);
    expect(credit).toMatchObject({ status: 'unmatched' });
    expect(credit.reason).toContain('OffZero is not available in New York yet.');
    expect(await buysOf(credit.id)).toMatchObject([{ status: 'refused', orderId: null }]);
  });

  it('left claimed by a worker that stopped, is made once when two run passes take it up at once', async () => {
    const ada = await customer('ada.stale.deposit@example.com');
    const credit = await deposit(ada.accountNumber, 120);
    await turnOn(ada);
    // The claim a stopped worker left behind: no quote, no order, untouched for ten minutes.
    await t.database.db.insert(depositBuys).values({
      creditId: credit.id,
      userId: ada.who.userId,
      amountCents: credit.amountCents,
      status: 'claimed',
      updatedAt: new Date(Date.now() - 600_000),
    });
    await Promise.all([t.app.plans.depositBuys.carryOn(), t.app.plans.depositBuys.carryOn()]);
    const made = await t.database.db.select().from(orders).where(eq(orders.userId, ada.who.userId));
    expect(made).toHaveLength(1);
    expect(await buysOf(credit.id)).toMatchObject([{ status: 'paid', orderId: made[0]!.id }]);
  });
});
