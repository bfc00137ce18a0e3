import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAM_MESSAGES } from '@offzero/shared/places/scam-shield';
import { monitoringCases, orders, plans } from '../db/schema';
import { createTestApp, type TestApp } from '../test/test-app';
import { ok, type PlanView, readyPlanCustomer, requestPlan, runPlanNow } from '../test/plan-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** A customer whose identity was approved an hour ago: new, before any buy. */
const newCustomer = (email: string) =>
  readyPlanCustomer(t, email, { approvedAt: new Date(Date.now() - 3_600_000).toISOString() });

const ANSWER = { ownWallet: true, someoneAskedMe: false };

describe('a new customer’s plan and the scam question (docs/design.md, "Recurring buys")', () => {
  it('asks for the answer, keeps it with the plan, and the run passes it: the buy is made', async () => {
    const { who, address } = await newCustomer('nina.new.plan@example.com');
    const unanswered = await requestPlan(t, who, address);
    expect(unanswered.statusCode).toBe(400);
    expect(unanswered.json()).toMatchObject({
      code: 'SCAM_CHECK_REQUIRED',
      message: SCAM_MESSAGES.questionMissing,
    });

    const notOwn = await requestPlan(t, who, address, {
      scamCheck: { ownWallet: false, someoneAskedMe: false },
    });
    expect(notOwn.statusCode).toBe(400);
    expect(notOwn.json<{ message: string }>().message).toBe(SCAM_MESSAGES.notOwnWallet);

    const { plan } = await ok<{ plan: PlanView }>(requestPlan(t, who, address, { scamCheck: ANSWER }));
    const [row] = await t.database.db.select().from(plans).where(eq(plans.id, plan.id));
    expect(row?.scamCheck).toEqual(ANSWER);

    const ran = await runPlanNow(t, plan.id);
    expect(ran.runs[0]).toMatchObject({ status: 'debiting', note: null });
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, ran.runs[0]!.orderId!));
    expect(order).toMatchObject({ status: 'processing', origin: 'recurring', scamCheck: ANSWER });
    const timeline = await ok<{ timeline: { title: string; detail: string }[] }>(
      t.request({ method: 'GET', url: `/api/order/${order!.id}/timeline`, headers: who.auth }),
    );
    expect(timeline.timeline[0]).toMatchObject({
      title: 'Order placed',
      detail: expect.stringMatching(/^Recurring buy: /),
    });
  });

  it('"someone asked me" stops the plan as it stops a buy: 400 with the guidance, a case, no plan', async () => {
    const { who, address } = await newCustomer('sam.asked.plan@example.com');
    const refused = await requestPlan(t, who, address, {
      scamCheck: { ownWallet: true, someoneAskedMe: true },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'SCAM_SUSPECTED', message: SCAM_MESSAGES.someoneAsked });
    const cases = await t.database.db
      .select()
      .from(monitoringCases)
      .where(and(eq(monitoringCases.userId, who.userId), eq(monitoringCases.rule, 'scam_suspected')));
    expect(cases).toHaveLength(1);
    expect(await t.database.db.select().from(plans).where(eq(plans.userId, who.userId))).toHaveLength(0);
  });

  it('still holds a new customer’s run to the daily cap: the run fails with the cap’s words, nothing debited', async () => {
    const { who, address } = await newCustomer('carl.cap.plan@example.com');
    const { plan } = await ok<{ plan: PlanView }>(
      requestPlan(t, who, address, { amountUsd: '1500', frequency: 'monthly', scamCheck: ANSWER }),
    );
    const ran = await runPlanNow(t, plan.id);
    expect(ran.runs[0]).toMatchObject({ status: 'failed', note: SCAM_MESSAGES.newCustomerCap('$1,000.00') });
  });

  it('an established customer needs no answer', async () => {
    const { who, address } = await readyPlanCustomer(t, 'olga.old.plan@example.com');
    const { plan } = await ok<{ plan: PlanView }>(requestPlan(t, who, address));
    expect((await runPlanNow(t, plan.id)).runs[0]?.status).toBe('debiting');
  });
});
