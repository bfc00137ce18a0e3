/// <reference lib="dom" />
import { expect, type Page } from '@playwright/test';
import { test } from './support/fixtures';
import {
  adminToken,
  bankAccount,
  confirmPayoutAddresses,
  registerCustomer,
  signedInPage,
  TESTNET_WALLET,
  type Api,
  type Customer,
} from './support/api';
import { nextPhoneDigits } from './support/run-state';
import { DESKTOP, snapAtWidths } from './support/screens';

// Recurring buys end to end in demo mode: a customer starts a weekly plan in Settings with its debit
// authorization, the dashboard names the next buy, the demo helper runs the plan, the demo bank
// settles the ACH debit and the buy joins the payout batch's due list; the next run's debit is
// returned and the plan shows it is paused. Screenshots at 1280 and 390 px.
const stamp = Date.now();
// A bank account number of this run only, so the demo bank's transfers of it are this customer's.
const accountNumber = `7${String(stamp).slice(-10)}`;

const snap = (page: Page, name: string) => snapAtWidths(page, 'recurring-buys', name);

interface PlanView {
  id: string;
  status: string;
  statusNote: string | null;
  runs: { id: string; status: string; orderId: string | null }[];
}
interface TransferView {
  id: string;
  kind: string;
  status: string;
}

async function planOf(api: Api, customer: Customer): Promise<PlanView> {
  const { plans } = await api.get<{ plans: PlanView[] }>('/api/plans', customer.token);
  expect(plans).toHaveLength(1);
  return plans[0]!;
}

/** The newest ACH debit of the customer's bank account that is still on its way, at the demo bank. */
async function pendingDebit(api: Api): Promise<TransferView> {
  let found: TransferView | undefined;
  await expect
    .poll(async () => {
      const { transfers } = await api.get<{ transfers: TransferView[] }>(
        `/api/dev/bank/transfers?accountNumber=${accountNumber}`,
      );
      found = transfers.filter((one) => one.kind === 'ach_debit' && one.status === 'submitted').at(-1);
      return found?.id ?? '';
    })
    .not.toBe('');
  return found!;
}

test('a weekly plan: start it, run it, settle the debit, see the buy due; a returned debit pauses it', async ({
  api,
  browser,
}) => {
  test.setTimeout(120_000);
  const customer = await registerCustomer(api, `plans-${stamp}@example.com`, `+1${nextPhoneDigits()}`);
  const { userId, token } = customer;
  // Approved four days ago: an established customer, whose plan runs meet no first-buy scam question.
  await api.post('/api/dev/kyc/decide', {
    userId,
    status: 'GREEN',
    approvedAt: new Date(Date.now() - 4 * 24 * 3_600_000).toISOString(),
  });
  await api.post(
    '/api/user/settings/bank/save',
    { userId, bankAccount: { ...bankAccount, account_number: accountNumber } },
    token,
  );
  await api.post('/api/payout-addresses', { label: 'Cold wallet', address: TESTNET_WALLET }, token);
  await confirmPayoutAddresses(api, customer);

  // Settings: the new plan's form shows the debit authorization the customer accepts.
  const page = await signedInPage(browser, token, DESKTOP);
  await page.goto('/settings');
  const card = page.getByTestId('plans-card');
  await expect(card).toContainText('No recurring buys yet.');
  await card.getByRole('button', { name: 'New recurring buy' }).click();
  await card.getByLabel('Amount (USD)').fill('50');
  await card.getByLabel('How often').selectOption('weekly');
  await expect(card.getByTestId('plan-authorization')).toContainText(
    `debit $50.00 every week from the account of ${bankAccount.account_name} ending ${accountNumber.slice(-4)}`,
  );
  await card.getByLabel('I authorize this debit').check();
  await snap(page, 'new-plan');
  await card.getByRole('button', { name: 'Start plan' }).click();
  const item = card.getByTestId('plan-item');
  await expect(item).toContainText('$50 every week');
  await expect(item).toContainText('Active');

  // The dashboard names the next buy.
  await page.goto('/dashboard');
  await expect(page.getByTestId('next-buy-line')).toContainText('Next buy: $50');
  await snap(page, 'dashboard');

  // The demo helper runs the plan now: a buy at today's price and an ACH debit of $50.
  const plan = await planOf(api, customer);
  await api.post(`/api/dev/plans/${plan.id}/run`, {});
  const first = await pendingDebit(api);
  await api.post(`/api/dev/bank/transfers/${first.id}/settle`, {});
  // The bank's webhook settles the run; with the demo's hold of 0 days it is released at once.
  await expect
    .poll(async () => (await planOf(api, customer)).runs[0]?.status, { timeout: 30_000 })
    .toBe('paid');
  const orderId = (await planOf(api, customer)).runs[0]!.orderId!;

  // The back office sees the buy due in the next payout batch.
  const admin = await signedInPage(browser, await adminToken(api), DESKTOP);
  await admin.goto('/admin/payouts');
  await expect(admin.getByText(orderId.slice(0, 8)).first()).toBeVisible({ timeout: 15_000 });
  await snap(admin, 'admin-due');
  await admin.goto('/admin/plans');
  await expect(admin.getByTestId('admin-plans')).toContainText(customer.email);
  await snap(admin, 'admin-plans');

  // The next run's debit is returned (R01, insufficient funds): the plan pauses and says why.
  await api.post(`/api/dev/plans/${plan.id}/run`, {});
  const second = await pendingDebit(api);
  await api.post(`/api/dev/bank/transfers/${second.id}/return`, { code: 'R01' });
  await expect.poll(async () => (await planOf(api, customer)).status, { timeout: 30_000 }).toBe('paused');
  await page.goto('/settings');
  await expect(item).toContainText('Paused: your bank returned the payment');
  await expect(item.getByTestId('plan-runs')).toContainText('Returned by your bank (R01)');
  await item.scrollIntoViewIfNeeded();
  await snap(page, 'paused');
});

