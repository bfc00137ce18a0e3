/// <reference lib="dom" />
import { test, expect, type Page } from '@playwright/test';
import {
  adminConsole,
  apiClient,
  listOrders,
  makeTradeReady,
  registerCustomer,
  signInAs,
  TESTNET_WALLET,
  type Api,
  type Customer,
} from './support/api';
import { gotoInteractive } from './support/interactive';
import { DESKTOP, MOBILE, snapAtWidths } from './support/screens';
import { nextPhoneDigits } from './support/run-state';

// The scam shield and places (docs/design.md, "Places and the scam shield"): a new customer answers the
// scam question before their first buy, one someone asked to buy sees the guidance and no order, a New
// York resident learns before verifying that OffZero is not available there, and a buy in its
// cooling-off is cancelled by the customer as a scam; staff record the refund of a paid one, which the
// customer then sees in the order's timeline.
const stamp = Date.now();

/** A trade-ready customer whose identity was approved just now: new to the scam shield. */
async function newCustomer(api: Api, label: string): Promise<Customer> {
  const customer = await registerCustomer(
    api,
    `shield-${label}-${stamp}@example.com`,
    `+1${nextPhoneDigits()}`,
  );
  await makeTradeReady(api, customer, { zelleEmail: `shield-${label}-${stamp}@example.com`, w9: false });
  await api.post('/api/dev/kyc/decide', {
    userId: customer.userId,
    status: 'GREEN',
    residenceState: 'CA',
    approvedAt: new Date().toISOString(),
  });
  return customer;
}

/** From the dashboard to the scam question: an amount, the address, Pay. */
async function payUntilTheQuestion(page: Page, usd: string): Promise<void> {
  await gotoInteractive(page, '/dashboard');
  const widget = page.getByTestId('trade-widget');
  await expect(widget.getByText(/refresh in \d+s/)).toBeVisible();
  await widget.getByLabel('You Pay').fill(usd);
  await expect(widget.getByLabel('You Receive')).not.toHaveValue('');
  await widget.getByRole('button', { name: 'Continue' }).click();
  const address = widget.getByLabel('Bitcoin address');
  if (await address.isVisible()) await address.fill(TESTNET_WALLET);
  await widget.getByRole('button', { name: `Pay $${usd}.00` }).click();
  await expect(widget.getByTestId('scam-question')).toBeVisible();
}

async function answer(page: Page, ownWallet: 'Yes' | 'No', someoneAsked: 'Yes' | 'No'): Promise<void> {
  const question = page.getByTestId('scam-question');
  await question
    .getByRole('group', { name: 'Is the wallet you are buying for your own?' })
    .getByLabel(ownWallet)
    .check();
  await question
    .getByRole('group', { name: 'Did anyone ask you to buy bitcoin or tell you where to send it?' })
    .getByLabel(someoneAsked)
    .check();
  await question.getByRole('button', { name: 'Continue' }).click();
}

