/// <reference lib="dom" />
import { test, expect, type Locator, type Page } from '@playwright/test';
import type { Order } from '@offzero/shared/api/orders';
import { apiClient, makeTradeReady, registerCustomer, type Customer } from './support/api';
import { nextPhoneDigits } from './support/run-state';
import { gotoInteractive } from './support/interactive';
import { snapAsIs } from './support/screens';

// Locked quotes (docs/design.md) in the browser: the confirmation shows the server's locked figures,
// which do not move when the live price does, with the real time the lock has left; when it runs out
// the customer is offered a new quote, never a new price put in silently; and the order saved by Pay
// carries exactly the figures that were on screen. The browser's clock is driven by the test, so a
// minute of price refreshes and the end of the lock take no real time.
const stamp = Date.now();

async function tradeReadyCustomer(baseURL: string, label: string): Promise<Customer> {
  const api = await apiClient(baseURL);
  const customer = await registerCustomer(
    api,
    `locked-${label}-${stamp}@example.com`,
    `+1${nextPhoneDigits()}`,
  );
  await makeTradeReady(api, customer, { zelleEmail: 'locked.quotes@example.com' });
  await api.dispose();
  return customer;
}

async function newestOrder(page: Page, customer: Customer): Promise<Order> {
  const response = await page.request.get(`/api/order/list?userId=${customer.userId}`, {
    headers: { Authorization: `Bearer ${customer.token}` },
  });
  const [order] = ((await response.json()) as { result: { orders: Order[] } }).result.orders;
  if (!order) throw new Error('The customer has no order.');
  return order;
}

/** The confirmation's figures, label by label, as the customer reads them. */
async function figures(widget: Locator): Promise<Record<string, string>> {
  const rows = widget.locator('dl > div');
  const read: Record<string, string> = {};
  for (let i = 0; i < (await rows.count()); i++) {
    const label = (await rows.nth(i).locator('dt').innerText()).split('\n')[0]!.trim();
    read[label] = (await rows.nth(i).locator('dd').innerText()).trim();
  }
  return read;
}

