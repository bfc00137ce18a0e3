/// <reference lib="dom" />
import { test, expect, type Locator, type Page } from '@playwright/test';
import {
  apiClient,
  makeTradeReady,
  payDeposit,
  registerCustomer,
  saveBuy,
  saveSell,
  signedInPage,
  type Customer,
} from './support/api';
import { gotoInteractive } from './support/interactive';
import { nextPhoneDigits } from './support/run-state';
import { DESKTOP, MOBILE, TABLET, snapAsIs } from './support/screens';

// Screens that must show everything they hold at the widths customers use: My Orders with every column
// of the specification beside the sidebar, the W-9's taxpayer ID type in the trade widget (its narrowest
// home), and the dashboard on a 320 px phone.
const stamp = Date.now();

/** A customer who may trade; with `orders`, a pending buy (its next step is a button) and a paid sell. */
async function trader(baseURL: string, label: string, { orders }: { orders: boolean }): Promise<Customer> {
  const api = await apiClient(baseURL);
  const customer = await registerCustomer(api, `fit-${label}-${stamp}@example.com`, `+1${nextPhoneDigits()}`);
  // Without orders, without a W-9 either: the first sale asks for it.
  await makeTradeReady(api, customer, { zelleEmail: 'ada.pays@example.com', w9: orders });
  if (orders) {
    await saveBuy(api, customer, 80);
    await payDeposit(api, customer, await saveSell(api, customer, 0.005));
  }
  await api.dispose();
  return customer;
}

/** Whether an element's content is wider than its box (it scrolls or is cut off). */
const overflowsSideways = (locator: Locator) =>
  locator.evaluate((element) => element.scrollWidth > element.clientWidth);

test('My Orders shows the Pair and Price columns and each next step whole at 1024 and 1280 px', async ({
  browser,
  baseURL,
}) => {
  const customer = await trader(baseURL!, 'orders', { orders: true });
  for (const [label, size] of [
    ['1024', TABLET],
    ['1280', DESKTOP],
  ] as const) {
    const page = await signedInPage(browser, customer.token, size);
    await gotoInteractive(page, '/orders');
    const table = page.getByRole('table', { name: 'Your orders' });
    await expect(table.getByRole('row')).toHaveCount(3);
    for (const name of ['Pair', 'Amount', 'Price', 'Value', 'Date', 'Status']) {
      await expect(table.getByRole('columnheader', { name, exact: true })).toBeVisible();
    }
    await expect(table.getByRole('cell', { name: 'BTC-USD', exact: true })).toHaveCount(2);
    expect(await overflowsSideways(table.locator('xpath=..')), `the table scrolls at ${label} px`).toBe(
      false,
    );
    const complete = table.getByRole('button', { name: 'Complete Order' });
    await expect(complete).toBeInViewport({ ratio: 1 });
    await snapAsIs(page, 'fit', `orders-${label}`);
    await page.context().close();
  }
});

/** Each choice of a select shows whole: its text is no wider than the room the select leaves it. */
async function expectEveryChoiceWhole(select: Locator, what: string) {
  for (const option of await select.locator('option').allTextContents()) {
    await select.selectOption({ label: option });
    const { text, room } = await select.evaluate((element: HTMLSelectElement) => {
      const style = getComputedStyle(element);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = style.font;
      const chosen = element.options[element.selectedIndex]!.text;
      return {
        text: context.measureText(chosen).width,
        room: element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
      };
    });
    expect(text, `${what}: "${option}" is cut off`).toBeLessThanOrEqual(room);
  }
}

for (const [label, size] of [
  ['390', MOBILE],
  ['1280', DESKTOP],
] as const) {
  test(`the W-9 step of a first sale shows each taxpayer ID type whole at ${label} px`, async ({
    browser,
    baseURL,
  }) => {
    const customer = await trader(baseURL!, `w9-${label}`, { orders: false });
    const page = await signedInPage(browser, customer.token, size);
    await gotoInteractive(page, '/dashboard');
    const widget = page.getByTestId('trade-widget');
    await widget.getByRole('tab', { name: 'Sell' }).click();
    await expect(widget.getByText(/refresh in \d+s/)).toBeVisible();
    await widget.getByLabel('You Pay').fill('0.005');
    await widget.getByRole('button', { name: 'Continue' }).click();
    const select = widget.getByLabel('Taxpayer ID type');
    await expect(select).toBeVisible();
    await expectEveryChoiceWhole(select, `the trade widget at ${label} px`);
    await select.selectOption('ITIN');
    await snapAsIs(page, 'fit', `w9-step-${label}`);
    await page.context().close();
  });
}

test('the dashboard with orders fits a 320 px screen', async ({ browser, baseURL }) => {
  const customer = await trader(baseURL!, 'dashboard-320', { orders: true });
  const page: Page = await signedInPage(browser, customer.token, { width: 320, height: 700 });
  await gotoInteractive(page, '/dashboard');
  await expect(page.getByTestId('recent-order')).toHaveCount(2);
  await expect(page.getByTestId('trade-widget')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await snapAsIs(page, 'fit', 'dashboard-320');
  await page.context().close();
});
