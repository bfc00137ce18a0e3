/// <reference lib="dom" />
import { expect, type Browser, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Order } from '@offzero/shared/api/orders';
import {
  ADMIN_EMAIL,
  adminToken,
  confirmDeposit,
  makeTradeReady,
  orderOf,
  payDeposit,
  registerCustomer,
  saveBuy,
  savePaidZelleBuy,
  saveSell,
  signedInPage,
  TESTNET_WALLET as WALLET,
  type Api,
  type Customer,
} from './support/api';
import { latestCode, samplePng, sessionToken } from './support/customers';
import { test } from './support/fixtures';
import { nextPhoneDigits, saveAdminToken } from './support/run-state';
import { expectAccessible } from './support/accessibility';
import { gotoInteractive } from './support/interactive';
import { DESKTOP, MOBILE, screenPath, snapAtWidths } from './support/screens';

// The back office end to end, on the real server in demo mode. The customers act through the API (as
// their browsers would); the operator works in the console in a browser of their own:
//   - a referred customer buys with Zelle and adds a reference; the admin marks the payment received
//     and sends the bitcoin through the demo chain; the customer sees `completed` with the txid;
//   - a customer sells; the simulated chain pays and confirms; the admin records the dollar payout;
//     the customer sees `completed`;
//   - the referrer sees the reward in their referral history;
//   - a customer who opens /admin is not shown the console; the admin approves a KYC case and the
//     customer's open dashboard shows it without a reload.
// Each test sets up what it needs through the API (its own customers and orders, earlier steps of an
// order done by the admin API), so that each passes or fails on its own.
// Screenshots of every console page at 1280 and 390 px go to e2e/.screens/.

const TRADER_BANK = {
  account_name: 'Tess Trader',
  account_number: '000987654321',
  bank_name: 'First Demo Bank',
  address: '1 Main St, Cheyenne, WY',
  routing_number: '021000021',
  swift: 'CHASUS33',
};

const stamp = Date.now();

test.use({ viewport: DESKTOP });

/**
 * Checks the page with axe-core and takes screenshots, at desktop and phone width; fails on any axe
 * finding or if the page is wider than the screen. With a dialog open only the screen is taken, as the
 * operator sees it. Otherwise the window is made as tall as the page, so that sticky bars are drawn
 * where the operator sees them (at the bottom of the window).
 */
async function snap(page: Page, name: string) {
  // A list being read again is dimmed until its answer arrives and then fades back: checked mid-fade,
  // its colours would fail for contrast though the operator sees them whole a moment later.
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect
    .poll(() =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll('[data-testid="admin-orders-results"]')).every(
          (element) => getComputedStyle(element).opacity === '1',
        ),
      ),
    )
    .toBe(true);
  for (const size of [MOBILE, DESKTOP]) {
    await page.setViewportSize(size);
    await expectAccessible(page, `${name} at ${size.width}px`);
  }
  await snapAtWidths(page, 'back-office', name, { capture: 'tall-window' });
}

/** Opens the work queue afresh and the order's row in the given section. */
async function openFromQueue(admin: Page, section: string, orderId: string) {
  await admin.goto('/admin');
  const panel = admin.getByTestId(`queue-section-${section}`);
  const link = panel.getByRole('link', { name: `Order ${orderId.slice(0, 8)}` });
  await expect(link).toBeVisible();
  await link.click();
  await expect(admin).toHaveURL(new RegExp(`/admin/orders/${orderId}$`));
  await expect(
    admin.getByRole('heading', { level: 1, name: new RegExp(`Order #${orderId.slice(0, 8)}`) }),
  ).toBeVisible();
}

/** A customer of the test's own: registered, KYC approved, with a wallet, a bank account and Zelle. */
async function newTrader(api: Api, label: string, referralCode?: string): Promise<Customer> {
  const trader = await registerCustomer(
    api,
    `bo-${label}-${stamp}@example.com`,
    `+1${nextPhoneDigits()}`,
    referralCode,
  );
  await makeTradeReady(api, trader, { zelleEmail: 'trader.pays@example.com', bank: TRADER_BANK });
  return trader;
}

