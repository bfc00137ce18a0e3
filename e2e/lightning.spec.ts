/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { test, expect, type Locator, type Page } from '@playwright/test';
import type { Order } from '@offzero/shared/api/orders';
import {
  apiClient,
  bankAccount,
  makeTradeReady,
  orderOf,
  registerCustomer,
  signInAs,
  type Api,
  type Customer,
} from './support/api';
import { pdfText } from '../apps/server/src/test/document-text';
import { gotoInteractive } from './support/interactive';
import { nextPhoneDigits } from './support/run-state';
import { DESKTOP, MOBILE, snapAsIs } from './support/screens';

// Lightning end to end in demo mode (docs/design.md, "Lightning"), at 390 and 1280 px:
// a. a sell paid by Lightning from the demo wallet is credited at once, its dollars due with no
//    operator step;
// b. the same sell paid out instantly (a bank on RTP/FedNow): invoice paid to dollars settled in the
//    customer's bank in well under 10 seconds, nobody in the back office, each step timed;
// c. a buy paid out to an invoice of the customer's demo wallet settles, the preimage shown as proof in
//    the drawer and on the receipt.
const stamp = Date.now();
// A checksum-valid routing number ending in an even digit: the demo bank reaches it by RTP and FedNow.
const INSTANT_BANK = { ...bankAccount, routing_number: '011000028' };

const SIZES = [
  ['390', MOBILE],
  ['1280', DESKTOP],
] as const;

async function lightningTrader(
  api: Api,
  name: string,
  options: { bank?: typeof bankAccount; wallet?: boolean } = {},
): Promise<Customer> {
  const customer = await registerCustomer(api, `${name}-${stamp}@example.com`, `+1${nextPhoneDigits()}`);
  // Established (approved days ago): past the scam shield's new-customer question.
  await makeTradeReady(api, customer, {
    zelleEmail: `${name}.pays@example.com`,
    ...(options.bank ? { bank: options.bank } : {}),
    wallet: options.wallet ?? true,
  });
  return customer;
}

/**
 * Walks the sell steps with Lightning chosen as the way the bitcoin is sent, up to the deposit page,
 * and checks that page: one QR code, copy buttons for the address, the amount and the invoice.
 */
async function sellByLightning(page: Page, payout: RegExp, snapName: string): Promise<Locator> {
  const widget = page.getByTestId('trade-widget');
  await widget.getByRole('tab', { name: 'Sell' }).click();
  await expect(widget.getByText(/refresh in \d+s/)).toBeVisible();
  await widget.getByLabel('You Receive').fill('120');
  await expect(widget.getByLabel('You Pay')).toHaveValue(/^0\.\d{6}$/);
  await widget.getByRole('button', { name: 'Continue' }).click();

  await expect(widget.getByRole('heading', { name: 'Select Payment Method to Receive Funds' })).toBeVisible();
  const choice = widget.getByTestId('sell-deposit-choice');
  await expect(choice.getByRole('radio', { name: /On-chain/ })).toBeChecked();
  await expect(choice).toContainText('Credited in seconds');
  await choice.getByRole('radio', { name: /Lightning/ }).check();
  await snapAsIs(page, 'lightning', `${snapName}-method`);
  await widget.getByRole('button', { name: payout }).click();

  await expect(widget.getByRole('heading', { name: 'Confirm your sale' })).toBeVisible();
  await expect(widget.getByText(/^Sent by Lightning: Credited in seconds/)).toBeVisible();
  await widget.getByRole('button', { name: /^Send [\d.]+ BTC$/ }).click();

  await expect(widget.getByRole('heading', { name: /^Please send [\d.]+ BTC$/ })).toBeVisible();
  await expect(widget.getByRole('img', { name: 'Deposit QR code' })).toBeVisible();
  for (const copy of ['Copy deposit address', 'Copy amount', 'Copy Lightning invoice']) {
    await expect(widget.getByRole('button', { name: copy })).toBeVisible();
  }
  await expect(widget.getByTestId('deposit-lightning-invoice')).toHaveText(/^lntb/);
  await snapAsIs(page, 'lightning', `${snapName}-deposit`);
  return widget;
}

