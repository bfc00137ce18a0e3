/// <reference lib="dom" />
import { expect, type Page } from '@playwright/test';
import { test } from './support/fixtures';
import {
  adminToken,
  confirmPayoutAddresses,
  makeTradeReady,
  orderOf,
  registerCustomer,
  saveBuy,
  signInAs,
  signedInPage,
} from './support/api';
import { nextPhoneDigits } from './support/run-state';
import { DESKTOP, snapAtWidths } from './support/screens';

// A buy paid by ACH into the customer's own account number, matched with no operator: the customer
// chooses ACH and sees their own account and routing number; the demo bank sends the credit; the order
// is paid (the bank's trace number as its reference) and is due in the bitcoin payout batch, and
// nobody pressed "Mark payment received". Screenshots at 1280 and 390 px.
const stamp = Date.now();

const snap = (page: Page, name: string) => snapAtWidths(page, 'bank-inbound', name);

test('an ACH buy paid into the customer’s own account number is matched by the bank, no operator', async ({
  api,
  browser,
  page,
}) => {
  const buyer = await registerCustomer(api, `bank-inbound-${stamp}@example.com`, `+1${nextPhoneDigits()}`);
  await api.post('/api/user/profile', { firstName: 'Grace', lastName: 'Hopper' }, buyer.token);
  await makeTradeReady(api, buyer, { zelleEmail: 'grace.pays@example.com' });
  const order = await saveBuy(api, buyer, 120);
  await confirmPayoutAddresses(api, buyer);
  // The checkout asks for the customer's own account number before they pick ACH, as the web app does.
  const funding = await api.get<{ accountNumber: string; routingNumber: string }>(
    '/api/funding',
    buyer.token,
  );
  expect(funding.accountNumber).toMatch(/^\d{12}$/);
  await api.post(
    '/api/order/update',
    {
      _id: order._id,
      payment: { method: 'ach', amount: 120, create_time: new Date().toISOString(), receiving_in: {} },
      status: 'processing',
    },
    buyer.token,
  );

  await signInAs(page, buyer);
  await page.goto(`/orders?order=${order._id}`);
  const details = page.getByTestId('order-details');
  await expect(details.getByText(funding.accountNumber)).toBeVisible();
  await expect(details.getByText(funding.routingNumber)).toBeVisible();
  await snap(page, 'own-account-number');

  const sent = await api.post('/api/dev/bank/inbound', {
    accountNumber: funding.accountNumber,
    amount: 120,
    originatorName: 'GRACE HOPPER',
    rail: 'ach',
  });
  const traceNumber = sent.traceNumber as string;
  await expect
    .poll(async () => (await orderOf(api, buyer, order._id)).bankTxn, { timeout: 20_000 })
    .toBe(traceNumber);

  await page.reload();
  await page.goto(`/orders?order=${order._id}`);
  await expect(page.getByTestId('order-details').getByText('Bank transfer received')).toBeVisible();
  await snap(page, 'bank-credit-in-timeline');

  const admin = await signedInPage(browser, await adminToken(api), DESKTOP);
  await admin.goto('/admin/payouts');
  await expect(admin.getByTestId('due-buys').getByText(order._id.slice(0, 8)).first()).toBeVisible();
  await snap(admin, 'due-in-batch');
  await admin.goto(`/admin/orders/${order._id}`);
  await expect(admin.getByText(traceNumber).first()).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Mark payment received' })).toHaveCount(0);
});