/** A customer who shares a referral code of their own. */
async function newReferrer(api: Api, label: string): Promise<{ referrer: Customer; referralCode: string }> {
  const referrer = await registerCustomer(
    api,
    `bo-referrer-${label}-${stamp}@example.com`,
    `+1${nextPhoneDigits()}`,
  );
  // 16 characters of A-Z, a-z, 0-9, _ and -, as the referral codes are.
  const referralCode = randomBytes(12).toString('base64url');
  await api.post('/api/user/settings/save', { userId: referrer.userId, referralCode }, referrer.token);
  return { referrer, referralCode };
}

let referenceCounter = 0;

/**
 * A buy of $250 by Zelle with a bank reference of its own (a reference already used on another order
 * would flag this one `duplicate_reference`), checked as the customer sees it.
 */
async function referencedZelleBuy(api: Api, trader: Customer): Promise<Order & { bankTxn: string }> {
  referenceCounter += 1;
  const reference = `ZL-BO-${stamp}-${referenceCounter}`;
  const order = await savePaidZelleBuy(api, trader, 250, reference);
  expect(order).toMatchObject({ status: 'processing', bankTxn: reference, flag: null });
  return order as Order & { bankTxn: string };
}

/** The admin API's actions on an order, as the console's buttons call them. */
async function adminAction(api: Api, orderId: string, action: string, body: object = {}): Promise<Order> {
  const answer = await api.post(`/api/admin/orders/${orderId}/${action}`, body, await adminToken(api));
  return answer.order as Order;
}

/** A referenced Zelle buy the admin marked received (with a note) and sent through the demo chain. */
async function completedBuy(api: Api, trader: Customer): Promise<{ order: Order; txid: string }> {
  const paid = await referencedZelleBuy(api, trader);
  await adminAction(api, paid._id, 'mark-paid', { note: 'Seen in the Zelle inbox' });
  await adminAction(api, paid._id, 'send-btc');
  const order = await orderOf(api, trader, paid._id);
  expect(order.status).toBe('completed');
  expect(order.txn).toMatch(/^[0-9a-f]{64}$/);
  return { order, txid: order.txn! };
}

/** A sell of 0.005 BTC paid and confirmed on the simulated chain and paid out by Zelle. */
async function completedSell(api: Api, trader: Customer): Promise<Order> {
  const sell = await saveSell(api, trader, 0.005);
  await payDeposit(api, trader, sell);
  await confirmDeposit(api, trader, sell);
  await adminAction(api, sell._id, 'payout-usd', { reference: 'ZELLE-OUT-7781' });
  const order = await orderOf(api, trader, sell._id);
  expect(order).toMatchObject({ status: 'completed', bankTxn: 'ZELLE-OUT-7781' });
  return order;
}

/** A customer whose identity document waits for review. */
async function kycApplicant(api: Api, label: string): Promise<Customer> {
  const applicant = await registerCustomer(api, `bo-${label}-${stamp}@example.com`, `+1${nextPhoneDigits()}`);
  const submitted = await api.context.post('/api/kyc/local/submit', {
    headers: { Authorization: `Bearer ${applicant.token}`, 'X-CSRF-Token': api.csrf },
    multipart: {
      legalName: 'Grace Hopper',
      dateOfBirth: '1986-12-09',
      country: 'US',
      residenceState: 'CA',
      documentType: 'passport',
      documentNumber: 'P7654321',
      document: { name: 'passport.png', mimeType: 'image/png', buffer: samplePng(240, 150) },
    },
  });
  expect(submitted.status(), await submitted.text()).toBe(200);
  return applicant;
}

/** A browser context signed in as `customer` (the token in localStorage, as after a login). */
function customerPage(browser: Browser, customer: Customer): Promise<Page> {
  return signedInPage(browser, customer.token, DESKTOP);
}