for (const [label, size] of [
  ['390', MOBILE],
  ['1280', DESKTOP],
] as const) {
  test(`a new customer answers the scam question and buys within the cap at ${label} px`, async ({
    page,
    baseURL,
  }) => {
    const api = await apiClient(baseURL!);
    const customer = await newCustomer(api, `answers-${label}`);
    await page.setViewportSize(size);
    await signInAs(page, customer);
    await payUntilTheQuestion(page, '100');
    await snapAtWidths(page, 'scam-shield', 'question', { leaveAt: size });
    await answer(page, 'Yes', 'No');
    await expect(
      page.getByTestId('trade-widget').getByRole('button', { name: /Pay with PayPal/ }),
    ).toBeVisible();
    const [order] = await listOrders(api, customer);
    expect(order!.status).toBe('pending');
    expect(order!.scamCancel).toBe(true);
    await api.dispose();
  });

  test(`a customer someone asked to buy sees the guidance and no order at ${label} px`, async ({
    page,
    baseURL,
  }) => {
    const api = await apiClient(baseURL!);
    const customer = await newCustomer(api, `asked-${label}`);
    await page.setViewportSize(size);
    await signInAs(page, customer);
    await payUntilTheQuestion(page, '100');
    await answer(page, 'Yes', 'Yes');
    const guidance = page.getByTestId('scam-guidance');
    await expect(guidance.getByRole('heading', { name: 'Stop: this looks like a scam' })).toBeVisible();
    await expect(guidance.getByRole('link', { name: 'FBI IC3 (ic3.gov)' })).toBeVisible();
    await expect(guidance.getByRole('link', { name: 'FTC (reportfraud.ftc.gov)' })).toBeVisible();
    await snapAtWidths(page, 'scam-shield', 'guidance', { leaveAt: size });
    expect(await listOrders(api, customer)).toHaveLength(0);
    await api.dispose();
  });

  test(`a New York customer learns before KYC that OffZero is not available there at ${label} px`, async ({
    page,
    baseURL,
  }) => {
    const api = await apiClient(baseURL!);
    const customer = await registerCustomer(
      api,
      `shield-ny-${label}-${stamp}@example.com`,
      `+1${nextPhoneDigits()}`,
    );
    await page.setViewportSize(size);
    await signInAs(page, customer);
    await gotoInteractive(page, '/dashboard');
    await page.getByTestId('status-kyc').getByRole('button', { name: 'Verify KYC' }).click();
    const dialog = page.getByRole('dialog', { name: 'Verify your identity' });
    await dialog.getByLabel('State or territory you live in').selectOption('NY');
    await expect(dialog.getByTestId('place-closed')).toContainText(
      'OffZero is not available in New York yet.',
    );
    await snapAtWidths(page, 'scam-shield', 'new-york-kyc', { leaveAt: size });
    await api.dispose();
  });

  test(`a cooling-off buy is cancelled by the customer as a scam at ${label} px`, async ({
    page,
    baseURL,
  }) => {
    const api = await apiClient(baseURL!);
    const customer = await newCustomer(api, `cancels-${label}`);
    await page.setViewportSize(size);
    await signInAs(page, customer);
    await payUntilTheQuestion(page, '100');
    await answer(page, 'Yes', 'No');
    await expect(
      page.getByTestId('trade-widget').getByRole('button', { name: /Pay with PayPal/ }),
    ).toBeVisible();
    const [order] = await listOrders(api, customer);

    await page.goto('/orders');
    await page.locator(`[data-order-id="${order!._id}"]:visible`).click();
    const drawer = page.getByRole('dialog', { name: `Order #${order!._id.slice(0, 8)}` });
    const cancel = drawer.getByRole('button', { name: 'Cancel — I think this is a scam' });
    await expect(cancel).toBeVisible();
    await snapAtWidths(page, 'scam-shield', 'cooling-off-order', { leaveAt: size });
    await cancel.click();
    await expect(drawer).toContainText('Cancelled');
    const [after] = await listOrders(api, customer);
    expect(after!.status).toBe('cancelled');
    await api.dispose();
  });
}

test('staff record the dollar refund of a paid buy cancelled as a scam; the customer sees it', async ({
  page,
  browser,
  baseURL,
}) => {
  const api = await apiClient(baseURL!);
  const customer = await newCustomer(api, 'refunded');
  await signInAs(page, customer);
  await payUntilTheQuestion(page, '100');
  await answer(page, 'Yes', 'No');
  await expect(
    page.getByTestId('trade-widget').getByRole('button', { name: /Pay with PayPal/ }),
  ).toBeVisible();
  const [order] = await listOrders(api, customer);
  const orderId = order!._id;
  // Paid by Zelle, then cancelled as a scam while it cools off: a refund is claimed for staff.
  await api.post(
    '/api/order/update',
    {
      _id: orderId,
      payment: { method: 'zelle', amount: 100, create_time: new Date().toISOString(), receiving_in: {} },
      status: 'processing',
    },
    customer.token,
  );
  await api.post(`/api/order/${orderId}/scam-cancel`, {}, customer.token);

  const admin = await adminConsole(browser, api, DESKTOP);
  await admin.goto(`/admin/orders/${orderId}`);
  const actions = admin.getByTestId('order-actions');
  await actions.getByRole('button', { name: 'Record USD refund' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Record the dollar refund' });
  await expect(dialog).toContainText('back to the customer by Zelle');
  await dialog.getByLabel('Refund reference').fill('ZELLE-RF-7781');
  await snapAtWidths(admin, 'scam-shield', 'refund-dialog');
  await dialog.getByRole('button', { name: 'Record refund' }).click();
  await expect(dialog).toBeHidden();
  await expect(actions).toContainText('This order is cancelled. Nothing is left to do.');
  await admin.context().close();

  await page.goto('/orders');
  await page.locator(`[data-order-id="${orderId}"]:visible`).click();
  const drawer = page.getByRole('dialog', { name: `Order #${orderId.slice(0, 8)}` });
  await expect(drawer.getByTestId('order-timeline')).toContainText('Dollars refunded');
  await expect(drawer.getByTestId('order-timeline')).toContainText('ZELLE-RF-7781');
  await snapAtWidths(page, 'scam-shield', 'refunded-order');
  await api.dispose();
});
