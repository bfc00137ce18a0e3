/// <reference lib="dom" />
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import {
  adminToken,
  apiClient,
  registerCustomer,
  TESTNET_WALLET,
  type Api,
  type Customer,
} from './support/api';
import {
  pageCsrfToken,
  registerInBrowser,
  samplePng,
  sessionToken,
  sessionUserId,
} from './support/customers';
import { nextPhoneDigits } from './support/run-state';
import { gotoInteractive } from './support/interactive';
import { DESKTOP, MOBILE, snapAtWidths } from './support/screens';

// Settings, identity verification and referrals end to end, on the real server in demo mode: a new
// customer verifies their identity with the demo form and is approved by the back office (the demo
// helper) while the dashboard is open; adds a bank account from the dashboard and Zelle and a wallet in
// settings; changes notification preferences; generates a referral code; and a friend registers
// through the referral link. Each test starts from a customer of its own, set up through the API, and
// fails if the page throws. Screenshots at phone and desktop width go to e2e/.screens/.

const MAINNET_WALLET = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const BANK = {
  account_name: 'Ada Lovelace',
  account_number: '000123456789',
  bank_name: 'First Cheyenne Bank',
  address: '1 Capitol Ave, Cheyenne, WY 82001',
  routing_number: '021000021',
  swift: 'CHASUS33',
};

const stamp = Date.now();

const test = base.extend<{ api: Api; pageErrors: string[] }>({
  /** Each test's API client, like another browser. */
  api: async ({ baseURL }, use) => {
    const api = await apiClient(baseURL!);
    await use(api);
    await api.dispose();
  },
  /** Errors thrown in the test's page; any fails the test. */
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors, 'errors thrown in the page').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * Screenshots at desktop and phone width; fails if the page is wider than the screen. Pages are taken
 * whole; with a dialog open only the screen is taken, as the customer sees it.
 */
const snap = (page: Page, name: string) => snapAtWidths(page, 'settings-kyc', name);

/** Waits for a success toast with exactly this text. */
async function expectToast(page: Page, text: string) {
  await expect(page.getByRole('status').filter({ hasText: text }).first()).toBeVisible();
}

async function openSettings(page: Page) {
  await page
    .getByRole('navigation', { name: 'Account' })
    .getByRole('link', { name: 'Settings', exact: true })
    .click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByTestId('bank-card')).toBeVisible();
}

function switchNamed(page: Page, name: string): Locator {
  return page.getByRole('switch', { name });
}

/** A customer of the test's own, registered through the API, signed in on `page` at the dashboard. */
async function customerOnDashboard(page: Page, api: Api, label: string): Promise<Customer> {
  const customer = await registerCustomer(
    api,
    `e2e-kyc-${label}-${stamp}@example.com`,
    `+1${nextPhoneDigits()}`,
  );
  await gotoInteractive(page, '/');
  await page.evaluate((token) => localStorage.setItem('authToken', token), customer.token);
  await gotoInteractive(page, '/dashboard');
  await expect(page.getByTestId('status-kyc')).toBeVisible();
  return customer;
}

/** Saves the customer's bank account, Zelle e-mail and wallet, as the settings forms would. */
async function savePayoutDetails(api: Api, customer: Customer): Promise<void> {
  const { userId, token } = customer;
  await api.post('/api/user/settings/bank/save', { userId, bankAccount: BANK }, token);
  await api.post(
    '/api/user/settings/zelle/save',
    { userId, zelleEmail: `zelle-${stamp}@example.com` },
    token,
  );
  await api.post('/api/user/settings/save', { userId, walletAddress: TESTNET_WALLET }, token);
}

async function submitKyc(api: Api, customer: Customer): Promise<void> {
  const submitted = await api.context.post('/api/kyc/local/submit', {
    headers: { Authorization: `Bearer ${customer.token}`, 'X-CSRF-Token': api.csrf },
    multipart: {
      legalName: 'Ada Lovelace',
      dateOfBirth: '1990-12-10',
      country: 'US',
      residenceState: 'CA',
      documentType: 'passport',
      documentNumber: 'X1234567',
      document: { name: 'passport.png', mimeType: 'image/png', buffer: samplePng() },
    },
  });
  expect(submitted.status(), await submitted.text()).toBe(200);
}