test('the demo admin signs in at /login with an e-mail code and opens the console from the dashboard', async ({
  page,
}) => {
  await gotoInteractive(page, '/login');
  await page.getByLabel('Email').fill(ADMIN_EMAIL);
  let sentAt = 0;
  // Another suite may have had a code sent to the admin within the last 10 s: then ask again.
  await expect(async () => {
    sentAt = Date.now() - 2000;
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'OTP Verification' })).toBeVisible({
      timeout: 3_000,
    });
  }).toPass({ intervals: [2_000], timeout: 20_000 });
  await page.getByLabel('Verification code').fill(await latestCode(page.request, ADMIN_EMAIL, sentAt));
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Admin' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Work queue' })).toBeVisible();
  // The other tests open the console with this session rather than asking for more codes.
  saveAdminToken(await sessionToken(page));
});

test('a customer who opens /admin is not shown the console, and the API refuses them', async ({
  browser,
  api,
}) => {
  const customer = await registerCustomer(api, `bo-nosy-${stamp}@example.com`, `+1${nextPhoneDigits()}`);
  const page = await customerPage(browser, customer);
  await gotoInteractive(page, '/dashboard');
  await expect(
    page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Admin' }),
  ).toHaveCount(0);

  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Not authorised' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Back office' })).toHaveCount(0);
  await expect(page.getByText('Work queue')).toHaveCount(0);
  await page.goto('/admin/orders');
  await expect(page.getByRole('heading', { level: 1, name: 'Not authorised' })).toBeVisible();
  await snap(page, 'not-authorised');

  const asCustomer = await api.context.get('/api/admin/queue', {
    headers: { Authorization: `Bearer ${customer.token}` },
  });
  expect(asCustomer.status()).toBe(403);
  expect(await asCustomer.json()).toEqual({
    message: 'This area is for OffZero staff only.',
    code: 'FORBIDDEN',
  });
  expect((await api.context.get('/api/admin/orders')).status()).toBe(401);
  await page.context().close();
});

test('the work queue lists a referenced Zelle buy under payments to check, with its age', async ({
  api,
  admin,
}) => {
  const trader = await newTrader(api, 'queue');
  const buyOrder = await referencedZelleBuy(api, trader);

  await admin.goto('/admin');
  const section = admin.getByTestId('queue-section-payments');
  const row = section.locator(`[data-row-id="${buyOrder._id}"]`);
  await expect(row).toContainText(trader.email);
  await expect(row).toContainText('$250.00');
  await expect(row).toContainText(buyOrder.bankTxn);
  await expect(row).toContainText(/<1 min|\d+ min/);
  await expect(admin.getByTestId('queue-tile-payments').getByTestId('queue-count')).not.toHaveText('0');
  await snap(admin, 'queue');
});

test('the order page of a referenced Zelle buy: summary, customer, payment, chain and timeline', async ({
  api,
  admin,
}) => {
  const trader = await newTrader(api, 'order-page');
  const buyOrder = await referencedZelleBuy(api, trader);

  await openFromQueue(admin, 'payments', buyOrder._id);
  await expect(admin.getByTestId('order-customer')).toContainText(trader.email);
  await expect(admin.getByTestId('order-payment')).toContainText(buyOrder.bankTxn);
  await expect(admin.getByTestId('order-payment')).toContainText('payments@offzero.example');
  await expect(admin.getByTestId('order-chain')).toContainText(WALLET);
  const timeline = admin.getByTestId('order-timeline');
  await expect(timeline.getByTestId('timeline-entry')).toHaveCount(2);
  await expect(timeline.getByTestId('timeline-entry').first()).toContainText('Customer');
  // Only what fits: the payment is not confirmed yet, so no payout.
  const actions = admin.getByTestId('order-actions');
  await expect(actions.getByRole('button')).toHaveText(['Mark payment received', 'Cancel order']);
  await snap(admin, 'order-buy-processing');
});