test('a new customer answers the scam question for a plan whose run succeeds; every deposit buys bitcoin', async ({
  api,
  browser,
}) => {
  test.setTimeout(120_000);
  const name = 'Nina Newcomer';
  const customer = await registerCustomer(api, `plans-new-${stamp}@example.com`, `+1${nextPhoneDigits()}`);
  const { userId, token } = customer;
  // Approved just now: a new customer, whose first buy needs the scam question's answer.
  await api.post('/api/dev/kyc/decide', { userId, status: 'GREEN', fullName: name });
  const debitAccount = `8${String(stamp).slice(-10)}`;
  await api.post(
    '/api/user/settings/bank/save',
    { userId, bankAccount: { ...bankAccount, account_name: name, account_number: debitAccount } },
    token,
  );
  await api.post('/api/payout-addresses', { label: 'Cold wallet', address: TESTNET_WALLET }, token);
  await confirmPayoutAddresses(api, customer);

  const page = await signedInPage(browser, token, DESKTOP);
  await page.goto('/settings');
  const card = page.getByTestId('plans-card');
  await card.getByRole('button', { name: 'New recurring buy' }).click();
  await card.getByLabel('Amount (USD)').fill('40');
  await card.getByLabel('I authorize this debit').check();
  await card.getByRole('button', { name: 'Start plan' }).click();
  // The server asks for the first-buy answer: the same question as the buy flow's.
  const question = card.getByTestId('scam-question');
  await expect(question).toBeVisible();
  await snap(page, 'plan-scam-question');
  await question
    .getByRole('group', { name: 'Is the wallet you are buying for your own?' })
    .getByLabel('Yes')
    .check();
  await question
    .getByRole('group', { name: 'Did anyone ask you to buy bitcoin or tell you where to send it?' })
    .getByLabel('No')
    .check();
  await question.getByRole('button', { name: 'Continue' }).click();
  await expect(card.getByTestId('plan-item')).toContainText('$40 every week');

  // The run passes the kept answer: its buy is made and the debit pulled.
  const plan = await planOf(api, customer);
  await api.post(`/api/dev/plans/${plan.id}/run`, {});
  await expect.poll(async () => (await planOf(api, customer)).runs[0]?.status).toBe('debiting');

  // "Buy bitcoin with every deposit": on, then a payroll deposit to her own account number.
  const deposits = page.getByTestId('deposit-buys-card');
  const toggle = deposits.getByRole('switch', { name: 'Buy bitcoin with every deposit' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await deposits.scrollIntoViewIfNeeded();
  await snap(page, 'deposit-buys-on');
  const { accountNumber: ownNumber } = await api.get<{ accountNumber: string }>('/api/funding', token);
  await api.post('/api/dev/bank/inbound', {
    accountNumber: ownNumber,
    amount: 75,
    originatorName: name,
    rail: 'ach',
  });
  await expect
    .poll(
      async () => {
        const { result } = await api.get<{ result: { orders: { value: number }[] } }>(
          `/api/order/list?userId=${userId}`,
          token,
        );
        return result.orders.map((order) => order.value).sort();
      },
      { timeout: 30_000 },
    )
    .toEqual([40, 75]);
  await page.goto('/orders');
  await expect(page.getByText('$75.00').first()).toBeVisible();
  await expect(page.getByText('Deposit buy').first()).toBeVisible();
  await expect(page.getByText('Recurring buy').first()).toBeVisible();
  // The plan's debit and the deposit pay these buys: no bank reference is asked for.
  await expect(page.getByLabel('Add Bank Tx Ref No.')).toHaveCount(0);
  await snap(page, 'deposit-buy-order');
});
