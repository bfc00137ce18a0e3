/// <reference lib="dom" />
import { test, expect, type ConsoleMessage, type Locator, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import type { Order } from '@offzero/shared/api/orders';
import {
  apiClient,
  confirmDeposit,
  makeTradeReady,
  orderOf,
  registerCustomer,
  saveBuy,
  saveSell,
  type Customer,
} from './support/api';
import { nextPhoneDigits } from './support/run-state';
import { gotoInteractive } from './support/interactive';
import { snapAtWidths } from './support/screens';

// The customer's journey as a careful first customer walks it, at phone and desktop width: a pending
// order picked up again on the dashboard (the same deposit address, QR code and remaining time after a
// reload), the order timeline in My Orders, text that passes AA contrast on the main pages, and a
// browser console with no warning or error from the first page to the last.
const stamp = Date.now();
const VIEWPORTS = [
  { label: '390', size: { width: 390, height: 844 } },
  { label: '1280', size: { width: 1280, height: 800 } },
] as const;
const SCREEN_SIZES = [
  ['390', { width: 390, height: 844 }],
  ['1024', { width: 1024, height: 768 }],
  ['1280', { width: 1280, height: 800 }],
] as const;

/** Collects every console warning and error and every uncaught page error of a page. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'warning' || message.type() === 'error') {
      problems.push(`${message.type()}: ${message.text()} (${page.url()})`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message} (${page.url()})`));
  return problems;
}

/** Full-page screenshots of the current screen at 390, 1024 and 1280 px, for a person to look at. */
const snap = (page: Page, name: string, leaveAt: { width: number; height: number }) =>
  snapAtWidths(page, 'journey', name, { sizes: SCREEN_SIZES, leaveAt });

async function tradeReadyCustomer(baseURL: string, label: string): Promise<Customer> {
  const api = await apiClient(baseURL);
  const customer = await registerCustomer(
    api,
    `journey-${label}-${stamp}@example.com`,
    `+1${nextPhoneDigits()}`,
  );
  await makeTradeReady(api, customer, { zelleEmail: `journey-${label}-${stamp}@example.com` });
  await api.dispose();
  return customer;
}

async function signIn(page: Page, customer: Customer) {
  await gotoInteractive(page, '/');
  await page.evaluate((token) => localStorage.setItem('authToken', token), customer.token);
}

async function pendingOrders(baseURL: string, customer: Customer): Promise<Order[]> {
  const api = await apiClient(baseURL);
  const answer = await api.get<{ result: { orders: Order[] } }>(
    `/api/order/list?userId=${customer.userId}`,
    customer.token,
  );
  await api.dispose();
  return answer.result.orders.filter((order) => order.status === 'pending');
}

/** Fails on any text below AA contrast (axe-core's color-contrast rule) on the page as it is now. */
async function expectAaContrast(page: Page, what: string) {
  // Logotypes keep their brand colours: WCAG 1.4.3 exempts them.
  const results = await new AxeBuilder({ page })
    .withRules(['color-contrast'])
    .exclude('[data-logotype]')
    .analyze();
  const found = results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
  );
  expect(found, `${what}: text below AA contrast`).toEqual([]);
}

async function sellUpToDeposit(widget: Locator, amount: string) {
  await widget.getByRole('tab', { name: 'Sell' }).click();
  await expect(widget.getByText(/refresh in \d+s/)).toBeVisible();
  await widget.getByLabel('You Pay').fill(amount);
  await expect(widget.getByLabel('You Receive')).not.toHaveValue('');
  await widget.getByRole('button', { name: 'Continue' }).click();
  await widget.getByRole('button', { name: /^Zelle/ }).click();
  await widget.getByRole('button', { name: /^Send [\d.]+ BTC$/ }).click();
  await expect(widget.getByRole('img', { name: 'Deposit QR code' })).toBeVisible();
}

const countdownSeconds = async (widget: Locator) => {
  const text = (await widget.getByTestId('deposit-countdown').textContent()) ?? '';
  const [, minutes, seconds] = /(\d+):(\d\d)/.exec(text) ?? [];
  return Number(minutes) * 60 + Number(seconds);
};

