/// <reference lib="dom" />
import { test, expect } from '@playwright/test';
import { btcNumberToSats } from '@offzero/shared/money/money';
import { apiClient, listOrders, signInAs, tradeReadyCustomer } from './support/api';
import { gotoInteractive } from './support/interactive';
import { DESKTOP, MOBILE, snapAsIs } from './support/screens';

// A newcomer's sell in demo mode, as a keyboard user walks it: the amount asked in dollars comes out
// in bitcoin to 6 decimals, each step's heading takes the focus as the step opens, and the deposit is
// paid with the deposit step's own "Pay from the demo wallet" (no wallet or API call of their own).
const stamp = Date.now();

for (const [label, size] of [
  ['390', MOBILE],
  ['1280', DESKTOP],
] as const) {
  test(`a sell asked in dollars, paid from the demo wallet, with focus on each step's heading at ${label} px`, async ({
    page,
    baseURL,
  }) => {
    const customer = await tradeReadyCustomer(baseURL!, {
      email: `demo-wallet-${label}-${stamp}@example.com`,
      zelleEmail: 'ada.pays@example.com',
    });
    await page.setViewportSize(size);
    await signInAs(page, customer);
    await gotoInteractive(page, '/dashboard');
    const widget = page.getByTestId('trade-widget');
    const heading = (name: string | RegExp) => widget.getByRole('heading', { name });

    await widget.getByRole('tab', { name: 'Sell' }).click();
    await expect(widget.getByText(/refresh in \d+s/)).toBeVisible();
    await widget.getByLabel('You Receive').fill('250');
    await expect(widget.getByLabel('You Pay')).toHaveValue(/^0\.\d{6}$/);

    await widget.getByRole('button', { name: 'Continue' }).press('Enter');
    await expect(heading('Select Payment Method to Receive Funds')).toBeFocused();
    await widget.getByRole('button', { name: /^Zelle/ }).press('Enter');
    await expect(heading('Confirm your sale')).toBeFocused();
    const send = widget.getByRole('button', { name: /^Send [\d.]+ BTC$/ });
    await expect(send).toHaveText(/^Send 0\.\d{6} BTC$/);
    const btc = /^Send (0\.\d{6}) BTC$/.exec((await send.textContent()) ?? '')![1]!;
    await send.press('Enter');

    await expect(heading(`Please send ${btc} BTC`)).toBeFocused();
    const api = await apiClient(baseURL!);
    const [order] = await listOrders(api, customer);
    expect(order!.type).toBe('sell');
    expect(order!.amount).toBe(Number(btc));
    expect(btcNumberToSats(order!.amount) % 100n).toBe(0n);
    await snapAsIs(page, 'demo-wallet', `deposit-${label}`);

    await widget.getByRole('button', { name: 'Pay from the demo wallet' }).press('Enter');
    await expect(page.getByText(`${btc} BTC received successfully`)).toBeVisible({ timeout: 20_000 });
    await expect(heading('Thank you for the purchase!')).toBeFocused();
    await snapAsIs(page, 'demo-wallet', `success-${label}`);
    const [paid] = await listOrders(api, customer);
    expect(paid!.status).toBe('processing');
    expect(paid!.txn).toMatch(/^[0-9a-f]{64}$/);
    await api.dispose();
  });
}
