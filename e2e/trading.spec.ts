/// <reference lib="dom" />
import { test, expect, type Locator, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import type { Order } from '@offzero/shared/api/orders';
import { quoteBuyFromUsd } from '@offzero/shared/quotes/quote';
import {
  basisPointsFromPercent,
  btcNumberToSats,
  formatBtc,
  mulDivCeil,
  SATS_PER_BTC,
  usdNumberToCents,
} from '@offzero/shared/money/money';
import { formatCentsAsCurrency } from '@offzero/shared/currency/format-currency';
import {
  apiClient,
  confirmDeposit,
  signInAs,
  tradeReadyCustomer,
  payDeposit,
  saveBuy,
  savePaidZelleBuy,
  saveSell,
  TESTNET_WALLET as WALLET,
  type Customer,
} from './support/api';
import { gotoInteractive } from './support/interactive';

// Trading end to end on the real server in demo mode: a Zelle buy with its bank reference, a PayPal
// buy through the demo sandbox, and a sell whose deposit on the simulated chain reaches the open page
// through the realtime channel. The server is the authority: every figure on screen is checked against
// its order list, and the buy figures against the shared quote maths. Each test trades as a customer of
// its own, set up through the API, so that each fails on its own.
const screensDir = fileURLToPath(new URL('./.screens/', import.meta.url));

const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 390, height: 844 };
const ZELLE_EMAIL = 'ada.pays@example.com';

const stamp = Date.now();

test.use({ viewport: DESKTOP });

/** Full-page screenshots of the current screen at phone and desktop width, for a human to look at. */
async function snap(page: Page, name: string) {
  for (const [label, size] of [
    ['390', MOBILE],
    ['1280', DESKTOP],
  ] as const) {
    await page.setViewportSize(size);
    // Scrolled, the sticky top bar would be drawn in the middle of a full-page picture.
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await page.evaluate(() => document.fonts.ready);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${label}px is wider than the viewport`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${screensDir}trading-${name}-${label}.png`, fullPage: true });
  }
}

/** A customer of the test's own who may trade, so that no test depends on another's orders. */
const newTrader = (baseURL: string, label: string): Promise<Customer> =>
  tradeReadyCustomer(baseURL, { email: `trader-${label}-${stamp}@example.com`, zelleEmail: ZELLE_EMAIL });