const snap = (page: Page, name: string) => snapAsIs(page, 'locked-quote', name);

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`a buy at ${viewport.width} px: locked figures that do not move, the expiry path, and Pay saves them`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const customer = await tradeReadyCustomer(baseURL!, `buy-${viewport.width}`);
    await page.clock.install();
    await page.goto('/');
    await page.evaluate((token) => localStorage.setItem('authToken', token), customer.token);
    // No waitForInteractive under the installed clock (its performance keeps no marks): the trade
    // widget is not in the prerendered frame, so finding it waits for the app.
    await page.goto('/dashboard');
    const widget = page.getByTestId('trade-widget');
    await widget.getByRole('tab', { name: 'Buy' }).click();
    await widget.getByLabel('You Pay').fill('250');
    await expect(widget.getByLabel('You Receive')).not.toHaveValue('');
    await widget.getByRole('button', { name: 'Continue' }).click();

    const locked =
      await test.step('the confirmation shows the locked quote and its all-in price', async () => {
        await expect(widget.getByRole('button', { name: 'Pay $250.00' })).toBeVisible();
        await expect(widget.getByText(/^Price locked for 1[45]:\d\d$/)).toBeVisible();
        const shown = await figures(widget);
        for (const label of ['You Receive', 'Rate', 'Platform Fee', 'Network Fee', 'Spread', 'You Pay']) {
          expect(shown[label], label).toBeTruthy();
        }
        expect(shown.Rate).toMatch(/Mid-market \$[\d,]+\.\d\d/);
        await expect(widget.getByText('Bitcoin is sent after the payment clears.')).toBeVisible();
        await snap(page, `confirmation-${viewport.width}`);
        if (viewport.width === 1280) {
          // The widget beside the recent orders at a laptop's width too.
          await page.setViewportSize({ width: 1024, height: 768 });
          await snap(page, 'confirmation-1024');
          await page.setViewportSize(viewport);
        }
        return shown;
      });

    await test.step('a minute of new prices later, nothing on the confirmation moved', async () => {
      // The live price jumps by 5 %: the widget's next price refresh reads it.
      await page.route('**/api/price', async (route) => {
        const live = (await (await route.fetch()).json()) as { sellPrice: number; buyPrice: number };
        await route.fulfill({
          json: {
            ...live,
            sellPrice: Math.round(live.sellPrice * 105) / 100,
            buyPrice: Math.round(live.buyPrice * 105) / 100,
          },
        });
      });
      const refreshed = page.waitForResponse('**/api/price');
      await page.clock.runFor(61_000);
      await refreshed;
      await expect(widget.getByText(/^Price locked for 1[34]:\d\d$/)).toBeVisible();
      expect(await figures(widget)).toEqual(locked);
      await page.unroute('**/api/price');
    });

    await test.step('when the lock runs out: no Pay, a clear way to a new quote', async () => {
      await page.clock.runFor(15 * 60_000);
      const expired = widget.getByRole('alert');
      await expect(expired).toContainText('This quote has expired. Get a new quote to continue.');
      await expect(widget.getByRole('button', { name: /^Pay/ })).toHaveCount(0);
      await snap(page, `expired-${viewport.width}`);
      // The browser's clock ran ahead of the server's: bring it back before asking for the new quote.
      await page.clock.setSystemTime(new Date());
      const requested = page.waitForResponse('**/api/quotes');
      await expired.getByRole('button', { name: 'Get a new quote' }).click();
      expect((await requested).status()).toBe(200);
      await expect(widget.getByRole('button', { name: 'Pay $250.00' })).toBeVisible();
      await expect(widget.getByText(/^Price locked for 1[45]:\d\d$/)).toBeVisible();
    });

    await test.step('Pay saves the order with exactly the figures on screen', async () => {
      const shown = await figures(widget);
      const saved = page.waitForResponse('**/api/order/save');
      await widget.getByRole('button', { name: 'Pay $250.00' }).click();
      const request = (await saved).request().postDataJSON() as { quoteId?: string };
      expect(request.quoteId).toBeTruthy();
      await expect(widget.getByText('Total: $250.00')).toBeVisible();
      const order = await newestOrder(page, customer);
      expect(shown['You Receive']).toBe(`${order.amount.toFixed(6)} BTC`);
      expect(shown.Rate).toContain(
        `1 BTC = $${order.price.toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
      );
      expect(shown['Platform Fee']).toBe(`$${order.platformFee.toFixed(2)}`);
      expect(shown['Network Fee']).toBe(`$${order.networkFee.toFixed(2)}`);
      // Each payment method's arrival timing, at checkout, as the operator set it.
      await expect(widget.getByText('After the transfer settles, 1–3 business days.')).toBeVisible();
      await snap(page, `checkout-${viewport.width}`);
    });
  });
}

test('a sell: the locked quote with the method’s bank charges and when the dollars arrive', async ({
  page,
  baseURL,
}) => {
  const customer = await tradeReadyCustomer(baseURL!, 'sell');
  await gotoInteractive(page, '/');
  await page.evaluate((token) => localStorage.setItem('authToken', token), customer.token);
  await gotoInteractive(page, '/dashboard');
  const widget = page.getByTestId('trade-widget');
  await widget.getByRole('tab', { name: 'Sell' }).click();
  await widget.getByLabel('You Pay').fill('0.01');
  await expect(widget.getByLabel('You Receive')).not.toHaveValue('');
  await widget.getByRole('button', { name: 'Continue' }).click();
  await expect(widget.getByText('After the transfer settles, 1–3 business days.')).toBeVisible();
  await widget.getByRole('button', { name: /ACH/ }).click();
  await expect(widget.getByRole('heading', { name: 'Confirm your sale' })).toBeVisible();
  const shown = await figures(widget);
  expect(shown['Bank Charges']).toBe('$1.00');
  expect(shown.Spread).toMatch(/^\$\d+\.\d\d$/);
  await expect(widget.getByText(/^Price locked for 1[45]:\d\d$/)).toBeVisible();
  await expect(widget.getByText('Paid by ACH: After the transfer settles, 1–3 business days.')).toBeVisible();
  for (const width of [390, 1024, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await snap(page, `sell-confirmation-${width}`);
  }
  const saved = page.waitForResponse('**/api/order/save');
  await widget.getByRole('button', { name: 'Send 0.010000 BTC' }).click();
  expect((await saved).status()).toBe(200);
  const order = await newestOrder(page, customer);
  expect(`$${order.value.toLocaleString('en-US', { minimumFractionDigits: 2 })}`).toBe(shown['You Receive']);
});
