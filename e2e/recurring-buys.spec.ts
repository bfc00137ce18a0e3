/// <reference lib="dom" />
import { test as base, expect, type Page } from '@playwright/test';
import {
  adminToken,
  apiClient,
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

const test = base.extend<{ api: Api }>({
  api: async ({ baseURL }, use) => {
    const api = await apiClient(baseURL!);
    await use(api);
    await api.dispose();
  },
});

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
