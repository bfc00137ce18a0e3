/// <reference lib="dom" />
import { test, expect, type Page } from '@playwright/test';
import type { Order } from '@offzero/shared/api/orders';
import {
  adminToken,
  apiClient,
  signInAs,
  tradeReadyCustomer,
  savePaidZelleBuy,
  signedInPage,
  type Customer,
} from './support/api';
import { DESKTOP, snapAtWidths } from './support/screens';
import { gotoInteractive } from './support/interactive';

// Trading limits and the Travel Rule question (docs/design.md), on the real server in demo mode: what
// is left shows at the quote step and on the Limits card and moves after an order; an order of
// $3,000 or more asks whose wallet it is; an order over the 24-hour limit is refused with what is left.
/** The origin the page runs on (the test's base URL). */
const baseURLOf = (page: Page) => new URL(page.url()).origin;

const stamp = Date.now();

test.use({ viewport: DESKTOP });

const snap = (page: Page, name: string) => snapAtWidths(page, 'limits', name);

/** A customer of the test's own who may trade, so that no test depends on another's orders. */
const newTrader = (baseURL: string, label: string): Promise<Customer> =>
  tradeReadyCustomer(baseURL, {
    email: `limits-${label}-${stamp}@example.com`,
    zelleEmail: 'limits.pays@example.com',
  });

async function newestOrder(page: Page, customer: Customer): Promise<Order> {
  const response = await page.request.get(`/api/order/list?userId=${customer.userId}`, {
    headers: { Authorization: `Bearer ${customer.token}` },
  });
  const [order] = ((await response.json()) as { result: { orders: Order[] } }).result.orders;
  if (!order) throw new Error('The customer has no order.');
  return order;
}

test('a $3,500 buy asks whose wallet it is, and what is left moves on the quote step and the Limits card', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const customer = await newTrader(baseURL!, 'moves');
  await signInAs(page, customer);
  await page.goto('/settings');
  const card = page.getByTestId('limits-card');

  await test.step('the Limits card before any order', async () => {
    await expect(card.getByTestId('limit-24h')).toContainText('$10,000.00 left of $10,000.00');
    await expect(card.getByTestId('limit-7d')).toContainText('$20,000.00 left of $20,000.00');
    await expect(card.getByTestId('limit-30d')).toContainText('$50,000.00 left of $50,000.00');
    await expect(card).toContainText('Tier 1.');
    await card.scrollIntoViewIfNeeded();
    await snap(page, '1-settings-card');
  });

  await gotoInteractive(page, '/dashboard');
  const widget = page.getByTestId('trade-widget');
  await test.step('the quote step shows what is left before an amount is typed', async () => {
    await expect(widget.getByTestId('remaining-limit')).toHaveText(
      'You can trade up to $10,000.00 more today.',
    );
    await widget.getByLabel('You Pay').fill('3500');
    await expect(widget.getByLabel('You Receive')).not.toHaveValue('');
    await snap(page, '2-quote');
    await widget.getByRole('button', { name: 'Continue' }).click();
  });

  await test.step('the confirmation asks "Is this your own wallet?" and needs an answer', async () => {
    const question = widget.getByTestId('wallet-ownership');
    await expect(question).toContainText('Is this your own wallet?');
    await widget.getByRole('button', { name: 'Pay $3,500.00' }).click();
    await expect(question.getByRole('alert')).toHaveText('Tell us whether this wallet is your own.');
    await question.getByLabel('No, an exchange or institution holds it').check();
    await question.getByLabel('Name of the exchange or institution').fill('Kraken');
    await snap(page, '3-confirmation');
    await widget.getByRole('button', { name: 'Pay $3,500.00' }).click();
    await expect(widget.getByText('Total: $3,500.00')).toBeVisible();
    const order = await newestOrder(page, customer);
    expect(order.value).toBe(3_500);
    // Paid by Zelle: no longer pending, so the dashboard widget starts a new order (a pending one would
    // be picked up instead), and the order still counts towards the limits.
    const api = await apiClient(baseURLOf(page));
    await api.post(
      '/api/order/update',
      {
        _id: order._id,
        payment: { method: 'zelle', amount: 3_500, create_time: new Date().toISOString(), receiving_in: {} },
        status: 'processing',
      },
      customer.token,
    );
    await api.dispose();
  });

  await test.step('what is left moved: the quote step and the Limits card', async () => {
    await gotoInteractive(page, '/dashboard');
    await expect(widget.getByTestId('remaining-limit')).toHaveText(
      'You can trade up to $6,500.00 more today.',
    );
    await page.goto('/settings');
    await expect(card.getByTestId('limit-24h')).toContainText('$6,500.00 left of $10,000.00');
    await expect(card.getByTestId('limit-30d')).toContainText('$46,500.00 left of $50,000.00');
    await card.scrollIntoViewIfNeeded();
    await snap(page, '4-settings-card-after');
  });
});