async function listOrders(page: Page, customer: Customer): Promise<Order[]> {
  const response = await page.request.get(`/api/order/list?userId=${customer.userId}`, {
    headers: { Authorization: `Bearer ${customer.token}` },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { result: { orders: Order[] } }).result.orders;
}

async function newestOrder(page: Page, customer: Customer): Promise<Order> {
  const [order] = await listOrders(page, customer);
  if (!order) throw new Error('The customer has no order.');
  return order;
}

const usd = (amount: number) => formatCentsAsCurrency(usdNumberToCents(amount));
const btc6 = (amount: number) => formatBtc(btcNumberToSats(amount), 6);

/** Types an amount and moves on from the quote step of the dashboard's widget. */
async function quote(widget: Locator, side: 'Buy' | 'Sell', amount: string) {
  await widget.getByRole('tab', { name: side }).click();
  await expect(widget.getByText(/refresh in \d+s/)).toBeVisible();
  await widget.getByLabel('You Pay').fill(amount);
  await expect(widget.getByLabel('You Receive')).not.toHaveValue('');
}

/** The buy figures the shared maths gives for the order's own price and network fee. */
async function expectBuyFiguresMatchSharedMaths(page: Page, order: Order) {
  const { settings } = (await (await page.request.get('/api/admin/settings')).json()) as {
    settings: { order: { platform_fees: number } };
  };
  const priceCents = usdNumberToCents(order.price);
  const networkFeeCents = usdNumberToCents(order.networkFee);
  // The order keeps the network fee in dollars; any satoshi figure that prices to those cents gives the
  // same quote, so take the smallest.
  let networkFeeSats = ((networkFeeCents - 1n) * SATS_PER_BTC) / priceCents;
  while (mulDivCeil(networkFeeSats, priceCents, SATS_PER_BTC) < networkFeeCents) networkFeeSats += 1n;
  const expected = quoteBuyFromUsd({
    valueCents: usdNumberToCents(order.value),
    sellPriceCents: priceCents,
    feeBps: basisPointsFromPercent(settings.order.platform_fees),
    networkFeeSats,
  });
  expect(expected).not.toBeNull();
  expect(btcNumberToSats(order.amount)).toBe(expected!.amountSats);
  expect(usdNumberToCents(order.platformFee)).toBe(expected!.platformFeeCents);
  expect(networkFeeCents).toBe(expected!.networkFeeCents);
}

/** From the dashboard's quote step of a buy to the checkout, without looking at each screen. */
async function buyUpToCheckout(widget: Locator, amount: string, total: string) {
  await quote(widget, 'Buy', amount);
  await widget.getByRole('button', { name: 'Continue' }).click();
  await widget.getByRole('button', { name: `Pay ${total}` }).click();
  await expect(widget.getByText(`Total: ${total}`)).toBeVisible();
}

/** From the dashboard's quote step of a sell to its deposit page, paid out by `method`. */
async function sellUpToDeposit(widget: Locator, amount: string, method: RegExp) {
  await quote(widget, 'Sell', amount);
  await widget.getByRole('button', { name: 'Continue' }).click();
  await widget.getByRole('button', { name: method }).click();
  await widget.getByRole('button', { name: /^Send [\d.]+ BTC$/ }).click();
  await expect(widget.getByRole('img', { name: 'Deposit QR code' })).toBeVisible();
}

test('a buy: the quote, the confirmation with the wallet from settings, and the checkout', async ({
  page,
  baseURL,
}) => {
  const customer = await newTrader(baseURL!, 'buy-steps');
  await signInAs(page, customer);
  await gotoInteractive(page, '/dashboard');
  const widget = page.getByTestId('trade-widget');
  await expect(page.getByTestId('recent-orders')).toContainText('No orders available yet!');

  await test.step('quote', async () => {
    await quote(widget, 'Buy', '250');
    await expect(widget.getByText('Minimum order $20.00')).toBeVisible();
    await snap(page, 'buy-1-quote');
    await widget.getByRole('button', { name: 'Continue' }).click();
  });

  await test.step('confirmation: the wallet from settings, the figures and the validity', async () => {
    // The settings' wallet is the default entry of the address book: it is chosen to begin with.
    const payTo = widget.getByTestId('payout-address-choice');
    await expect(payTo.getByRole('radio', { name: 'Wallet' })).toBeChecked();
    await expect(payTo).toContainText(`${WALLET.slice(0, 8)}...${WALLET.slice(-8)}`);
    await expect(widget.getByText(/^Price locked for 1[45]:\d\d$/)).toBeVisible();
    for (const label of ['You Receive', 'Rate', 'Platform Fee', 'Network Fee']) {
      await expect(widget.getByText(label, { exact: true })).toBeVisible();
    }
    await snap(page, 'buy-2-confirmation');
    await widget.getByRole('button', { name: 'Pay $250.00' }).click();
  });

  await test.step('checkout: Zelle', async () => {
    await expect(widget.getByText('Total: $250.00')).toBeVisible();
    await expect(widget.getByText('Select Payment Method')).toBeVisible();
    await expect(widget.getByRole('button', { name: /Pay with PayPal/ })).toBeVisible();
    await snap(page, 'buy-3-checkout');
  });
});

test('a Zelle buy of $250: where to pay, the bank reference, the server’s figures and Recent Orders', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const customer = await newTrader(baseURL!, 'zelle-buy');
  await signInAs(page, customer);
  await gotoInteractive(page, '/dashboard');
  const widget = page.getByTestId('trade-widget');
  await buyUpToCheckout(widget, '250', '$250.00');
  await widget.getByRole('button', { name: /^Zelle/ }).click();

  let order: Order;
  await test.step('success: where to pay, and the bank reference', async () => {
    await expect(widget.getByText('Thank you for the purchase!')).toBeVisible();
    order = await newestOrder(page, customer);
    expect(order.status).toBe('processing');
    expect(order.payment?.method).toBe('zelle');
    await expect(widget.getByText(`Order #${order._id.slice(0, 8)} has been created.`)).toBeVisible();
    await expect(widget.getByText('Zelle email')).toBeVisible();
    await expect(widget.getByText(order.payment!.receiving_in.payment_address!)).toBeVisible();
    await snap(page, 'buy-4-success');

    // Blank is ignored.
    await widget.getByRole('button', { name: 'Submit bank reference' }).click();
    await widget.getByLabel('Add Bank Tx Ref No.').fill('ZL-20261121-0042');
    await widget.getByRole('button', { name: 'Submit bank reference' }).click();
    await expect(widget.getByText('Bank Tx Ref No. Added')).toBeVisible();
    await snap(page, 'buy-5-reference-added');
  });

  await test.step('the server is the authority: its figures are the shared maths', async () => {
    order = await newestOrder(page, customer);
    expect(order.bankTxn).toBe('ZL-20261121-0042');
    expect(order.value).toBe(250);
    expect(order.walletAddress).toBe(WALLET);
    await expectBuyFiguresMatchSharedMaths(page, order);
  });

  await test.step('Recent Orders shows it', async () => {
    const recent = page.getByTestId('recent-orders');
    await expect(recent.getByTestId('recent-order')).toHaveCount(1);
    await expect(recent).toContainText(btc6(order.amount));
    await expect(recent).toContainText('$250.00');
  });
});

