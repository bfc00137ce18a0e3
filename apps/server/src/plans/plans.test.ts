import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PLAN_MESSAGES } from '@offzero/shared/api/plans';
import { globalSettings, monitoringCases, orders, planRuns, plans, users } from '../db/schema';
import { isDemoBank } from '../providers/provider-registry';
import { BankError } from '../bank/bank-provider';
import type { BankWebhookDelivery, DemoBank } from '../bank/demo-bank';
import type { RegisteredCustomer } from '../test/accounts-helpers';
import {
  addAddress as addAddressTo,
  adminAuth as adminAuthOf,
  ok,
  PLAN_BANK_ACCOUNT,
  planRunRow,
  planToday,
  type PlanView,
  readyPlanCustomer,
  requestPlan,
  runPlanNow,
} from '../test/plan-helpers';
import { createTestApp, type TestApp } from '../test/test-app';
import { addDays } from './plan-schedule';

let t: TestApp;
let bank: DemoBank;
const deliveries: BankWebhookDelivery[] = [];
let ada: RegisteredCustomer;
let bob: RegisteredCustomer;
let adaAddress: string;
let bobAddress: string;

const BANK_ACCOUNT = PLAN_BANK_ACCOUNT;
const addAddress = (who: RegisteredCustomer, label: string, confirm = true, address?: string) =>
  addAddressTo(t, who, label, confirm, address);
const readyCustomer = (email: string) => readyPlanCustomer(t, email);
const today = planToday;
const createPlan = (who: RegisteredCustomer, body: Record<string, unknown>) =>
  requestPlan(t, who, who === ada ? adaAddress : bobAddress, body);

async function newPlan(who: RegisteredCustomer, body: Record<string, unknown> = {}): Promise<PlanView> {
  return (await ok<{ plan: PlanView }>(createPlan(who, body))).plan;
}

const runNow = (planId: string) => runPlanNow(t, planId);
const runRow = (runId: string) => planRunRow(t, runId);
const adminAuth = () => adminAuthOf(t);

beforeAll(async () => {
  // The run job runs in the background too, as in every worker: the tests hold whichever does a step.
  t = await createTestApp();
  if (!isDemoBank(t.app.providers.bank)) throw new Error('the test app has the demo bank');
  bank = t.app.providers.bank;
  // The demo bank's webhooks go where the app sends them, kept on the way so a test can replay one.
  bank.setWebhookSink(async (delivery) => {
    deliveries.push(delivery);
    return t.app.bankWebhooks.receive(delivery.rawBody, delivery.headers);
  });
  ({ who: ada, address: adaAddress } = await readyCustomer('ada.plans@example.com'));
  ({ who: bob, address: bobAddress } = await readyCustomer('bob.plans@example.com'));
});
afterAll(async () => t.close());