test('an order over the 24-hour limit is refused with what is left', async ({ page, baseURL }) => {
  const customer = await newTrader(baseURL!, 'over');
  const api = await apiClient(baseURL!);
  // Paid, so the dashboard widget starts a new order instead of picking this one up.
  await savePaidZelleBuy(api, customer, 9_000, `LIMIT-${Date.now()}`);
  await api.dispose();
  await signInAs(page, customer);
  await gotoInteractive(page, '/dashboard');
  const widget = page.getByTestId('trade-widget');
  await expect(widget.getByTestId('remaining-limit')).toHaveText('You can trade up to $1,000.00 more today.');
  await widget.getByRole('tab', { name: 'Buy' }).click();
  await widget.getByLabel('You Pay').fill('1500');
  await expect(widget.getByLabel('You Receive')).not.toHaveValue('');
  await widget.getByRole('button', { name: 'Continue' }).click();
  await widget.getByRole('button', { name: 'Pay $1,500.00' }).click();
  await expect(
    page.getByText('This order is over your 24-hour limit. You can trade up to $1,000.00 more today.'),
  ).toBeVisible();
  await snap(page, '5-over-limit');
});

test('an admin moves a customer to tier 2 from the customer page; the editor shows each tier’s limits', async ({
  browser,
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const customer = await newTrader(baseURL!, 'tier');
  const api = await apiClient(baseURL!);
  const admin = await signedInPage(browser, await adminToken(api), DESKTOP);
  await api.dispose();

  await test.step('the settings editor has the limits of both tiers', async () => {
    await admin.goto('/admin/settings');
    const panel = admin.getByTestId('settings-limits');
    await expect(panel.getByLabel('Tier 1, 24 hours')).toHaveValue('10000');
    await expect(panel.getByLabel('Tier 2, 30 days')).toHaveValue('250000');
    await panel.getByLabel('Tier 1, 24 hours').fill('30000');
    await admin.getByRole('button', { name: 'Save settings' }).click();
    await expect(panel.getByText('The 24-hour limit cannot be above the 7-day limit.')).toBeVisible();
    await panel.scrollIntoViewIfNeeded();
    await snap(admin, '6-admin-settings');
    await admin.getByRole('button', { name: 'Discard' }).click();
  });

  await test.step('the customer page moves the customer to tier 2 with a reason', async () => {
    await admin.goto(`/admin/customers/${customer.userId}`);
    const tier = admin.getByTestId('customer-tier');
    await expect(tier).toContainText('Tier 1');
    await tier.getByRole('button', { name: 'Move to tier 2' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Move to tier 2' });
    await dialog.getByLabel(/Reason/).fill('Enhanced due diligence done');
    await snap(admin, '7-admin-tier-dialog');
    await dialog.getByRole('button', { name: 'Move to tier 2' }).click();
    await expect(tier).toContainText('Tier 2');
  });

  await test.step('the customer’s Limits card follows', async () => {
    await signInAs(page, customer);
    await page.goto('/settings');
    const card = page.getByTestId('limits-card');
    await expect(card).toContainText('Tier 2.');
    await expect(card.getByTestId('limit-24h')).toContainText('$50,000.00 left of $50,000.00');
  });
  await admin.context().close();
});
