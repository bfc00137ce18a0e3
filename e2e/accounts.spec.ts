/// <reference lib="dom" />
import {
  test,
  expect,
  request as playwrightRequest,
  type APIRequestContext,
  type Page,
} from '@playwright/test';
import { fileURLToPath } from 'node:url';

// Customer accounts end to end, on the real server in demo mode: registration in four steps, logout,
// the guards, login with an e-mail code, the profile in settings, the dashboard's Verify Phone dialog,
// and that one customer cannot read another's profile. Codes are read from the demo outbox.
const screensDir = fileURLToPath(new URL('./.screens/', import.meta.url));

const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 390, height: 844 };

const stamp = Date.now();
// Distinct, valid US numbers for this run (the 202-555-01xx block is reserved for fiction).
const phoneDigits = (offset: number) => `202555${String((stamp + offset) % 10_000).padStart(4, '0')}`;

interface OutboxMessage {
  to: string;
  channel: 'email' | 'sms';
  subject: string;
  code: string | null;
  createdAt: string;
}

/** The newest code sent to `to`, waiting for it to arrive; `notBefore` skips older messages. */
async function latestCode(request: APIRequestContext, to: string, notBefore = 0): Promise<string> {
  let code: string | null = null;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
        expect(response.ok()).toBe(true);
        const { messages } = (await response.json()) as { messages: OutboxMessage[] };
        const newest = messages.find((message) => message.code && Date.parse(message.createdAt) >= notBefore);
        code = newest?.code ?? null;
        return code;
      },
      { message: `a code for ${to}`, timeout: 10_000 },
    )
    .toMatch(/^\d{6}$/);
  return code!;
}