test('My Orders and the order drawer show the server’s figures of a referenced Zelle buy', async ({
  page,
  baseURL,
}) => {
  const customer = await newTrader(baseURL!, 'my-orders');
  const api = await apiClient(baseURL!);
  // A reference of its own: one already used on another order would flag this one.
  const order = await savePaidZelleBuy(api, customer, 250, 'ZL-20261121-0043');
  await api.dispose();
  expect(order).toMatchObject({ status: 'processing', value: 250, bankTxn: 'ZL-20261121-0043', flag: null });
  await signInAs(page, customer);
  await gotoInteractive(page, '/dashboard');

  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'My Orders' }).click();
  const row = page.locator(`[data-testid="order-row"][data-order-id="${order._id}"]`);
  await expect(row).toContainText('BTC-USD');
  await expect(row).toContainText(btc6(order.amount));
  await expect(row).toContainText(usd(order.price));
  await expect(row).toContainText('$250.00');
  await expect(row).toContainText('Processing');
  await snap(page, 'orders-1-list');

  await row.click();
  const drawer = page.getByRole('dialog', { name: `Order #${order._id.slice(0, 8)}` });
  await expect(drawer).toBeVisible();
  for (const text of [
    order._id,
    `${btc6(order.amount)} BTC`,
    usd(order.price),
    usd(order.platformFee),
    usd(order.networkFee),
    '$250.00',
    'ZL-20261121-0043',
    WALLET,
    'Zelle',
    order.payment!.receiving_in.payment_address!,
  ]) {
    await expect(drawer.getByText(text, { exact: true }).first()).toBeVisible();
  }
  await snap(page, 'orders-2-drawer');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
});

test('a PayPal buy in the demo sandbox', async ({ page, baseURL }) => {
  const customer = await newTrader(baseURL!, 'paypal');
  await signInAs(page, customer);
  await gotoInteractive(page, '/dashboard');
  const widget = page.getByTestId('trade-widget');

  await buyUpToCheckout(widget, '100', '$100.00');
  await widget.getByRole('button', { name: /Pay with PayPal/ }).click();

  const sandbox = widget.getByRole('region', { name: 'PayPal sandbox (demo)' });
  await expect(sandbox).toBeVisible();
  await snap(page, 'paypal-1-sandbox');
  await sandbox.getByRole('button', { name: 'Approve payment' }).click();

  await expect(widget.getByText('Thank you for the purchase!')).toBeVisible();
  const order = await newestOrder(page, customer);
  expect(order.status).toBe('processing');
  expect(order.payment?.method).toBe('paypal');
  expect(order.bankTxn).toBeTruthy();
  await expect(widget.getByText('PayPal transaction id')).toBeVisible();
  await expect(widget.getByText(order.bankTxn!)).toBeVisible();
  await expectBuyFiguresMatchSharedMaths(page, order);
  await snap(page, 'paypal-2-success');
});