describe('POST /api/plans', () => {
  it('creates a weekly plan and keeps the ACH debit authorization: text, time, IP and bank account', async () => {
    const plan = await newPlan(ada, { amountUsd: 50 });
    expect(plan).toMatchObject({ status: 'active', nextRunOn: today(), runs: [] });
    const [row] = await t.database.db.select().from(plans).where(eq(plans.id, plan.id));
    expect(row).toMatchObject({
      amountCents: 5_000n,
      frequency: 'weekly',
      authorizedIp: '127.0.0.1',
      bankAccountName: 'Ada Lovelace',
      bankAccountNumber: '000123456789',
      bankRoutingNumber: '021000021',
    });
    expect(row?.authorizationText).toMatch(
      /debit \$50\.00 every week from the account of Ada Lovelace ending 6789/,
    );
    const listed = await ok<{ plans: PlanView[] }>(
      t.app.inject({ method: 'GET', url: '/api/plans', headers: ada.auth }),
    );
    expect(listed.plans.map((one) => one.id)).toContain(plan.id);
  });

  it.each([
    ['0', 'The amount must be more than $0.'],
    [0, 'The amount must be more than $0.'],
    ['-5', 'Enter the amount without a minus sign.'],
    [-5, 'Enter the amount without a minus sign.'],
    ['1000.001', 'Use at most 2 decimal places for US dollars.'],
    [1000.001, 'Use at most 2 decimal places for US dollars.'],
    ['10000.01', 'Maximum limit is $10,000.00'],
  ])('refuses the amount %j with a message', async (amountUsd, message) => {
    const response = await createPlan(ada, { amountUsd });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toBe(message);
  });

  it('refuses a frequency, a date that is not real or in the past, and an authorization not accepted', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ frequency: 'daily' }, PLAN_MESSAGES.frequency],
      [{ firstRunOn: '2030-02-30' }, PLAN_MESSAGES.notADate],
      [{ firstRunOn: 'next friday' }, PLAN_MESSAGES.firstRunOn],
      [{ firstRunOn: addDays(today(), -1) }, PLAN_MESSAGES.inThePast],
      [{ authorization: { accepted: false } }, PLAN_MESSAGES.authorization],
    ];
    for (const [body, message] of cases) {
      const response = await createPlan(ada, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.body).toContain(message);
    }
  });

  it('refuses a plan over the limits: its own runs in 30 days over the 30-day limit', async () => {
    const [before] = await t.database.db.select().from(globalSettings);
    await t.database.db.update(globalSettings).set({ limitTier1MonthCents: 100_000n });
    try {
      const response = await createPlan(ada, { amountUsd: '250', frequency: 'weekly' });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(
        'This plan is over your 30-day limit of $1,000.00: 5 buys of $250.00 would come to $1,250.00.',
      );
      expect((await createPlan(ada, { amountUsd: '250', frequency: 'monthly' })).statusCode).toBe(200);
    } finally {
      await t.database.db.update(globalSettings).set({ limitTier1MonthCents: before!.limitTier1MonthCents });
    }
  });

  it('refuses an unconfirmed address, a removed one, and another customer’s (404)', async () => {
    const unconfirmed = await addAddress(
      ada,
      'Not yet confirmed',
      false,
      'tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl',
    );
    const refused = await createPlan(ada, { payoutAddressId: unconfirmed });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe(PLAN_MESSAGES.addressUnconfirmed);

    const removed = await addAddress(ada, 'Old wallet', true, 'tb1qd7spv5q28348xl4myc8zmh983w5jx32cjhkn97');
    await ok(t.request({ method: 'DELETE', url: `/api/payout-addresses/${removed}`, headers: ada.auth }));
    const gone = await createPlan(ada, { payoutAddressId: removed });
    expect(gone.statusCode).toBe(400);
    expect(gone.json<{ message: string }>().message).toBe(PLAN_MESSAGES.addressRemoved);

    const others = await createPlan(ada, { payoutAddressId: bobAddress });
    expect(others.statusCode).toBe(404);
  });
});

describe('another customer’s plan', () => {
  it('answers 404 to pause, resume and cancel, and is not listed', async () => {
    const plan = await newPlan(bob);
    for (const action of ['pause', 'resume', 'cancel']) {
      const response = await t.request({
        method: 'POST',
        url: `/api/plans/${plan.id}/${action}`,
        headers: ada.auth,
      });
      expect(response.statusCode).toBe(404);
    }
    const listed = await ok<{ plans: PlanView[] }>(
      t.app.inject({ method: 'GET', url: '/api/plans', headers: ada.auth }),
    );
    expect(listed.plans.map((one) => one.id)).not.toContain(plan.id);
    const [row] = await t.database.db.select().from(plans).where(eq(plans.id, plan.id));
    expect(row?.status).toBe('active');
  });

  it('lets the owner pause, resume and cancel', async () => {
    const plan = await newPlan(bob);
    const act = (action: string) =>
      ok<{ plan: PlanView }>(
        t.request({ method: 'POST', url: `/api/plans/${plan.id}/${action}`, headers: bob.auth }),
      );
    expect((await act('pause')).plan.status).toBe('paused');
    expect((await act('resume')).plan.status).toBe('active');
    expect((await act('cancel')).plan.status).toBe('cancelled');
    expect(
      (await t.request({ method: 'POST', url: `/api/plans/${plan.id}/resume`, headers: bob.auth }))
        .statusCode,
    ).toBe(409);
  });
});

