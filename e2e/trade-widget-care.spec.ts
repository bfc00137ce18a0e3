/// <reference lib="dom" />
import { test, expect, type Page } from '@playwright/test';
import { UNCLEAR_AMOUNT_MESSAGE } from '@offzero/shared/money/money';
import { signInAs, tradeReadyCustomer, type Customer } from './support/api';
import { latestCode } from './support/customers';
import { gotoInteractive } from './support/interactive';

// The trade widget with what customers really do: amounts written with commas and a dollar sign, a
// connection that drops, a session that ends mid-flow; and toasts that stay out of the way. Each test
// goes through both widths in one page, with a customer of its own.

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

const stamp = Date.now();

const newTrader = (baseURL: string, label: string): Promise<Customer> =>
  tradeReadyCustomer(baseURL, {
    email: `care-${label}-${stamp}@example.com`,
    zelleEmail: 'ada.pays@example.com',
  });

async function openWidget(page: Page) {
  await gotoInteractive(page, '/dashboard');
  const widget = page.getByTestId('trade-widget');
  await expect(widget.getByText(/refresh in \d+s/)).toBeVisible();
  return widget;
}

test('amounts read as customers write them: $1,000.50 and 25,000 in full, 1,00 asked about, a huge one over the maximum', async ({
  page,
  baseURL,
}) => {
  await signInAs(page, await newTrader(baseURL!, 'amounts'));
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    const widget = await openWidget(page);
    const pay = widget.getByLabel('You Pay');
    const receive = widget.getByLabel('You Receive');

    await pay.fill('$1,000.50');
    await expect(receive).not.toHaveValue('');
    const forThousand = Number(await receive.inputValue());
    await pay.fill('25,000');
    await expect(pay).toHaveValue('25,000');
    // 25 times the bitcoin of $1,000.50, give or take the fees: never a thousandth of it.
    await expect.poll(async () => Number(await receive.inputValue())).toBeGreaterThan(forThousand * 20);

    await pay.fill('1,00');
    await pay.blur();
    await expect(widget.getByRole('alert')).toHaveText(UNCLEAR_AMOUNT_MESSAGE);
    await expect(pay).toHaveValue('1,00');
    await expect(receive).toHaveValue('');

    await pay.fill('99999999999999999999');
    await widget.getByRole('button', { name: 'Continue' }).click();
    const toast = page.getByRole('status').filter({ hasText: /^Maximum limit is \$[\d,]+\.\d\d$/ });
    await expect(toast).toBeVisible();
    await expect(page.getByText('Minimum order is')).toHaveCount(0);

    // Toasts sit at the top on a phone (clear of a dialog sheet's buttons) and never take a click.
    const box = (await toast.boundingBox())!;
    if (size.width < 640) expect(box.y).toBeLessThan(size.height / 3);
    else expect(box.y).toBeGreaterThan(size.height / 2);
    expect(await toast.evaluate((element) => getComputedStyle(element.parentElement!).pointerEvents)).toBe(
      'none',
    );
  }
});

test('offline, Continue says the connection is lost at once and what was typed stays', async ({
  page,
  baseURL,
}) => {
  await signInAs(page, await newTrader(baseURL!, 'offline'));
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    const widget = await openWidget(page);
    await widget.getByLabel('You Pay').fill('250');
    await expect(widget.getByLabel('You Receive')).not.toHaveValue('');

    await page.context().setOffline(true);
    await expect(page.getByRole('alert').filter({ hasText: 'You are offline.' })).toBeVisible();
    const continueButton = widget.getByRole('button', { name: 'Continue' });
    await continueButton.click();
    await expect(continueButton).toBeEnabled();
    await expect(continueButton).not.toHaveAttribute('aria-busy', 'true');
    await expect(widget.getByLabel('You Pay')).toHaveValue('250');

    await page.context().setOffline(false);
    await expect(page.getByText('You are offline.')).toHaveCount(0);
    await continueButton.click();
    await expect(widget.getByRole('button', { name: 'Pay $250.00' })).toBeVisible();
  }
});

test('a session that ends mid-flow leads to the login page, which says so, and back to the amount typed after logging in', async ({
  page,
  baseURL,
}) => {
  const customer = await newTrader(baseURL!, 'session');
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await signInAs(page, customer);
    let widget = await openWidget(page);
    await widget.getByRole('tab', { name: 'Sell' }).click();
    await widget.getByLabel('You Receive').fill('300');
    // The session ends elsewhere (a logout on another device): the stored token no longer opens it.
    const [header, claims] = customer.token.split('.');
    await page.evaluate((token) => localStorage.setItem('authToken', token), `${header}.${claims}.ended`);
    await widget.getByRole('button', { name: 'Continue' }).click();
    await widget.getByRole('button', { name: /^Zelle/ }).click();

    await expect(page).toHaveURL(/\/login\?session=ended&next=%2Fdashboard$/);
    await expect(page.getByRole('status').filter({ hasText: 'Your session ended.' })).toBeVisible();
    await page.getByLabel('Email').fill(customer.email);
    let sentAt = 0;
    // One code per address every 10 seconds: the last one went out moments ago.
    await expect(async () => {
      sentAt = Date.now() - 500;
      await page.getByRole('button', { name: 'Send code' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'OTP Verification' })).toBeVisible({
        timeout: 1000,
      });
    }).toPass({ intervals: [1000], timeout: 20_000 });
    await page.getByLabel('Verification code').fill(await latestCode(page.request, customer.email, sentAt));
    await page.getByRole('button', { name: 'Log in' }).click();

    await expect(page).toHaveURL(/\/dashboard$/);
    widget = page.getByTestId('trade-widget');
    await expect(widget.getByRole('tab', { name: 'Sell' })).toHaveAttribute('aria-selected', 'true');
    await expect(widget.getByLabel('You Receive')).toHaveValue('300');
    await expect(widget.getByLabel('You Pay')).not.toHaveValue('');
  }
});