/** Full-page screenshots of the current screen at desktop and phone width, for a human to look at. */
async function snap(page: Page, name: string) {
  for (const [label, size] of [
    ['1280', DESKTOP],
    ['390', MOBILE],
  ] as const) {
    await page.setViewportSize(size);
    await page.evaluate(() => document.fonts.ready);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${label}px is wider than the viewport`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${screensDir}accounts-${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

/** Reads the user id out of the stored session token (its payload is plain base64url JSON). */
async function sessionUserId(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('authToken'));
  expect(token).toBeTruthy();
  const payload = JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString('utf8')) as {
    _id: string;
  };
  return payload._id;
}

/** A client of the API alone, with its own cookies and security token, like a second browser. */
async function apiClient(baseURL: string) {
  const context = await playwrightRequest.newContext({ baseURL });
  const { _csrf } = (await (await context.get('/api/csrf')).json()) as { _csrf: string };
  const post = async (path: string, data: object, token?: string) => {
    const response = await context.post(path, {
      data,
      headers: { 'X-CSRF-Token': _csrf, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status(), `${path}: ${String(body.message)}`).toBe(200);
    return body;
  };
  return { context, post };
}

test.use({ viewport: DESKTOP });

test('a customer registers in four steps, logs out, logs back in and edits their name', async ({ page }) => {
  test.setTimeout(120_000);
  const email = `e2e-${stamp}@example.com`;
  const phone = `+1${phoneDigits(0)}`;

  await test.step('step 1: e-mail, with the referral code prefilled from /register/?ref=', async () => {
    await page.goto('/register/?ref=FRIEND42');
    await expect(page.getByRole('heading', { level: 1, name: 'Register Your Account' })).toBeVisible();
    const referral = page.getByLabel(/Referral Code/);
    await expect(referral).toHaveValue('FRIEND42');
    // No customer has this code in a fresh database, so this customer registers without one.
    await referral.fill('');

    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Enter a valid email').first()).toBeVisible();
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Enter a valid email').first()).toBeVisible();

    await page.getByLabel('Email').fill(email);
    await snap(page, 'register-1-email');
    await page.getByRole('button', { name: 'Continue' }).click();
  });

  await test.step('step 2: the e-mail code, after asking for a new one', async () => {
    await expect(page.getByRole('heading', { level: 1, name: 'Verify your email' })).toBeVisible();
    await expect(page.getByText(`We sent a 6-digit code to ${email}.`)).toBeVisible();
    await expect(page.getByRole('button', { name: /^Time: 00:(10|0\d)$/ })).toBeDisabled();

    await page.getByRole('button', { name: 'Verify email' }).click();
    await expect(page.getByText('Provide OTP code').first()).toBeVisible();
    await snap(page, 'register-2-verify-email');

    const resend = page.getByRole('button', { name: "Didn't recieve code?" });
    await expect(resend).toBeEnabled({ timeout: 15_000 });
    const resentAt = Date.now() - 2000;
    await resend.click();
    await expect(page.getByText(`We sent a new code to ${email}.`)).toBeVisible();
    await expect(page.getByRole('button', { name: /^Time: 00:(10|0\d)$/ })).toBeDisabled();

    await page.getByLabel('Verification code').fill(await latestCode(page.request, email, resentAt));
    await page.getByRole('button', { name: 'Verify email' }).click();
  });

  await test.step('step 3: the phone number', async () => {
    await expect(page.getByRole('heading', { level: 1, name: 'Add your phone number' })).toBeVisible();
    await expect(page.getByText('We will send you 6 digit verification code')).toBeVisible();
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByText('Provide a valid phone number').first()).toBeVisible();

    await page.getByLabel('Phone number', { exact: true }).fill(phoneDigits(0));
    await snap(page, 'register-3-phone');
    await page.getByRole('button', { name: 'Send code' }).click();
  });

  await test.step('step 4: the SMS code signs the new customer in', async () => {
    await expect(page.getByRole('heading', { level: 1, name: 'Verify your phone' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Time: 00:/ })).toBeDisabled();
    await snap(page, 'register-4-verify-phone');
    await page.getByLabel('Verification code').fill(await latestCode(page.request, phone));
    await page.getByRole('button', { name: 'Verify and finish' }).click();
  });

  await test.step('the dashboard shows e-mail and phone verified', async () => {
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('status-email')).toContainText('Verified');
    await expect(page.getByTestId('status-phone')).toContainText('Verified');
    await expect(page.getByTestId('status-phone')).toContainText('+1 202 555');
    await expect(page.getByRole('link', { name: 'Help?' })).toHaveAttribute('href', /^mailto:/);
    const nav = page.getByRole('navigation', { name: 'Account' });
    await expect(nav.getByRole('link', { name: 'My Orders' })).toHaveAttribute('href', '/orders');
    await expect(nav.getByRole('link', { name: 'Admin' })).toHaveCount(0);
    await snap(page, 'dashboard');
  });

  const firstCustomerId = await sessionUserId(page);

  await test.step('logout goes home, and the dashboard is closed to visitors', async () => {
    await page.getByTestId('account-menu-button').click();
    await expect(page.getByRole('menu', { name: 'Account' })).toContainText(email);
    await page.screenshot({ path: `${screensDir}accounts-account-menu-1280.png` });
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/$/);
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();

    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/$/);
  });

  await test.step('login with an e-mail code', async () => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    const sentAt = Date.now() - 2000;
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'OTP Verification' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Time: 00:/ })).toBeDisabled();
    await snap(page, 'login-otp');
    await page.getByLabel('Verification code').fill(await latestCode(page.request, email, sentAt));
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/register');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  await test.step('settings: edit the name', async () => {
    await page.getByTestId('account-menu-button').click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    const card = page.getByTestId('profile-card');
    await expect(card.getByText('Personal information')).toBeVisible();
    await expect(card).toContainText(email);
    await expect(card.getByText('Verified')).toHaveCount(2);
    await snap(page, 'settings');

    await card.getByRole('button', { name: 'Edit personal information' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit personal information' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('First name')).toBeFocused();
    await expect(dialog.getByLabel('Email')).toHaveAttribute('readonly', '');

    // Cancel leaves everything as it was.
    await dialog.getByLabel('First name').fill('Nobody');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(card).not.toContainText('Nobody');

    await card.getByRole('button', { name: 'Edit personal information' }).click();
    await dialog.getByLabel('First name').fill('Ada');
    await dialog.getByLabel('Last name').fill('Lovelace');
    await snap(page, 'settings-edit');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Profile updated.')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(card).toContainText('Ada');
    await expect(card).toContainText('Lovelace');

    await page.reload();
    await expect(page.getByTestId('profile-card')).toContainText('Lovelace');
    await page
      .getByRole('navigation', { name: 'Account' })
      .getByRole('link', { name: 'Dashboard', exact: true })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Ada' })).toBeVisible();
  });

  await test.step('the side drawer on a phone', async () => {
    await page.setViewportSize(MOBILE);
    const toggle = page.getByTestId('dashboard-menu-toggle');
    const drawer = page.getByTestId('dashboard-drawer');
    await expect(drawer).toBeHidden();
    await toggle.click();
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole('link', { name: 'OffZero dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
    await expect(drawer.getByRole('link', { name: 'OffZero on X' })).toHaveAttribute('href', /^https?:\/\//);
    // Let the slide-in finish before the picture.
    await expect.poll(async () => (await drawer.boundingBox())?.x).toBe(0);
    await page.screenshot({ path: `${screensDir}accounts-drawer-390.png` });
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await toggle.click();
    await drawer.getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(drawer).toBeHidden();
    await page.setViewportSize(DESKTOP);
  });

  await test.step('the demo outbox lists the codes', async () => {
    await page.goto(`/dev/outbox?to=${encodeURIComponent(email)}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Demo outbox' })).toBeVisible();
    await expect(
      page.getByText('In demo mode no e-mail or SMS leaves this machine.', { exact: false }),
    ).toBeVisible();
    await expect(page.getByTestId('outbox-messages').getByRole('listitem')).toHaveCount(3);
    await expect(page.getByTestId('outbox-code').first()).toHaveText(/^\d{6}$/);
    await snap(page, 'outbox');
  });

  await test.step('another customer cannot read this profile, and verifies a phone from the dashboard', async () => {
    const baseURL = new URL(page.url()).origin;
    const other = await apiClient(baseURL);
    const otherEmail = `e2e-${stamp}-b@example.com`;
    const otherPhone = phoneDigits(1);

    const sentAt = Date.now() - 2000;
    await other.post('/api/verification/email/otp', { email: otherEmail, purpose: 'new account' });
    await other.post('/api/verification/verify/otp', {
      email: otherEmail,
      code: await latestCode(other.context, otherEmail, sentAt),
    });
    await other.post('/api/user/login-otp/send', { email: otherEmail });
    const login = await other.post('/api/user/login-otp/verify', {
      email: otherEmail,
      code: await latestCode(other.context, otherEmail, Date.now() - 1500),
    });
    const otherToken = login.token as string;
    const otherId = (login.user as { _id: string })._id;

    const forbidden = await other.context.get(`/api/user/${firstCustomerId}`, {
      headers: { Authorization: `Bearer ${otherToken}` },
    });
    expect(forbidden.status()).toBe(403);
    const own = await other.context.get(`/api/user/${otherId}`, {
      headers: { Authorization: `Bearer ${otherToken}` },
    });
    expect(own.status()).toBe(200);

    // The second customer, signed in in the browser, has no phone yet: the dashboard offers to verify it.
    await page.evaluate((token) => localStorage.setItem('authToken', token), otherToken);
    await page.goto('/dashboard');
    const phoneTile = page.getByTestId('status-phone');
    await phoneTile.getByRole('button', { name: 'Verify Phone' }).click();
    const dialog = page.getByRole('dialog', { name: 'Verify your phone' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Phone number', { exact: true }).fill(otherPhone);
    await snap(page, 'dashboard-verify-phone');
    await dialog.getByRole('button', { name: 'Send code' }).click();
    const codeDialog = page.getByRole('dialog', { name: 'Enter the code' });
    await expect(codeDialog).toBeVisible();
    await codeDialog.getByLabel('Verification code').fill(await latestCode(page.request, `+1${otherPhone}`));
    await codeDialog.getByRole('button', { name: 'Verify phone' }).click();
    await expect(codeDialog).toBeHidden();
    await expect(phoneTile).toContainText('Verified');

    await other.context.dispose();
  });
});
