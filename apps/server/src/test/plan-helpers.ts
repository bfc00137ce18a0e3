import { eq } from 'drizzle-orm';
import { planRuns } from '../db/schema';
import { bankDay } from '../plans/plan-schedule';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from './accounts-helpers';
import { confirmPayoutAddresses, TEST_WALLET } from './buy-helpers';
import type { TestApp } from './test-app';

/** Recurring buys and deposit buys in tests (docs/design.md, "Recurring buys"). */

export const PLAN_BANK_ACCOUNT = {
  account_name: 'Ada Lovelace',
  account_number: '000123456789',
  bank_name: 'First Example Bank',
  address: '1 Main St, Cheyenne, WY',
  routing_number: '021000021',
  swift: '',
};

export interface PlanView {
  id: string;
  status: string;
  statusNote: string | null;
  nextRunOn: string;
  runs: {
    id: string;
    status: string;
    orderId: string | null;
    runOn: string;
    returnCode: string | null;
    note: string | null;
  }[];
}

type Injected = Promise<{ statusCode: number; body: string; json: () => unknown }>;

/** The answer's body when it is a 200, else a thrown error with the status and body. */
export async function ok<T>(promise: Injected): Promise<T> {
  const response = await promise;
  if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${response.body}`);
  return response.json() as T;
}

/** Adds an address-book entry (confirmed through its e-mailed link unless `confirm` is false). */
export async function addAddress(
  t: TestApp,
  who: RegisteredCustomer,
  label: string,
  confirm = true,
  address = TEST_WALLET,
): Promise<string> {
  const added = await ok<{ payoutAddress: { id: string } }>(
    t.request({
      method: 'POST',
      url: '/api/payout-addresses',
      headers: who.auth,
      payload: { label, address },
    }),
  );
  if (confirm) await confirmPayoutAddresses(t, who);
  return added.payoutAddress.id;
}

/** A verified customer with a bank account in Settings and a confirmed address-book entry. */
export async function readyPlanCustomer(
  t: TestApp,
  email: string,
  kyc: Parameters<typeof registerVerifiedCustomer>[2] = {},
): Promise<{ who: RegisteredCustomer; address: string }> {
  const who = await registerVerifiedCustomer(t, email, kyc);
  await ok(
    t.request({
      method: 'POST',
      url: '/api/user/settings/bank/save',
      headers: who.auth,
      payload: { userId: who.userId, bankAccount: PLAN_BANK_ACCOUNT },
    }),
  );
  return { who, address: await addAddress(t, who, 'Cold wallet') };
}

export const planToday = () => bankDay(new Date());

/** `POST /api/plans`: a weekly $50 plan from today unless `body` says otherwise. */
export function requestPlan(
  t: TestApp,
  who: RegisteredCustomer,
  payoutAddressId: string,
  body: Record<string, unknown> = {},
) {
  return t.request({
    method: 'POST',
    url: '/api/plans',
    headers: who.auth,
    payload: {
      amountUsd: '50',
      frequency: 'weekly',
      firstRunOn: planToday(),
      payoutAddressId,
      authorization: { accepted: true },
      ...body,
    },
  });
}

/** The demo's "run now" of a plan's next run. */
export async function runPlanNow(t: TestApp, planId: string): Promise<PlanView> {
  return (await ok<{ plan: PlanView }>(t.request({ method: 'POST', url: `/api/dev/plans/${planId}/run` })))
    .plan;
}

export async function planRunRow(t: TestApp, runId: string) {
  const [row] = await t.database.db.select().from(planRuns).where(eq(planRuns.id, runId));
  if (!row) throw new Error('no such run');
  return row;
}

export async function adminAuth(t: TestApp): Promise<Record<string, string>> {
  return (await logIn(t, 'admin@offzero.local')).auth;
}
