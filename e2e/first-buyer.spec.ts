/// <reference lib="dom" />
import { test, expect } from '@playwright/test';
import {
  apiClient,
  listOrders,
  makeTradeReady,
  registerCustomer,
  signInAs,
  TESTNET_WALLET,
} from './support/api';
import { gotoInteractive } from './support/interactive';
import { DESKTOP, MOBILE } from './support/screens';
import { nextPhoneDigits } from './support/run-state';

// A first-time buyer names a payout address no one has confirmed yet: the bitcoin waits until they open
// the link we e-mail them. The confirmation step says so before they pay, and after a PayPal payment
// neither the notice nor the success step promises a payout that is on its way.
const stamp = Date.now();
const UNCONFIRMED_HOLD = 'We send your bitcoin once you confirm the address: open the link we e-mailed you.';

for (const [label, size] of [
  ['390', MOBILE],
  ['1280', DESKTOP],
] as const) {
  test(`a first buy paid by PayPal waits for the e-mailed address confirmation, and says so, at ${label} px`, async ({
    page,
    baseURL,
  }) => {
    const api = await apiClient(baseURL!);
    const customer = await registerCustomer(
      api,
      `first-buyer-${label}-${stamp}@example.com`,
      `+1${nextPhoneDigits()}`,
    );
    // No wallet saved yet: the address book is empty until this buy names one.
    await makeTradeReady(api, customer, { zelleEmail: 'ada.pays@example.com', wallet: false, w9: false });
    await page.setViewportSize(size);
    await signInAs(page, customer);
    await gotoInteractive(page, '/dashboard');
    const widget = page.getByTestId('trade-widget');

    await expect(widget.getByText(/refresh in \d+s/)).toBeVisible();
    await widget.getByLabel('You Pay').fill('100');
    await expect(widget.getByLabel('You Receive')).not.toHaveValue('');
    await widget.getByRole('button', { name: 'Continue' }).click();

    const address = widget.getByLabel('Bitcoin address');
    await address.fill(TESTNET_WALLET);
    await expect(
      widget.getByText(
        'Your own wallet. We e-mail you a link to confirm it, and send your bitcoin once you open it.',
      ),
    ).toBeVisible();
    await widget.getByRole('button', { name: 'Pay $100.00' }).click();
    await widget.getByRole('button', { name: /Pay with PayPal/ }).click();
    await widget
      .getByRole('region', { name: 'PayPal sandbox (demo)' })
      .getByRole('button', { name: 'Approve payment' })
      .click();

    await expect(widget.getByText('Thank you for the purchase!')).toBeVisible();
    await expect(
      page.getByRole('status').filter({ hasText: `Payment received. ${UNCONFIRMED_HOLD}` }),
    ).toBeVisible();
    await expect(widget.getByTestId('payout-wait-note')).toHaveText(UNCONFIRMED_HOLD);
    await expect(page.getByText('on its way')).toHaveCount(0);
    const [order] = await listOrders(api, customer);
    expect(order!.status).toBe('processing');
    expect(order!.payment?.method).toBe('paypal');
    expect(order!.walletAddress).toBe(TESTNET_WALLET);
    await api.dispose();
  });
}