test.use({ viewport: DESKTOP });

test('a customer registers in the browser; the dashboard offers Verify KYC and Add Bank', async ({
  page,
}) => {
  await registerInBrowser(page, { email: `e2e-kyc-${stamp}@example.com`, phoneDigits: nextPhoneDigits() });
  await expect(page.getByTestId('status-kyc').getByRole('button', { name: 'Verify KYC' })).toBeVisible();
  await expect(page.getByTestId('status-bank').getByRole('button', { name: 'Add Bank' })).toBeVisible();
  await snap(page, 'dashboard-new');
});

test('the demo verification form: field errors, then a complete submission', async ({ page, api }) => {
  await customerOnDashboard(page, api, 'form');

  await page.getByTestId('status-kyc').getByRole('button', { name: 'Verify KYC' }).click();
  const dialog = page.getByRole('dialog', { name: 'Verify your identity' });
  await expect(dialog.getByLabel('Full legal name')).toBeVisible();
  await expect(dialog.getByLabel('Country')).toHaveValue('US');
  await snap(page, 'kyc-form');

  await dialog.getByLabel('Full legal name').fill('');
  await dialog.getByRole('button', { name: 'Submit for review' }).click();
  await expect(dialog.getByText('Enter your full legal name.')).toBeVisible();
  await expect(dialog.getByText('Enter your date of birth.')).toBeVisible();
  await expect(dialog.getByText('Choose a document type.')).toBeVisible();
  await expect(dialog.getByText('Upload a photo of your document.')).toBeVisible();
  await snap(page, 'kyc-form-errors');

  await dialog.getByLabel('Full legal name').fill('Ada Lovelace');
  await dialog.getByLabel('Date of birth').fill('1990-12-10');
  await dialog.getByLabel('State or territory you live in').selectOption('CA');
  await dialog.getByLabel('Document type').selectOption('passport');
  await dialog.getByLabel('Document number').fill('X1234567');
  await dialog.getByLabel('Document image').setInputFiles({
    name: 'passport.png',
    mimeType: 'image/png',
    buffer: samplePng(),
  });
  await expect(dialog.getByRole('img', { name: 'Preview of your document' })).toBeVisible();
  await expect(dialog.getByText('passport.png')).toBeVisible();
  await snap(page, 'kyc-form-filled');

  await dialog.getByRole('button', { name: 'Submit for review' }).click();
  await expectToast(page, 'Your identity verification is under review.');
  await expect(dialog).toBeHidden();
  const tile = page.getByTestId('status-kyc');
  await expect(tile).toContainText('Under Review');
  await expect(tile.getByText('Done')).toHaveCount(0);
  await snap(page, 'dashboard-under-review');
});

test('the back office approves; the open dashboard shows Approved without a reload', async ({
  page,
  api,
}) => {
  const customer = await registerCustomer(
    api,
    `e2e-kyc-approve-${stamp}@example.com`,
    `+1${nextPhoneDigits()}`,
  );
  await submitKyc(api, customer);
  await gotoInteractive(page, '/');
  await page.evaluate((token) => localStorage.setItem('authToken', token), customer.token);
  await gotoInteractive(page, '/dashboard');
  const tile = page.getByTestId('status-kyc');
  await expect(tile).toContainText('Under Review');

  const response = await page.request.post('/api/dev/kyc/decide', {
    data: { userId: customer.userId, status: 'GREEN' },
    headers: { 'X-CSRF-Token': await pageCsrfToken(page) },
  });
  expect(response.status()).toBe(200);
  // The tile reads the status again every 10 seconds while it is under review.
  await expect(tile).toContainText('Approved', { timeout: 20_000 });
  await expect(tile.getByText('Done')).toHaveCount(1);
});