describe('runs', () => {
  it('debits through the bank (ACH, WEB, the run id as key), holds, then releases the buy to the payout batch', async () => {
    const plan = await newPlan(ada);
    const ran = await runNow(plan.id);
    expect(ran.nextRunOn).toBe(addDays(today(), 7));
    const run = ran.runs[0]!;
    expect(run).toMatchObject({ status: 'debiting', runOn: today(), note: null });
    const row = await runRow(run.id);
    const transfer = await bank.getTransfer(row.transferId!);
    expect(transfer).toMatchObject({ kind: 'ach_debit', amountCents: 5_000n, status: 'submitted' });
    const [stored] = await bank.listTransfers(BANK_ACCOUNT.account_number);
    expect(stored).toBeDefined();
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, run.orderId!));
    expect(order).toMatchObject({
      type: 'buy',
      status: 'processing',
      paymentMethod: 'ach',
      valueCents: 5_000n,
    });
    expect(order?.paymentConfirmedAt).toBeNull();

    // Not settled: the run job reads it back and waits.
    await t.app.plans.runDue();
    expect((await runRow(run.id)).status).toBe('debiting');

    await bank.settle(row.transferId!);
    await t.app.plans.runDue();
    expect(await runRow(run.id)).toMatchObject({ status: 'paid' });
    const [paid] = await t.database.db.select().from(orders).where(eq(orders.id, run.orderId!));
    expect(paid?.paymentConfirmedAt).not.toBeNull();
    expect(paid?.bankTxn).toBe(transfer.traceNumber);

    const due = await ok<{ orders: { orderId?: string; order?: { _id: string } }[] }>(
      t.app.inject({ method: 'GET', url: '/api/admin/payouts/due', headers: await adminAuth() }),
    );
    expect(JSON.stringify(due)).toContain(run.orderId!);

    // The back office reads the plan, its run's debit, hold and release; a customer may not.
    const office = await ok<{
      plans: { id: string; customerEmail: string; runs: Record<string, unknown>[] }[];
    }>(t.app.inject({ method: 'GET', url: '/api/admin/plans', headers: await adminAuth() }));
    const seen = office.plans.find((one) => one.id === plan.id)!;
    expect(seen.customerEmail).toBe(ada.email);
    expect(seen.runs[0]).toMatchObject({
      id: run.id,
      status: 'paid',
      transferId: row.transferId,
      amountUsd: 50,
    });
    expect(seen.runs[0]!.releaseAt).toEqual(expect.any(String));
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/plans', headers: ada.auth })).statusCode,
    ).toBe(403);
  });

  it('makes a run once when two workers run the same plan at once', async () => {
    const plan = await newPlan(bob, { firstRunOn: addDays(today(), 1) });
    await t.database.db.update(plans).set({ nextRunOn: today() }).where(eq(plans.id, plan.id));
    await Promise.all([t.app.plans.runDue(), t.app.plans.runDue(), t.app.plans.runDue()]);
    const runs = await t.database.db.select().from(planRuns).where(eq(planRuns.planId, plan.id));
    expect(runs).toHaveLength(1);
    const debits = (await bank.listTransfers(BANK_ACCOUNT.account_number)).filter((one) =>
      runs.some((run) => run.transferId === one.id),
    );
    expect(debits).toHaveLength(1);
  });

  it('skips runs missed by more than a day and makes no second run when the clock jumps back', async () => {
    const plan = await newPlan(bob, { firstRunOn: addDays(today(), 1) });
    // The plan's schedule as if its first day were three weeks ago: a clock jumped ahead.
    await t.database.db
      .update(plans)
      .set({ nextRunOn: addDays(today(), -21), anchorOn: addDays(today(), -21) })
      .where(eq(plans.id, plan.id));
    await t.app.plans.runDue();
    const runs = await t.database.db.select().from(planRuns).where(eq(planRuns.planId, plan.id));
    expect(runs.map((run) => [run.runOn, run.status]).sort()).toEqual([
      [addDays(today(), -21), 'skipped'],
      [addDays(today(), -14), 'skipped'],
      [addDays(today(), -7), 'skipped'],
      [today(), 'debiting'],
    ]);
    // The clock jumps back to the plan's old day: the next run is ahead, and nothing is made twice.
    await t.database.db.update(plans).set({ nextRunOn: today() }).where(eq(plans.id, plan.id));
    await t.app.plans.runDue();
    const again = await t.database.db.select().from(planRuns).where(eq(planRuns.planId, plan.id));
    expect(again).toHaveLength(4);
  });
  it('a run the bank could not serve stays claimed and is debited once, with the same key, later', async () => {
    const plan = await newPlan(bob, { firstRunOn: addDays(today(), 1) });
    await t.database.db.update(plans).set({ nextRunOn: today() }).where(eq(plans.id, plan.id));
    const outage = vi.spyOn(bank, 'createTransfer').mockRejectedValue(new BankError('The bank timed out.'));
    try {
      await t.app.plans.runDue();
    } finally {
      outage.mockRestore();
    }
    const [claimed] = await t.database.db.select().from(planRuns).where(eq(planRuns.planId, plan.id));
    expect(claimed).toMatchObject({ status: 'claimed', transferId: null });
    expect(claimed?.orderId).not.toBeNull();
    // The worker's lease runs out; the run job finishes the run.
    await t.database.db
      .update(planRuns)
      .set({ updatedAt: new Date(Date.now() - 120_000) })
      .where(eq(planRuns.id, claimed!.id));
    await t.app.plans.runDue();
    const done = await runRow(claimed!.id);
    expect(done).toMatchObject({ status: 'debiting', orderId: claimed!.orderId });
    const transfer = await bank.getTransfer(done.transferId!);
    expect(transfer).toMatchObject({ kind: 'ach_debit', amountCents: 5_000n });
  });
});

