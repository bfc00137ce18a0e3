/// <reference lib="dom" />
import { expect, type Page } from '@playwright/test';
import { test } from './support/fixtures';
import {
  adminToken,
  bankAccount,
  confirmDeposit,
  listOrders,
  makeTradeReady,
  orderOf,
  registerCustomer,
  signInAs,
  signedInPage,
} from './support/api';
import { gotoInteractive } from './support/interactive';
import { nextPhoneDigits } from './support/run-state';
import { DESKTOP, snapAtWidths } from './support/screens';

// A sell paid out by instant bank transfer with no operator: the customer's bank (routing number ending
// in an even digit) is on RTP and FedNow in the demo bank, so the sell steps offer "Instant bank
// transfer" with its charge and "arrives in seconds"; the demo wallet pays the deposit, the server sends
// the dollars through the bank's API, the demo bank settles it and says so by its webhook, and the order
// completes. The customer's timeline shows each step with its time; staff see the bank's status. A bank
// only on ACH is refused. Screenshots at 1280 and 390 px.
const stamp = Date.now();

/** Checksum-valid, even last digit: the demo bank says it reaches RTP and FedNow. */
const INSTANT_BANK = { ...bankAccount, routing_number: '022000020', account_number: '4000123456' };

const snap = (page: Page, name: string) => snapAtWidths(page, 'instant-payout', name);

test('a sell paid by instant bank transfer completes by itself, each step with its time', async ({
  api,
  browser,
  page,
}) => {
  const seller = await registerCustomer(api, `instant-${stamp}@example.com`, `+1${nextPhoneDigits()}`);
  await makeTradeReady(api, seller, { zelleEmail: 'instant.seller@example.com', bank: INSTANT_BANK });
  await signInAs(page, seller);
  await gotoInteractive(page, '/dashboard');
  const widget = page.getByTestId('trade-widget');

  await widget.getByRole('tab', { name: 'Sell' }).click();
  await expect(widget.getByText(/refresh in \d+s/)).toBeVisible();
  await widget.getByLabel('You Pay').fill('0.002');
  await expect(widget.getByLabel('You Receive')).not.toHaveValue('');
  await widget.getByRole('button', { name: 'Continue' }).click();
  const instantTile = widget.getByRole('button', { name: /^Instant bank transfer/ });
  await expect(instantTile).toBeVisible();
  await expect(instantTile).toContainText(/arrives in seconds/i);
  await snap(page, 'method');
  await instantTile.click();
  await expect(widget.getByText('Bank Charges').first()).toBeVisible();
  await snap(page, 'confirmation');
  await widget.getByRole('button', { name: /^Send [\d.]+ BTC$/ }).click();

  await widget.getByRole('button', { name: 'Pay from the demo wallet' }).click();
  await expect(page.getByText(/BTC received successfully/)).toBeVisible({ timeout: 20_000 });
  const [order] = await listOrders(api, seller);
  expect(order?.type).toBe('sell');
  expect(order?.payment?.method).toBe('instant');
  await confirmDeposit(api, seller, order!);
  // No operator: the server sends the payout, the demo bank settles it and tells us by its webhook.
  await expect
    .poll(async () => (await orderOf(api, seller, order!._id)).status, { timeout: 30_000 })
    .toBe('completed');

  await page.goto(`/orders?order=${order!._id}`);
  const timeline = page.getByTestId('order-details').getByTestId('order-timeline');
  await expect(timeline.getByText('Bitcoin received')).toBeVisible();
  await expect(timeline.getByText('Dollars sent')).toBeVisible();
  await expect(timeline.getByText('Dollars arrived')).toBeVisible();
  await expect(timeline.locator('time')).not.toHaveCount(0);
  for (const time of await timeline.locator('time').all()) {
    expect(Date.parse((await time.getAttribute('datetime')) ?? '')).not.toBeNaN();
  }
  await snap(page, 'completed-timeline');

  const admin = await signedInPage(browser, await adminToken(api), DESKTOP);
  await admin.goto(`/admin/orders/${order!._id}`);
  const payouts = admin.getByTestId('order-payouts');
  await expect(payouts.getByText('Bank API')).toBeVisible();
  await expect(payouts.getByText('settled').first()).toBeVisible();
  await expect(payouts.getByText(/^real_time_payments_transfer_demo/)).toBeVisible();
  await snap(admin, 'back-office-bank-status');
  await admin.context().close();
});

test('a bank only on ACH is refused an instant sell, with what to choose instead', async ({ api }) => {
  const seller = await registerCustomer(api, `ach-only-${stamp}@example.com`, `+1${nextPhoneDigits()}`);
  await makeTradeReady(api, seller, { zelleEmail: 'ach.only@example.com' });
  expect(bankAccount.routing_number.endsWith('1')).toBe(true);
  const refused = await api.context.post('/api/quotes', {
    data: { type: 'sell', amount: 0.002, method: 'instant' },
    headers: { 'X-CSRF-Token': api.csrf, Authorization: `Bearer ${seller.token}` },
  });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { message: string }).message).toBe(
    'Your bank cannot receive instant payments; choose ACH.',
  );
});