test('mark a Zelle payment received, after a confirmation that says what will happen', async ({
  api,
  admin,
}) => {
  const trader = await newTrader(api, 'mark-paid');
  const buyOrder = await referencedZelleBuy(api, trader);

  await admin.goto(`/admin/orders/${buyOrder._id}`);
  await admin.getByTestId('order-actions').getByRole('button', { name: 'Mark payment received' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Mark payment received' });
  await expect(dialog).toContainText('Confirm that $250.00 arrived by Zelle.');
  await expect(dialog).toContainText(buyOrder.bankTxn);
  await dialog.getByLabel(/Note/).fill('Seen in the Zelle inbox');
  await snap(admin, 'dialog-mark-paid');
  await dialog.getByRole('button', { name: 'Mark received' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    admin.getByRole('status').filter({ hasText: 'Done. Payment marked as received.' }).first(),
  ).toBeVisible();
  await expect(admin.getByTestId('order-payment')).toContainText(`by ${ADMIN_EMAIL}`);
  await expect(admin.getByTestId('order-timeline').getByTestId('timeline-action')).toContainText(
    'marked the payment received',
  );
  await expect(admin.getByTestId('order-actions').getByRole('button')).toHaveText([
    'Record payout txid',
    'Send via demo chain',
    'Cancel order',
  ]);
});

test('a received buy waits in "Bitcoin to send"; the demo chain sends it and the customer sees the txid', async ({
  api,
  admin,
}) => {
  const trader = await newTrader(api, 'send-btc');
  const buyOrder = await referencedZelleBuy(api, trader);
  await adminAction(api, buyOrder._id, 'mark-paid', { note: 'Seen in the Zelle inbox' });

  await openFromQueue(admin, 'bitcoin', buyOrder._id);
  await admin.getByTestId('order-actions').getByRole('button', { name: 'Send via demo chain' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Send the bitcoin through the demo chain' });
  await expect(dialog).toContainText(WALLET);
  await snap(admin, 'dialog-send-btc');
  await dialog.getByRole('button', { name: 'Send bitcoin' }).click();
  await expect(dialog).toBeHidden();
  await expect(admin.getByTestId('order-status').first()).toHaveAttribute('data-status', 'completed');
  const txn = await admin.getByTestId('order-txn').innerText();
  const payoutTxid = /[0-9a-f]{64}/.exec(txn)?.[0] ?? '';
  expect(payoutTxid).toMatch(/^[0-9a-f]{64}$/);
  await expect(admin.getByTestId('order-actions')).toContainText('This order is completed.');
  const timeline = admin.getByTestId('order-timeline');
  await expect(timeline.getByTestId('timeline-entry').last()).toContainText(ADMIN_EMAIL);
  // In words: the payout's start is named, its transaction labelled, no state moves to itself.
  await expect(timeline.getByTestId('timeline-entry').nth(2)).toContainText('Bitcoin payout started');
  await expect(timeline.getByTestId('timeline-entry').last()).toContainText(`Transaction:${payoutTxid}:0`);
  await expect(timeline).not.toContainText(/payout_started|payoutId|txid:/);
  await snap(admin, 'order-buy-completed');

  // The customer sees completed with the transaction id.
  expect(await orderOf(api, trader, buyOrder._id)).toMatchObject({ status: 'completed', txn: payoutTxid });
});

test('a sell seen but unconfirmed: the order page says what it waits for and offers no payout', async ({
  api,
  admin,
}) => {
  const trader = await newTrader(api, 'sell-unconfirmed');
  // The customer sells 0.005 BTC to Zelle and the simulated chain pays the deposit address.
  const sellOrder = await saveSell(api, trader, 0.005);
  await payDeposit(api, trader, sellOrder);

  await admin.goto(`/admin/orders/${sellOrder._id}`);
  const actions = admin.getByTestId('order-actions');
  const waiting = 'Waiting for confirmations: 0 of 1. The dollar payout unlocks after that.';
  await expect(actions.getByTestId('order-action-blocked')).toHaveText(waiting);
  await expect(actions.getByRole('button')).toHaveText(['Record USD payout', 'Cancel order']);
  // The payout is shown, blocked, with the server's reason as its description.
  await expect(actions.getByRole('button', { name: 'Record USD payout' })).toBeDisabled();
  await expect(actions.getByRole('button', { name: 'Record USD payout' })).toHaveAccessibleDescription(
    waiting,
  );
  await expect(admin.getByTestId('order-chain')).toContainText('in mempool');
  await snap(admin, 'order-sell-unconfirmed');
});

test('a confirmed sell: the admin records the dollar payout, and the customer sees completed', async ({
  api,
  admin,
  browser,
}) => {
  test.setTimeout(90_000);
  const trader = await newTrader(api, 'sell-payout');
  const { order: buyOrder } = await completedBuy(api, trader);
  const sellOrder = await saveSell(api, trader, 0.005);
  await payDeposit(api, trader, sellOrder);
  // A block later the deposit is confirmed.
  await confirmDeposit(api, trader, sellOrder);

  await test.step('the admin pays out from "Sell payouts due" and records the reference', async () => {
    await openFromQueue(admin, 'payouts', sellOrder._id);
    await expect(admin.getByTestId('order-confirmations')).toHaveText('1 of 1 required');
    await expect(admin.getByTestId('order-payment')).toContainText('trader.pays@example.com');
    await admin.getByTestId('order-actions').getByRole('button', { name: 'Record USD payout' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Record the dollar payout' });
    await expect(dialog).toContainText('trader.pays@example.com');
    await dialog.getByRole('button', { name: 'Record payout' }).click();
    await expect(dialog.getByText('Enter the payout reference (4 to 100 characters).')).toBeVisible();
    await dialog.getByLabel('Payout reference').fill('ZELLE-OUT-7781');
    await snap(admin, 'dialog-payout-usd');
    await dialog.getByRole('button', { name: 'Record payout' }).click();
    await expect(dialog).toBeHidden();
    await expect(admin.getByTestId('order-status').first()).toHaveAttribute('data-status', 'completed');
    await expect(admin.getByTestId('order-payment')).toContainText('ZELLE-OUT-7781');
    await snap(admin, 'order-sell-completed');
  });

  await test.step('the customer sees completed, in the API and on My Orders', async () => {
    expect(await orderOf(api, trader, sellOrder._id)).toMatchObject({
      status: 'completed',
      bankTxn: 'ZELLE-OUT-7781',
    });
    const page = await customerPage(browser, trader);
    await page.goto('/orders');
    for (const id of [buyOrder._id, sellOrder._id]) {
      await expect(page.locator(`[data-testid="order-row"][data-order-id="${id}"]`)).toContainText(
        'Completed',
      );
    }
    await page.context().close();
  });
});

test('the referrer sees the reward for the referred customer’s completed order', async ({
  api,
  admin,
  browser,
}) => {
  const { referrer, referralCode } = await newReferrer(api, 'reward');
  const trader = await newTrader(api, 'referred', referralCode);
  const { order: buyOrder } = await completedBuy(api, trader);

  const { referrals } = await api.get<{
    referrals: { order_id: string; referrer_id: string; reward_amount: number; platform_fee: number }[];
  }>(`/api/referral/history?referred_id=${referrer.userId}`, referrer.token);
  const reward = referrals.find((r) => r.order_id === buyOrder._id);
  expect(reward).toBeDefined();
  expect(reward!.referrer_id).toBe(trader.userId);
  expect(reward!.platform_fee).toBe(buyOrder.platformFee);
  expect(reward!.reward_amount).toBeGreaterThan(0);
  expect(reward!.reward_amount).toBeLessThanOrEqual(buyOrder.platformFee);

  const page = await customerPage(browser, referrer);
  await page.goto('/referral-history');
  await expect(page.getByTestId('referral-history-table')).toContainText(
    `${buyOrder._id.slice(0, 6)}...${buyOrder._id.slice(-6)}`,
  );
  await page.context().close();

  // The console shows the same reward on the referrer's customer page.
  await admin.goto(`/admin/customers/${referrer.userId}`);
  await expect(admin.getByTestId('customer-rewards')).toContainText(`#${buyOrder._id.slice(0, 8)}`);
});

test('orders: search and filters, the CSV export, and the audit trail of the actions', async ({
  api,
  admin,
}) => {
  test.setTimeout(90_000);
  const trader = await newTrader(api, 'orders-search');
  const { order: buyOrder, txid: payoutTxid } = await completedBuy(api, trader);
  const sellOrder = await completedSell(api, trader);

  await admin.goto('/admin');
  // On a phone the console's menu is a drawer behind the menu button; choosing a page closes it.
  await admin.setViewportSize(MOBILE);
  await admin.getByTestId('admin-menu-toggle').click();
  const drawer = admin.locator('#admin-drawer').getByRole('navigation', { name: 'Back office' });
  await expect(drawer).toBeVisible();
  // Wait for the slide-in to finish before taking the picture.
  await expect.poll(async () => (await drawer.boundingBox())?.x).toBe(0);
  await admin.screenshot({ path: screenPath(`back-office-menu-390.png`) });
  await drawer.getByRole('link', { name: 'Orders' }).click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
  await expect(drawer).toBeHidden();
  await admin.setViewportSize(DESKTOP);

  await admin.getByLabel('Customer or order').fill(trader.email);
  await admin.getByRole('button', { name: 'Search' }).click();
  await expect(admin).toHaveURL(/customer=/);
  const rows = admin.getByTestId('admin-order-row');
  await expect(rows).toHaveCount(2);
  await admin.getByLabel('Type').selectOption('sell');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-row-id', sellOrder._id);
  await admin.getByLabel('Type').selectOption('');
  await admin.getByLabel('Status').selectOption('completed');
  await expect(rows).toHaveCount(2);
  await snap(admin, 'orders');

  const downloadPromise = admin.waitForEvent('download');
  await admin.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^offzero-orders-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile(await download.path(), 'utf8');
  const lines = csv.trim().split(/\r\n/);
  expect(lines[0]).toBe(
    'id,created_at,customer_email,type,status,amount_btc,price_usd,value_usd,platform_fee_usd,network_fee_usd,bank_fee_usd,payment_method,txn,bank_txn,flag',
  );
  expect(lines).toHaveLength(3);
  expect(csv).toContain(payoutTxid);
  expect(csv).toContain('ZELLE-OUT-7781');

  await admin.getByRole('button', { name: 'Reset filters' }).click();
  await expect(admin).toHaveURL(/\/admin\/orders$/);

  // The number the customer quotes finds the order, and their customer number their orders.
  await admin.getByLabel('Customer or order').fill(`Order #${buyOrder._id.slice(0, 8)}`);
  await admin.getByRole('button', { name: 'Search' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-row-id', buyOrder._id);
  await admin.getByLabel('Customer or order').fill(`Customer id ${trader.userId.slice(0, 8)}`);
  await admin.getByRole('button', { name: 'Search' }).click();
  await expect(rows).toHaveCount(2);
  await admin.getByRole('button', { name: 'Reset filters' }).click();

  await admin.goto(`/admin/audit?targetType=order&targetId=${buyOrder._id}`);
  const audit = admin.getByTestId('audit-row');
  // Newest first: the payout, the payout's intent recorded before any coin moved, the payment.
  await expect(audit).toHaveCount(3);
  await expect(audit.first()).toContainText('Order: bitcoin payout');
  await expect(audit.first()).toContainText(ADMIN_EMAIL);
  await expect(audit.first()).toContainText(/status\s*processing\s*→\s*completed/);
  await expect(audit.nth(1)).toContainText('Order: bitcoin payout started');
  await expect(audit.last()).toContainText('Order: payment received');
  await expect(audit.last()).toContainText('Seen in the Zelle inbox');
  await snap(admin, 'audit');
});

test('KYC review: a submitted case is in the queue and the list, and its page shows the document', async ({
  api,
  admin,
}) => {
  const applicant = await kycApplicant(api, 'kyc-case');

  await admin.goto('/admin');
  await expect(admin.getByTestId('queue-section-kyc')).toContainText(applicant.email);
  await admin
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: /KYC review/ })
    .click();
  const row = admin.locator(`[data-testid="kyc-row"][data-row-id="${applicant.userId}"]`);
  await expect(row).toContainText('Grace Hopper');
  await expect(row).toContainText('Passport');
  await snap(admin, 'kyc-cases');

  await row.getByRole('link', { name: applicant.email }).click();
  await expect(admin.getByRole('heading', { level: 1, name: /Grace Hopper/ })).toBeVisible();
  const image = admin.getByRole('img', { name: "The customer's identity document" });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
  await expect(admin.getByTestId('kyc-data')).toContainText('P7654321');
  await snap(admin, 'kyc-case');
});

test('KYC review: a rejection needs a reason; the approval reaches the customer’s open dashboard without a reload', async ({
  api,
  admin,
  browser,
}) => {
  test.setTimeout(90_000);
  const applicant = await kycApplicant(api, 'kyc-decision');

  const dashboard = await customerPage(browser, applicant);
  await gotoInteractive(dashboard, '/dashboard');
  await expect(dashboard.getByTestId('status-kyc')).toContainText('Under Review');

  await admin.goto(`/admin/kyc/${applicant.userId}`);
  await expect(admin.getByRole('heading', { level: 1, name: /Grace Hopper/ })).toBeVisible();

  // Rejecting needs a reason; then the operator changes their mind and approves.
  await admin.getByTestId('kyc-decision').getByRole('button', { name: 'Reject' }).click();
  const reject = admin.getByRole('dialog', { name: 'Reject this identity' });
  await reject.getByRole('button', { name: 'Reject' }).click();
  await expect(reject.getByText('Give the customer a reason of at least 3 characters.')).toBeVisible();
  await reject.getByRole('button', { name: 'Go back' }).click();

  await admin.getByTestId('kyc-decision').getByRole('button', { name: 'Approve' }).click();
  const approve = admin.getByRole('dialog', { name: 'Approve this identity' });
  await expect(approve).toContainText('they can trade at once');
  await snap(admin, 'dialog-kyc-approve');
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(approve).toBeHidden();
  await expect(admin.getByRole('status').filter({ hasText: 'Identity approved.' }).first()).toBeVisible();
  await expect(admin.getByTestId('kyc-decision')).toContainText(ADMIN_EMAIL);

  // The customer's open dashboard reads the new status by itself.
  await expect(dashboard.getByTestId('status-kyc')).toContainText('Approved', { timeout: 25_000 });
  await dashboard.context().close();
});

test('customers: search, and the customer page with KYC, settings, orders and referrer', async ({
  api,
  admin,
}) => {
  const { referrer, referralCode } = await newReferrer(api, 'customers');
  const trader = await newTrader(api, 'customers', referralCode);
  const buyOrder = await saveBuy(api, trader, 250);
  const sellOrder = await saveSell(api, trader, 0.005);

  await admin
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: 'Customers' })
    .click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
  const rows = admin.getByTestId('customer-row');
  // The order number the customer quotes finds them.
  await admin.getByLabel('Search customers').fill(`Order #${buyOrder._id.slice(0, 8)}`);
  await admin.getByRole('button', { name: 'Search' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(trader.email);
  await admin.getByLabel('Search customers').fill(`bo-customers-${stamp}`);
  await admin.getByRole('button', { name: 'Search' }).click();
  await expect(rows).toHaveCount(1);
  await snap(admin, 'customers');

  await rows.getByRole('link', { name: trader.email }).click();
  await expect(admin.getByTestId('customer-kyc')).toContainText('Approved');
  await expect(admin.getByTestId('customer-settings')).toContainText(WALLET);
  await expect(admin.getByTestId('customer-orders')).toContainText(`#${buyOrder._id.slice(0, 8)}`);
  await expect(admin.getByTestId('customer-orders')).toContainText(`#${sellOrder._id.slice(0, 8)}`);
  await expect(admin.getByTestId('customer-account')).toContainText(referrer.userId.slice(0, 8));
  await snap(admin, 'customer');
});

test('disabling an account ends its sessions at once, and it can be enabled again', async ({
  api,
  admin,
}) => {
  const victim = await registerCustomer(api, `bo-disable-${stamp}@example.com`, `+1${nextPhoneDigits()}`);

  await admin.goto(`/admin/customers/${victim.userId}`);
  await admin.getByRole('button', { name: 'Disable account' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Disable this account' });
  await expect(dialog).toContainText('Every session of this account ends at once.');
  await dialog.getByLabel('Reason').fill('Suspected account takeover');
  await dialog.getByRole('button', { name: 'Disable account' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    admin.getByRole('status').filter({ hasText: 'Account disabled; its sessions have ended.' }).first(),
  ).toBeVisible();
  await expect(admin.getByRole('note')).toContainText('This account was disabled');
  const ended = await api.context.get(`/api/user/${victim.userId}`, {
    headers: { Authorization: `Bearer ${victim.token}` },
  });
  expect(ended.status()).toBe(401);

  await admin.getByRole('button', { name: 'Re-enable account' }).click();
  const enable = admin.getByRole('dialog', { name: 'Re-enable this account' });
  await enable.getByLabel('Reason').fill('Identity confirmed by phone');
  await enable.getByRole('button', { name: 'Re-enable account' }).click();
  await expect(admin.getByRole('status').filter({ hasText: 'Account enabled.' }).first()).toBeVisible();
  await expect(admin.getByRole('note')).toHaveCount(0);
});

test('settings: validated per field, saved with the server’s message, in force at once and audited', async ({
  api,
  admin,
}) => {
  test.setTimeout(90_000);
  const customer = await registerCustomer(api, `bo-settings-${stamp}@example.com`, `+1${nextPhoneDigits()}`);
  await admin
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: 'Settings' })
    .click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const fee = admin.getByLabel('Platform fee (%)');
  const lock = admin.getByLabel('Quote lock (seconds)');
  const originalFee = await fee.inputValue();
  const originalLock = await lock.inputValue();
  await snap(admin, 'settings');

  await fee.fill('-1');
  await admin.getByLabel('Minimum order (USD)').fill('50000');
  await admin.getByRole('button', { name: 'Save settings' }).click();
  await expect(admin.getByText('Percentages cannot be negative.')).toBeVisible();
  await expect(admin.getByText('The minimum order must be below the maximum.')).toBeVisible();
  await expect(admin.getByTestId('settings-status')).toHaveText(
    'Some fields need attention; nothing was saved.',
  );
  await snap(admin, 'settings-errors');
  await admin.getByRole('button', { name: 'Discard' }).click();
  await expect(fee).toHaveValue(originalFee);

  await lock.fill('1200');
  await admin.getByRole('button', { name: 'Save settings' }).click();
  await expect(admin.getByTestId('settings-status')).toHaveText('Settings saved. New quotes use them now.');
  const { settings } = await api.get<{ settings: { order: { order_session_timeout: number } } }>(
    '/api/admin/settings',
    customer.token,
  );
  expect(settings.order.order_session_timeout).toBe(1200);

  // Put it back, so the other suites quote with the demo settings.
  await lock.fill(originalLock);
  await admin.getByRole('button', { name: 'Save settings' }).click();
  await expect(admin.getByTestId('settings-status')).toHaveText('Settings saved. New quotes use them now.');

  await admin.goto('/admin/audit?action=settings.update');
  const audit = admin.getByTestId('audit-row');
  await expect(audit.first()).toContainText(`order.order_session_timeout 1200 → ${originalLock}`);
  await expect(audit.nth(1)).toContainText(`order.order_session_timeout ${originalLock} → 1200`);
});

test('the console pages with no journey here pass axe-core at 390 and 1280 px', async ({ admin }) => {
  test.setTimeout(120_000);
  for (const [path, heading] of [
    ['/admin/payouts', 'Payouts'],
    ['/admin/cases', 'Monitoring cases'],
    ['/admin/security', 'Security'],
    ['/admin/tax/1099-da', /1099-DA/],
  ] as const) {
    await admin.goto(path);
    await expect(admin.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await snap(admin, path.slice('/admin/'.length).replace(/\//g, '-'));
  }
});