for (const { label, size } of VIEWPORTS) {
  test.describe(`at ${label} px`, () => {
    test.use({ viewport: size });

    test('a pending sell survives a reload: the same deposit address, QR code and remaining time, no second order', async ({
      page,
      baseURL,
    }) => {
      const problems = watchConsole(page);
      const customer = await tradeReadyCustomer(baseURL!, `resume-sell-${label}`);
      await signIn(page, customer);
      await gotoInteractive(page, '/dashboard');
      const widget = page.getByTestId('trade-widget');
      await sellUpToDeposit(widget, '0.004');

      const qr = widget.getByRole('img', { name: 'Deposit QR code' });
      const qrTitle = await qr.locator('title').textContent();
      const address = await widget.getByTestId('deposit-address').getAttribute('title');
      const before = await countdownSeconds(widget);
      expect(address).toMatch(/^tb1q/);

      await page.reload();
      await expect(page.getByTestId('resumed-order-note')).toContainText(
        'Picking up your pending sell order',
      );
      await expect(widget.getByRole('tab', { name: 'Sell' })).toHaveAttribute('aria-selected', 'true');
      await expect(widget.getByRole('img', { name: 'Deposit QR code' })).toBeVisible();
      expect(await widget.getByRole('img', { name: 'Deposit QR code' }).locator('title').textContent()).toBe(
        qrTitle,
      );
      await expect(widget.getByTestId('deposit-address')).toHaveAttribute('title', address!);
      // The window kept running on the server: never more time than before the reload.
      const after = await countdownSeconds(widget);
      expect(after).toBeLessThanOrEqual(before);
      expect(after).toBeGreaterThan(before - 60);
      expect(await pendingOrders(baseURL!, customer)).toHaveLength(1);
      await snap(page, 'deposit', size);

      // The deposit arrives: the page resumed on the server's order moves on to the success step.
      const orders = await pendingOrders(baseURL!, customer);
      const dev = await apiClient(baseURL!);
      await dev.post('/api/dev/chain/send', { address: address!, amount: orders[0]!.amount });
      await dev.dispose();
      await expect(widget.getByText('Thank you for the purchase!')).toBeVisible({ timeout: 20_000 });
      await snap(page, 'sell-success', size);
      expect(problems).toEqual([]);
    });

    test('a pending buy is picked up at checkout on the Buy tab instead of starting a second order', async ({
      page,
      baseURL,
    }) => {
      const problems = watchConsole(page);
      const customer = await tradeReadyCustomer(baseURL!, `resume-buy-${label}`);
      const api = await apiClient(baseURL!);
      const order = await saveBuy(api, customer, 80);
      await api.dispose();
      await signIn(page, customer);
      await gotoInteractive(page, '/dashboard');
      const widget = page.getByTestId('trade-widget');
      await expect(page.getByTestId('resumed-order-note')).toContainText(`#${order._id.slice(0, 8)}`);
      await expect(widget.getByRole('tab', { name: 'Buy' })).toHaveAttribute('aria-selected', 'true');
      await expect(widget.getByText('Total: $80.00')).toBeVisible();
      await snap(page, 'checkout', size);
      await widget.getByRole('button', { name: /^Zelle/ }).click();
      await expect(widget.getByText('Thank you for the purchase!')).toBeVisible();
      await snap(page, 'buy-success', size);
      expect(await pendingOrders(baseURL!, customer)).toHaveLength(0);
      const api2 = await apiClient(baseURL!);
      expect((await orderOf(api2, customer, order._id)).status).toBe('processing');
      await api2.dispose();
      expect(problems).toEqual([]);
    });

    test('My Orders: the drawer tells the order’s story, with a re-pricing before and after and live confirmations', async ({
      page,
      baseURL,
    }) => {
      const problems = watchConsole(page);
      const customer = await tradeReadyCustomer(baseURL!, `timeline-${label}`);
      const api = await apiClient(baseURL!);
      const order = await saveSell(api, customer, 0.006);
      const deposit = order.walletAddress as { address: string; amount: number };
      // Less than the order asked for: the order is re-priced on what arrived.
      await api.post('/api/dev/chain/send', { address: deposit.address, amount: 0.005 });
      await expect
        .poll(async () => (await orderOf(api, customer, order._id)).status, { timeout: 20_000 })
        .toBe('processing');

      await signIn(page, customer);
      await page.goto('/orders');
      // A table row on wide screens, a card on phones.
      await page.locator(`[data-order-id="${order._id}"]:visible`).click();
      const drawer = page.getByRole('dialog', { name: `Order #${order._id.slice(0, 8)}` });
      const timeline = drawer.getByTestId('order-timeline');
      await expect(timeline.getByText('Order placed')).toBeVisible();
      await expect(timeline.getByText('Bitcoin received')).toBeVisible();
      await expect(timeline.getByText('Re-priced')).toBeVisible();
      await expect(
        timeline.getByText(
          'You sent less bitcoin than the order asked for, so it was priced on what arrived.',
        ),
      ).toBeVisible();
      await expect(timeline.getByRole('columnheader', { name: 'Before' })).toBeVisible();
      await expect(timeline.getByRole('cell', { name: '0.00600000' })).toBeVisible();
      await expect(timeline.getByRole('cell', { name: '0.00500000' })).toBeVisible();
      await expect(timeline.getByText('Under review')).toBeVisible();
      await expect(drawer.getByTestId('order-confirmations-progress')).toContainText('0 of 1');
      await expect(drawer).not.toContainText('underpaid');

      // A block is mined while the drawer is open: the count moves without a reload.
      await confirmDeposit(api, customer, order);
      await api.dispose();
      await expect(drawer.getByTestId('order-confirmations-progress')).toContainText('1 of 1', {
        timeout: 20_000,
      });
      await expectAaContrast(page, 'My Orders with the drawer');
      await snap(page, 'orders-drawer', size);
      expect(problems).toEqual([]);
    });

    test('text passes AA contrast on the main pages, and the console stays empty', async ({
      page,
      baseURL,
    }) => {
      const problems = watchConsole(page);
      for (const path of ['/', '/about-us', '/terms-of-use', '/privacy-policy', '/login', '/register']) {
        await page.goto(path);
        await page.evaluate(() => document.fonts.ready);
        await expectAaContrast(page, path);
      }
      const customer = await tradeReadyCustomer(baseURL!, `contrast-${label}`);
      await signIn(page, customer);
      for (const path of ['/dashboard', '/orders', '/settings']) {
        await page.goto(path);
        await expect(page.getByRole('main')).toBeVisible();
        await page.waitForLoadState('networkidle');
        await expectAaContrast(page, path);
      }
      await gotoInteractive(page, '/dashboard');
      await expect(page.getByTestId('trade-widget').getByText(/refresh in \d+s/)).toBeVisible();
      await snap(page, 'dashboard', size);
      // Moving between the signed-in pages cancels reads in flight: that is no error. (The side
      // navigation is folded away at phone width.)
      for (const name of label === '1280' ? ['My Orders', 'Settings', 'Dashboard'] : []) {
        await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name }).first().click();
        await page.waitForLoadState('networkidle');
      }
      expect(problems).toEqual([]);
    });
  });
}