describe('returns', () => {
  it('a returned debit cancels the run’s buy and pauses the plan with an e-mail; a replayed webhook applies once', async () => {
    const plan = await newPlan(ada);
    const run = (await runNow(plan.id)).runs[0]!;
    const transferId = (await runRow(run.id)).transferId!;
    await bank.returnTransfer(transferId, 'R01');
    const delivery = deliveries.at(-1)!;
    await t.app.inbox.process(null);
    await t.app.plans.runDue();
    const listed = await ok<{ plans: PlanView[] }>(
      t.app.inject({ method: 'GET', url: '/api/plans', headers: ada.auth }),
    );
    const shown = listed.plans.find((one) => one.id === plan.id)!;
    expect(shown).toMatchObject({ status: 'paused', statusNote: 'Paused: your bank returned the payment' });
    expect(shown.runs[0]).toMatchObject({ status: 'returned', returnCode: 'R01' });
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, run.orderId!));
    expect(order?.status).toBe('cancelled');

    // The bank sends the same event again: answered, stored once, and nothing happens twice.
    const replay = await t.app.inject({
      method: 'POST',
      url: '/api/bank/webhook',
      headers: delivery.headers,
      payload: delivery.rawBody,
    });
    expect(replay.statusCode).toBe(200);
    await t.app.inbox.process(null);
    expect(await t.app.plans.applyTransferUpdate(await bank.getTransfer(transferId))).toBe('unchanged');
    const mail = await ok<{ messages: { subject: string }[] }>(
      t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(ada.email)}` }),
    );
    expect(mail.messages.filter((one) => one.subject === 'Your recurring buy is paused')).toHaveLength(1);
  });

  it('R10 after the payout flags the buy payment_reversed, restricts the customer and opens a case', async () => {
    const carol = await readyCustomer('carol.plans@example.com');
    const plan = await newPlan(carol.who, { payoutAddressId: carol.address });
    const run = (await runNow(plan.id)).runs[0]!;
    const transferId = (await runRow(run.id)).transferId!;
    await bank.settle(transferId);
    await t.app.inbox.process(null);
    await t.app.plans.runDue();
    expect((await runRow(run.id)).status).toBe('paid');
    await bank.returnTransfer(transferId, 'R10');
    await t.app.inbox.process(null);
    expect(await runRow(run.id)).toMatchObject({ status: 'reversed', returnCode: 'R10' });
    expect(await t.app.plans.applyTransferUpdate(await bank.getTransfer(transferId))).toBe('unchanged');
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, run.orderId!));
    expect(order?.flag).toBe('payment_reversed');
    const [user] = await t.database.db.select().from(users).where(eq(users.id, carol.who.userId));
    expect(user?.restrictedAt).not.toBeNull();
    const cases = await t.database.db
      .select()
      .from(monitoringCases)
      .where(eq(monitoringCases.userId, carol.who.userId));
    expect(cases.filter((one) => one.rule === 'payment_reversed')).toHaveLength(1);
  });

  it('a return webhook for a transfer no run knows changes nothing and is counted', async () => {
    const before = t.app.plans.unknownTransferUpdates();
    const stranger = await bank.createTransfer({
      kind: 'ach_debit',
      amountCents: 5_000n,
      idempotencyKey: `not-a-run-${Date.now()}`,
      secCode: 'WEB',
      counterparty: { accountNumber: '000999888777', routingNumber: '021000021', name: 'Someone Else' },
      description: 'not a plan run',
    });
    await bank.returnTransfer(stranger.id, 'R01');
    await t.app.inbox.process(null);
    expect(t.app.plans.unknownTransferUpdates()).toBe(before + 1);
  });
});