/** The signed-in customer's newest order. */
async function newestOrder(api: Api, customer: Customer): Promise<Order> {
  const answer = await api.get<{ result: { orders: Order[] } }>(
    `/api/order/list?userId=${customer.userId}`,
    customer.token,
  );
  return answer.result.orders[0]!;
}

/** Pays the deposit page's invoice from the demo wallet and waits for the realtime success toast. */
async function payFromDemoWallet(page: Page, widget: Locator, order: Order): Promise<number> {
  const paidAt = Date.now();
  await widget.getByRole('button', { name: 'Pay by Lightning' }).click();
  await expect(page.getByText(`${order.amount.toFixed(6)} BTC received successfully`)).toBeVisible({
    timeout: 10_000,
  });
  await expect(widget.getByText('Payment hash')).toBeVisible();
  return paidAt;
}

for (const [label, size] of SIZES) {
  test(`a. a Lightning sell paid from the demo wallet is credited at once, no operator step, at ${label} px`, async ({
    page,
    baseURL,
  }) => {
    const api = await apiClient(baseURL!);
    const seller = await lightningTrader(api, `ln-sell-${label}`);
    await page.setViewportSize(size);
    await signInAs(page, seller);
    await gotoInteractive(page, '/dashboard');

    const widget = await sellByLightning(page, /^Zelle/, `sell-${label}`);
    const order = await newestOrder(api, seller);
    expect(order.type).toBe('sell');
    expect(order.lightning?.invoice).toMatch(/^lntb/);
    await payFromDemoWallet(page, widget, order);
    await snapAsIs(page, 'lightning', `sell-${label}-paid`);

    // Credited once, final at once: every confirmation counted, nothing for staff to check or press.
    const paid = await orderOf(api, seller, order._id);
    expect(paid.status).toBe('processing');
    expect(paid.txn).toBe(order.lightning!.paymentHash);
    expect(paid.flag).toBeNull();
    expect(paid.confirmations).toBeGreaterThanOrEqual(1);

    await page.goto(`/orders?order=${order._id}`);
    const details = page.getByTestId('order-details');
    await expect(details.getByText('Payment hash (txn)')).toBeVisible();
    await expect(details.getByRole('button', { name: 'Copy Lightning invoice' })).toBeVisible();
    // The hash is the order's transaction, and the timeline's reference too.
    await expect(details.getByText(order.lightning!.paymentHash).first()).toBeVisible();
    await snapAsIs(page, 'lightning', `sell-${label}-drawer`);
    await api.dispose();
  });

  test(`b. a Lightning sell paid out instantly: invoice paid to dollars settled in seconds, at ${label} px`, async ({
    page,
    baseURL,
  }) => {
    const api = await apiClient(baseURL!);
    const seller = await lightningTrader(api, `ln-instant-${label}`, { bank: INSTANT_BANK });
    await page.setViewportSize(size);
    await signInAs(page, seller);
    await gotoInteractive(page, '/dashboard');

    const widget = await sellByLightning(page, /^Instant bank transfer/, `instant-${label}`);
    const order = await newestOrder(api, seller);
    const paidAt = await payFromDemoWallet(page, widget, order);
    // No operator anywhere: the server credits the invoice, sends the dollars and the demo bank settles.
    await expect
      .poll(async () => (await orderOf(api, seller, order._id)).status, { timeout: 10_000, intervals: [200] })
      .toBe('completed');
    const seconds = (Date.now() - paidAt) / 1000;
    console.log(`Lightning sell ${order._id.slice(0, 8)} at ${label} px: paid to completed in ${seconds}s`);
    expect(seconds).toBeLessThan(10);

    await page.goto(`/orders?order=${order._id}`);
    const timeline = page.getByTestId('order-details').getByTestId('order-timeline');
    for (const step of ['Order placed', 'Paid by Lightning', 'Dollars sent', 'Dollars arrived']) {
      const entry = timeline.locator('li', { hasText: step }).first();
      // Each step with its own time, to the second.
      await expect(entry.locator('time')).toHaveText(/\d{1,2}:\d{2}:\d{2}\s?[AP]M/);
    }
    await snapAsIs(page, 'lightning', `instant-${label}-timeline`);
    await api.dispose();
  });

  test(`c. a Lightning buy to the demo wallet's invoice settles with its preimage as proof, at ${label} px`, async ({
    page,
    baseURL,
  }) => {
    const api = await apiClient(baseURL!);
    // No wallet saved: the destination field starts empty, for the invoice.
    const buyer = await lightningTrader(api, `ln-buy-${label}`, { wallet: false });
    await page.setViewportSize(size);
    await signInAs(page, buyer);
    await gotoInteractive(page, '/dashboard');
    const widget = page.getByTestId('trade-widget');
    await expect(widget.getByText(/refresh in \d+s/)).toBeVisible();
    await widget.getByLabel('You Pay').fill('100');
    await expect(widget.getByLabel('You Receive')).not.toHaveValue('');
    await widget.getByRole('button', { name: 'Continue' }).click();
    await expect(widget.getByRole('heading', { name: 'Confirm your order' })).toBeVisible();

    // An invoice of the customer's demo wallet without an amount: the server pays it the order's satoshis.
    const { invoice } = (await api.post('/api/dev/lightning/invoice', {})) as { invoice: string };
    await widget.getByLabel(/^Bitcoin address/).fill(invoice);
    await expect(widget.getByTestId('destination-kind')).toContainText('Lightning invoice');
    await expect(widget.getByTestId('routing-fee-budget')).toContainText(
      /Routing fee budget: up to [\d,]+ sats/,
    );
    await snapAsIs(page, 'lightning', `buy-${label}-destination`);

    await widget.getByRole('button', { name: 'Pay $100.00' }).click();
    await widget.getByRole('button', { name: /Pay with PayPal/ }).click();
    await widget
      .getByRole('region', { name: 'PayPal sandbox (demo)' })
      .getByRole('button', { name: 'Approve payment' })
      .click();
    await expect(widget.getByText('Thank you for the purchase!')).toBeVisible();

    const order = await newestOrder(api, buyer);
    expect(order.walletAddress).toBe(invoice);
    await expect
      .poll(async () => (await orderOf(api, buyer, order._id)).status, { timeout: 20_000 })
      .toBe('completed');
    const settled = await orderOf(api, buyer, order._id);
    // The settled payout keeps the preimage: needs the order API's `lightningPayout` field.
    expect(settled.lightningPayout?.status).toBe('settled');
    const preimage = settled.lightningPayout!.preimage!;
    expect(preimage).toMatch(/^[0-9a-f]{64}$/);

    await page.goto(`/orders?order=${order._id}`);
    const section = page.getByTestId('order-details').getByTestId('lightning-payout');
    await expect(section.getByTestId('lightning-payout-status')).toHaveText('Settled');
    await expect(section.getByText('Proof of payment', { exact: true })).toBeVisible();
    await expect(section.getByTestId('lightning-preimage')).toHaveText(preimage);
    await snapAsIs(page, 'lightning', `buy-${label}-drawer`);

    // The receipt, as the customer downloads it from the drawer, names the preimage too.
    const download = page.waitForEvent('download');
    await page.getByTestId('order-details').getByRole('button', { name: 'Download receipt' }).click();
    const receipt = readFileSync(await (await download).path());
    expect(receipt.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(receipt);
    expect(text).toContain(order.lightningPayout?.paymentHash ?? settled.txn!);
    expect(text).toContain(preimage);
    await api.dispose();
  });
}
