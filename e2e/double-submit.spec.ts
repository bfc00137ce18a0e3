import { test, expect, type Locator, type Page } from '@playwright/test';
import type { Order } from '@offzero/shared/api/orders';
import { apiClient, makeTradeReady, registerCustomer, type Customer } from './support/api';
import { nextPhoneDigits } from './support/run-state';
import { gotoInteractive } from './support/interactive';

// docs/design.md: a double click on Pay, on a payment method or on "Send … BTC" makes one order (one
// key per customer action, the button busy while its call runs, and the server's own 10-second rule).
const stamp = Date.now();

test.use({ viewport: { width: 1280, height: 800 } });

async function tradeReadyCustomer(baseURL: string, label: string): Promise<Customer> {
  const api = await apiClient(baseURL);
  const customer = await registerCustomer(
    api,
    `double-${label}-${stamp}@example.com`,
    `+1${nextPhoneDigits()}`,
  );
  await makeTradeReady(api, customer, { zelleEmail: 'double.pays@example.com' });
  await api.dispose();
  return customer;
}

async function signIn(page: Page, customer: Customer) {
  await gotoInteractive(page, '/');
  await page.evaluate((token) => localStorage.setItem('authToken', token), customer.token);
  await gotoInteractive(page, '/dashboard');
}

async function listOrders(page: Page, customer: Customer): Promise<Order[]> {
  const response = await page.request.get(`/api/order/list?userId=${customer.userId}`, {
    headers: { Authorization: `Bearer ${customer.token}` },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { result: { orders: Order[] } }).result.orders;
}

/** Counts the calls the page makes to one API path (to see that a double click did click twice). */
function countCalls(page: Page, path: string) {
  const seen = { count: 0, keys: new Set<string>() };
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === path) {
      seen.count += 1;
      const key = request.headers()['idempotency-key'];
      if (key) seen.keys.add(key);
    }
  });
  return seen;
}

async function quote(widget: Locator, side: 'Buy' | 'Sell', amount: string) {
  await widget.getByRole('tab', { name: side }).click();
  await expect(widget.getByText(/refresh in \d+s/)).toBeVisible();
  await widget.getByLabel('You Pay').fill(amount);
  await expect(widget.getByLabel('You Receive')).not.toHaveValue('');
  await widget.getByRole('button', { name: 'Continue' }).click();
}

test('a double click on Pay and then on Zelle makes one buy, paid once', async ({ page, baseURL }) => {
  const customer = await tradeReadyCustomer(baseURL!, 'buy');
  await signIn(page, customer);
  const widget = page.getByTestId('trade-widget');
  const saves = countCalls(page, '/api/order/save');

  await quote(widget, 'Buy', '250');
  await widget.getByRole('button', { name: 'Pay $250.00' }).dblclick();
  await expect(widget.getByText('Total: $250.00')).toBeVisible();
  const afterPay = await listOrders(page, customer);
  expect(afterPay).toHaveLength(1);
  expect(afterPay[0]).toMatchObject({ type: 'buy', status: 'pending', value: 250 });
  // Whatever reached the server carried one key.
  expect(saves.keys.size).toBeLessThanOrEqual(1);

  await widget.getByRole('button', { name: /^Zelle/ }).dblclick();
  await expect(widget.getByText('Thank you for the purchase!')).toBeVisible();
  const afterPayment = await listOrders(page, customer);
  expect(afterPayment).toHaveLength(1);
  expect(afterPayment[0]).toMatchObject({ _id: afterPay[0]!._id, status: 'processing' });
  expect(afterPayment[0]!.payment?.method).toBe('zelle');
});

test('a double click on "Send … BTC" makes one sell with one deposit address', async ({ page, baseURL }) => {
  const customer = await tradeReadyCustomer(baseURL!, 'sell');
  await signIn(page, customer);
  const widget = page.getByTestId('trade-widget');
  const saves = countCalls(page, '/api/order/save');

  await quote(widget, 'Sell', '0.005');
  await widget.getByRole('button', { name: /^Zelle/ }).click();
  await widget.getByRole('button', { name: 'Send 0.005000 BTC' }).dblclick();
  await expect(widget.getByRole('img', { name: 'Deposit QR code' })).toBeVisible();

  const orders = await listOrders(page, customer);
  expect(orders).toHaveLength(1);
  expect(orders[0]).toMatchObject({ type: 'sell', status: 'pending' });
  const deposit = orders[0]!.walletAddress as { address: string };
  await expect(widget.getByTestId('deposit-address')).toHaveText(
    `${deposit.address.slice(0, 8)}...${deposit.address.slice(-8)}`,
  );
  expect(saves.keys.size).toBeLessThanOrEqual(1);
});