test('Add Bank on the dashboard opens the bank form', async ({ page, api }) => {
  const customer = await registerCustomer(api, `e2e-kyc-bank-${stamp}@example.com`, `+1${nextPhoneDigits()}`);
  // Approved, as a customer is by the time they add a bank: the tiles' picture shows both done.
  await api.post('/api/dev/kyc/decide', { userId: customer.userId, status: 'GREEN' });
  await gotoInteractive(page, '/');
  await page.evaluate((token) => localStorage.setItem('authToken', token), customer.token);
  await gotoInteractive(page, '/dashboard');

  await page.getByTestId('status-bank').getByRole('button', { name: 'Add Bank' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add bank account' });
  await expect(dialog.getByText('SWIFT is required for wire transfers.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Enter the account holder name.')).toBeVisible();
  await expect(dialog.getByText('Enter routing number or SWIFT code.')).toBeVisible();
  await snap(page, 'bank-form-errors');

  await dialog.getByLabel('Account holder name').fill('Ada Lovelace');
  await dialog.getByLabel('Account number').fill('000123456789');
  await dialog.getByLabel('Bank name').fill('First Cheyenne Bank');
  await dialog.getByLabel('Bank address').fill('1 Capitol Ave, Cheyenne, WY 82001');
  await dialog.getByLabel('Routing number').fill('021000021');
  await dialog.getByLabel('SWIFT code').fill('chasus33');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Bank account saved.');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('status-bank')).toContainText('Added');
  await expect(page.getByTestId('status-bank').getByText('Done')).toHaveCount(1);
  await snap(page, 'dashboard-tiles');

  // The server holds what the form sent, the SWIFT code upper-cased.
  const { settings } = await api.get<{ settings: { bankAccount: unknown } }>(
    `/api/user/settings?userId=${customer.userId}`,
    customer.token,
  );
  expect(settings.bankAccount).toEqual(BANK);
});

test('settings: the bank account shows on wide screens only', async ({ page, api }) => {
  const customer = await customerOnDashboard(page, api, 'bank-card');
  await api.post(
    '/api/user/settings/bank/save',
    { userId: customer.userId, bankAccount: BANK },
    customer.token,
  );

  await openSettings(page);
  const value = page.getByTestId('bank-card-value');
  await expect(value.getByText('First Cheyenne Bank')).toBeVisible();
  await expect(value.getByText('•••• 6789')).toBeVisible();
  await page.setViewportSize(MOBILE);
  await expect(value.getByText('First Cheyenne Bank')).toBeHidden();
  await expect(value.getByText('Added')).toBeVisible();
  await page.setViewportSize(DESKTOP);

  // The form opens with what is on file; Cancel changes nothing.
  await page.getByRole('button', { name: 'Edit bank account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit bank account' });
  await expect(dialog.getByLabel('SWIFT code')).toHaveValue('CHASUS33');
  await snap(page, 'bank-form');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});

test('settings: Zelle payment email', async ({ page, api }) => {
  const customer = await customerOnDashboard(page, api, 'zelle');
  await openSettings(page);

  await page.getByRole('button', { name: 'Add Zelle payment email' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Zelle payment email' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Enter zelle payment email.')).toBeVisible();
  await snap(page, 'zelle-form');
  await dialog.getByLabel('Zelle payment email').fill(`zelle-${stamp}@example.com`);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Zelle email saved.');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('zelle-card-value')).toContainText(`zelle-${stamp}@example.com`);
  const { settings } = await api.get<{ settings: { zelleEmail: string | null } }>(
    `/api/user/settings?userId=${customer.userId}`,
    customer.token,
  );
  expect(settings.zelleEmail).toBe(`zelle-${stamp}@example.com`);
});

test('settings: a testnet wallet address (a mainnet one is refused)', async ({ page, api }) => {
  const customer = await customerOnDashboard(page, api, 'wallet');
  await openSettings(page);

  await page.getByRole('button', { name: 'Add bitcoin wallet address' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add bitcoin wallet address' });
  await dialog.getByLabel('Bitcoin wallet address').fill(MAINNET_WALLET);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Enter Valid Bitcoin Address')).toBeVisible();
  await snap(page, 'wallet-form');
  await dialog.getByLabel('Bitcoin wallet address').fill(TESTNET_WALLET);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(
    page,
    'Wallet address saved. Open the link we e-mailed you to confirm it before we send bitcoin there.',
  );
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('wallet-card-value')).toContainText(
    `${TESTNET_WALLET.slice(0, 8)}...${TESTNET_WALLET.slice(-8)}`,
  );
  const { settings } = await api.get<{ settings: { walletAddress: string | null } }>(
    `/api/user/settings?userId=${customer.userId}`,
    customer.token,
  );
  expect(settings.walletAddress).toBe(TESTNET_WALLET);
});

test('settings: notification switches flip after the server answers and stay flipped', async ({
  page,
  api,
}) => {
  await customerOnDashboard(page, api, 'switches');
  await openSettings(page);

  const emailSwitch = switchNamed(page, 'Email notifications');
  const smsSwitch = switchNamed(page, 'SMS notifications');
  await expect(emailSwitch).toHaveAttribute('aria-checked', 'true');
  await expect(smsSwitch).toHaveAttribute('aria-checked', 'true');
  await emailSwitch.click();
  await expectToast(page, 'Email notifications are off.');
  await expect(emailSwitch).toHaveAttribute('aria-checked', 'false');
  await expect(smsSwitch).toBeEnabled();
  await smsSwitch.click();
  await expectToast(page, 'SMS notifications are off.');
  await expect(smsSwitch).toHaveAttribute('aria-checked', 'false');

  await page.reload();
  await expect(switchNamed(page, 'Email notifications')).toHaveAttribute('aria-checked', 'false');
  await expect(switchNamed(page, 'SMS notifications')).toHaveAttribute('aria-checked', 'false');
});

test('settings: the referral programme, and a referral code', async ({ page, api }) => {
  const customer = await customerOnDashboard(page, api, 'referral-code');
  await savePayoutDetails(api, customer);
  await openSettings(page);

  const card = page.getByTestId('referral-card');
  await expect(card.getByTestId('referral-total')).toContainText('$0.00');
  await expect(card.getByTestId('referral-total')).toHaveAttribute('href', '/referral-history');

  await card.getByRole('button', { name: 'How referrals work' }).click();
  const help = page.getByRole('dialog', { name: 'How referrals work' });
  await expect(help).toContainText('%');
  await snap(page, 'referral-help');
  await help.getByRole('button', { name: 'Start Referral' }).click();
  await expect(help).toBeHidden();

  await card.getByRole('button', { name: 'Generate Code' }).click();
  await expectToast(page, 'Referral code has been generated!');
  const code = card.getByTestId('referral-code');
  await expect(code).toHaveText(/^[A-Za-z0-9_-]{16}$/);
  const referralCode = (await code.textContent())!;
  await expect(card.getByRole('button', { name: 'Generate Code' })).toHaveCount(0);
  const link = `${new URL(page.url()).origin}/register/?ref=${referralCode}`;
  await expect(card.getByTestId('referral-link')).toHaveText(`${link.slice(0, 12)}...${link.slice(-12)}`);
  await expect(card.getByTestId('referral-link')).toHaveAttribute('title', link);
  await snap(page, 'settings');

  // The code is the customer's on the server, and stays theirs after a reload.
  const { settings } = await api.get<{ settings: { referralCode: string | null } }>(
    `/api/user/settings?userId=${customer.userId}`,
    customer.token,
  );
  expect(settings.referralCode).toBe(referralCode);
  await page.reload();
  await expect(page.getByTestId('referral-code')).toHaveText(referralCode);
});

test('referral history: empty for now, with a way back', async ({ page, api }) => {
  const customer = await customerOnDashboard(page, api, 'history');
  await openSettings(page);

  await page.getByTestId('referral-total').click();
  await expect(page).toHaveURL(/\/referral-history$/);
  await expect(page.getByText('No referral rewards available yet!')).toBeVisible();
  await snap(page, 'referral-history');

  // No trade has completed for this customer, so the screenshot of a filled history uses a made-up
  // answer.
  await page.route('**/api/referral/history?*', (route) =>
    route.fulfill({
      json: {
        referrals: [1, 2, 3].map((n) => ({
          _id: `r${n}`,
          referrer_id: `3f2b8c1e-9a4d-4c7e-8b1a-2d5e6f7a8b9${n}`,
          referred_id: customer.userId,
          platform_fee: 15.3 * n,
          reward_amount: 1.53 * n,
          order_id: `7d9e1f2a-3b4c-4d5e-9f60-718293a4b5c${n}`,
          createdAt: new Date(Date.UTC(2025, 2, n, 15, 6)).toISOString(),
        })),
      },
    }),
  );
  await page.reload();
  await expect(page.getByTestId('referral-history-table')).toContainText('3f2b8c...7a8b91');
  await expect(page.getByTestId('referral-history-table')).toContainText('$4.59');
  await snap(page, 'referral-history-rows');
  await page.unroute('**/api/referral/history?*');

  await page.getByRole('link', { name: 'Back to Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
});

test('a friend registers through the referral link and is recorded as referred', async ({
  page,
  api,
  browser,
}) => {
  test.setTimeout(90_000);
  const customer = await customerOnDashboard(page, api, 'referrer');
  const customerId = customer.userId;
  // 16 characters of A-Z, a-z, 0-9, _ and -, as the referral codes are.
  const referralCode = randomBytes(12).toString('base64url');
  await api.post('/api/user/settings/save', { userId: customerId, referralCode }, customer.token);
  await openSettings(page);
  await expect(page.getByTestId('referral-code')).toHaveText(referralCode);

  const friendContext = await browser.newContext({ viewport: DESKTOP });
  const friend = await friendContext.newPage();
  const friendEmail = `e2e-kyc-${stamp}-friend@example.com`;

  await registerInBrowser(
    friend,
    { email: friendEmail, phoneDigits: nextPhoneDigits(), referralCode },
    async (emailCode) => {
      // The server checks the code it is given: a code nobody has is refused (and the e-mail code
      // stays usable), so the successful registration below really carried this customer's code.
      const refused = await friend.request.post('/api/verification/verify/otp', {
        data: { email: friendEmail, code: emailCode, referralCode: 'NoSuchCode000000' },
        headers: { 'X-CSRF-Token': await pageCsrfToken(friend) },
      });
      expect(refused.status()).toBe(400);
      expect(((await refused.json()) as { message: string }).message).toMatch(
        /referral code does not exist/i,
      );
    },
  );
  await expect(friend.getByTestId('status-kyc').getByRole('button', { name: 'Verify KYC' })).toBeVisible();
  const friendId = await sessionUserId(friend);

  await test.step('the back office shows the friend as referred by the customer', async () => {
    const { user } = await api.get<{ user: { email: string; referredBy: string | null } }>(
      `/api/admin/users/${friendId}`,
      await adminToken(api),
    );
    expect(user).toMatchObject({ email: friendEmail, referredBy: customerId });
  });

  await test.step('another customer cannot read these settings', async () => {
    const forbidden = await friend.request.get(`/api/user/settings?userId=${customerId}`, {
      headers: { Authorization: `Bearer ${await sessionToken(friend)}` },
    });
    expect(forbidden.status()).toBe(403);
    const own = await friend.request.get(`/api/user/settings?userId=${friendId}`, {
      headers: { Authorization: `Bearer ${await sessionToken(friend)}` },
    });
    expect(own.status()).toBe(200);
    const kyc = await friend.request.get(`/api/kyc/${customerId}`, {
      headers: { Authorization: `Bearer ${await sessionToken(friend)}` },
    });
    expect(kyc.status()).toBe(403);
  });
  await friendContext.close();

  await test.step("the customer's code is still theirs after a reload", async () => {
    await page.reload();
    await expect(page.getByTestId('referral-code')).toHaveText(referralCode);
  });
});