test('a sell: the quote, the payout method, the confirmation and the deposit page', async ({
  page,
  baseURL,
}) => {
  const customer = await newTrader(baseURL!, 'sell-steps');
  await signInAs(page, customer);
  await gotoInteractive(page, '/dashboard');
  const widget = page.getByTestId('trade-widget');

  await test.step('quote, payout method and confirmation', async () => {
    await quote(widget, 'Sell', '0.005');
    await snap(page, 'sell-1-quote');
    await widget.getByRole('button', { name: 'Continue' }).click();
    await expect(widget.getByText('Select Payment Method to Receive Funds')).toBeVisible();
    await snap(page, 'sell-2-method');
    await widget.getByRole('button', { name: /^Zelle/ }).click();
    await expect(widget.getByText('Bank Charges').first()).toBeVisible();
    await expect(widget.getByText(ZELLE_EMAIL)).toBeVisible();
    await snap(page, 'sell-3-confirmation');
    await widget.getByRole('button', { name: 'Send 0.005000 BTC' }).click();
  });

  await test.step('deposit: the QR code, the countdown and the address', async () => {
    await expect(widget.getByRole('heading', { name: 'Please send 0.005000 BTC' })).toBeVisible();
    await expect(widget.getByRole('img', { name: 'Deposit QR code' })).toBeVisible();
    await expect(widget.getByTestId('deposit-countdown')).toHaveText(/^\(Time out in (20:00|19:[0-5]\d)\)$/);
    const order = await newestOrder(page, customer);
    expect(order.type).toBe('sell');
    expect(order.status).toBe('pending');
    const deposit = order.walletAddress as { address: string; amount: number };
    expect(deposit.amount).toBe(0.005);
    await expect(widget.getByTestId('deposit-address')).toHaveText(
      `${deposit.address.slice(0, 8)}...${deposit.address.slice(-8)}`,
    );
    await expect(
      widget.getByRole('link', { name: 'View the deposit address on the block explorer' }),
    ).toHaveAttribute('href', new RegExp(`/address/${deposit.address}$`));
    await snap(page, 'sell-4-deposit');
  });
});

test('a sell: the deposit reaches the open page through the realtime channel', async ({ page, baseURL }) => {
  const customer = await newTrader(baseURL!, 'sell-realtime');
  await signInAs(page, customer);
  await gotoInteractive(page, '/dashboard');
  const widget = page.getByTestId('trade-widget');
  const dev = await apiClient(baseURL!);
  await sellUpToDeposit(widget, '0.005', /^Zelle/);
  const order = await newestOrder(page, customer);

  const deposit = order.walletAddress as { address: string; amount: number };
  const sent = await dev.post('/api/dev/chain/send', { address: deposit.address, amount: deposit.amount });
  const txid = sent.txid as string;
  await expect(page.getByText('0.005000 BTC received successfully')).toBeVisible({ timeout: 15_000 });
  await expect(widget.getByText('Thank you for the purchase!')).toBeVisible();
  await expect(widget.getByText(`Order #${order._id.slice(0, 8)} has been created.`)).toBeVisible();
  await expect(widget.getByTestId('deposit-txid')).toHaveAttribute('href', new RegExp(`/tx/${txid}$`));
  await snap(page, 'sell-5-success');
  await dev.dispose();
});

test('a confirmed sell: My Orders shows the confirmation and the deposit address', async ({
  page,
  baseURL,
}) => {
  const customer = await newTrader(baseURL!, 'sell-confirmed');
  const dev = await apiClient(baseURL!);
  const order = await saveSell(dev, customer, 0.005);
  await payDeposit(dev, customer, order);
  await confirmDeposit(dev, customer, order);
  await dev.dispose();
  await expect
    .poll(async () => (await listOrders(page, customer)).find((o) => o._id === order._id)?.confirmations, {
      timeout: 20_000,
    })
    .toBeGreaterThan(0);

  await signInAs(page, customer);
  await gotoInteractive(page, '/dashboard');
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'My Orders' }).click();
  const row = page.locator(`[data-testid="order-row"][data-order-id="${order._id}"]`);
  await row.click();
  const drawer = page.getByRole('dialog', { name: `Order #${order._id.slice(0, 8)}` });
  await expect(drawer.getByTestId('order-confirmations')).not.toHaveText('0');
  await expect(drawer.getByText('Deposit address', { exact: true }).first()).toBeVisible();
  await snap(page, 'sell-6-drawer');
});

test('Back and Pay again re-quotes the same pending buy instead of creating a second one', async ({
  page,
  baseURL,
}) => {
  const customer = await newTrader(baseURL!, 'requote');
  await signInAs(page, customer);
  await gotoInteractive(page, '/dashboard');
  const widget = page.getByTestId('trade-widget');

  // Confirmed but not paid: the order waits in My Orders.
  await buyUpToCheckout(widget, '75.5', '$75.50');
  const pending = await newestOrder(page, customer);
  expect(pending.status).toBe('pending');

  await widget.getByRole('button', { name: 'Back' }).click();
  await widget.getByRole('button', { name: 'Pay $75.50' }).click();
  await expect(page.getByText('Order updated with the new quote.')).toBeVisible();
  await expect(widget.getByText('Total: $75.50')).toBeVisible();
  const requoted = await newestOrder(page, customer);
  expect(requoted._id).toBe(pending._id);
  expect(requoted.status).toBe('pending');
  expect(await listOrders(page, customer)).toHaveLength(1);
});

test('a pending buy is completed from My Orders by ACH, and its reference added there', async ({
  page,
  baseURL,
}) => {
  const customer = await newTrader(baseURL!, 'ach');
  const api = await apiClient(baseURL!);
  const pending = await saveBuy(api, customer, 75.5);
  await api.dispose();
  expect(pending.status).toBe('pending');
  await signInAs(page, customer);
  await gotoInteractive(page, '/dashboard');

  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'My Orders' }).click();
  const row = page.locator(`[data-testid="order-row"][data-order-id="${pending._id}"]`);
  await expect(row).toContainText('Pending');
  await row.getByRole('button', { name: 'Complete Order' }).click();

  const dialog = page.getByRole('dialog', { name: `Complete order #${pending._id.slice(0, 8)}` });
  await expect(dialog.getByText('Total: $75.50')).toBeVisible();
  await snap(page, 'orders-3-complete-order');
  await dialog.getByRole('button', { name: /^ACH/ }).click();
  await expect(dialog.getByText('Thank you for the purchase!')).toBeVisible();
  const paid = await newestOrder(page, customer);
  expect(paid._id).toBe(pending._id);
  expect(paid.payment?.method).toBe('ach');
  for (const text of [
    paid.payment!.receiving_in.account_holder!,
    paid.payment!.receiving_in.account_number!,
    paid.payment!.receiving_in.routing_number!,
  ]) {
    await expect(dialog.getByText(text, { exact: true })).toBeVisible();
  }
  await snap(page, 'orders-4-ach-details');
  await page.keyboard.press('Escape');

  // Still without a reference, the row asks for one.
  await expect(row).toContainText('Processing');
  await row.getByLabel('Add Bank Tx Ref No.').fill('ACH-778899');
  await row.getByRole('button', { name: 'Submit bank reference' }).click();
  await expect(page.getByText('Bank Tx Ref No. Added')).toBeVisible();
  await expect(row).toContainText('Ref. ACH-778899');
  expect((await newestOrder(page, customer)).bankTxn).toBe('ACH-778899');
  await snap(page, 'orders-5-reference-in-list');
});

test('with the realtime channel down, the deposit page polls and still sees the deposit', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  // Every realtime connection is refused, as behind a proxy that drops WebSockets.
  await page.routeWebSocket(/\/api\/realtime$/, (ws) => ws.close({ code: 1011, reason: 'unavailable' }));
  const customer = await newTrader(baseURL!, 'polling');
  await signInAs(page, customer);
  await gotoInteractive(page, '/dashboard');
  const widget = page.getByTestId('trade-widget');
  const dev = await apiClient(baseURL!);

  await sellUpToDeposit(widget, '0.0012', /^ACH/);

  const order = await newestOrder(page, customer);
  const deposit = order.walletAddress as { address: string; amount: number };
  await dev.post('/api/dev/chain/send', { address: deposit.address, amount: deposit.amount });
  await expect(page.getByText(/^[\d.]+ BTC received successfully$/)).toBeVisible({ timeout: 20_000 });
  await expect(widget.getByText('Thank you for the purchase!')).toBeVisible();
  await dev.dispose();
});
