/// <reference lib="dom" />
import { expect, type Page } from '@playwright/test';
import { test } from './support/fixtures';
import { apiClient, logIn, registerCustomer, type Api, type Customer } from './support/api';
import { latestCode, sessionToken, sessionUserId } from './support/customers';
import { nextPhoneDigits } from './support/run-state';
import { gotoInteractive } from './support/interactive';
import { DESKTOP, MOBILE, screenPath, snapAtWidths } from './support/screens';

// Customer accounts end to end, on the real server in demo mode: registration in four steps, logout,
// the guards, login with an e-mail code, the profile in settings, the dashboard's Verify Phone dialog,
// and that one customer cannot read another's profile. Codes are read from the demo outbox. Each test
// but the registration starts from a customer it registers through the API.

const stamp = Date.now();

/** Each test's API client, like a second browser. */
/** Full-page screenshots of the current screen at desktop and phone width, for a human to look at. */
const snap = (page: Page, name: string) => snapAtWidths(page, 'accounts', name);

/** A customer of the test's own, registered through the API with e-mail and phone verified. */
function newCustomer(api: Api, label: string): Promise<Customer> {
  return registerCustomer(api, `e2e-${label}-${stamp}@example.com`, `+1${nextPhoneDigits()}`);
}

/** Puts the customer's session in the page's storage, as after a login. */
async function signIn(page: Page, customer: Customer) {
  await gotoInteractive(page, '/');
  await page.evaluate((token) => localStorage.setItem('authToken', token), customer.token);
}

test.use({ viewport: DESKTOP });

test('a customer registers in four steps and lands on the dashboard with e-mail and phone verified', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const email = `e2e-${stamp}@example.com`;
  const digits = nextPhoneDigits();
  const phone = `+1${digits}`;

  await test.step('step 1: e-mail, with the referral code prefilled from /register/?ref=', async () => {
    await gotoInteractive(page, '/register/?ref=FRIEND42');
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

    await page.getByLabel('Phone number', { exact: true }).fill(digits);
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

  await test.step('the server holds the account as registered, and the session is its own', async () => {
    const me = await page.request.get(`/api/user/${await sessionUserId(page)}`, {
      headers: { Authorization: `Bearer ${await sessionToken(page)}` },
    });
    expect(me.status()).toBe(200);
    expect(((await me.json()) as { user: unknown }).user).toMatchObject({
      email,
      phoneNumber: phone,
      email_verified: true,
      phone_verified: true,
      role: 'customer',
    });
  });
});

test('logout goes home, and the dashboard is closed to visitors', async ({ page, api }) => {
  const customer = await newCustomer(api, 'logout');
  await signIn(page, customer);
  await gotoInteractive(page, '/dashboard');

  await page.getByTestId('account-menu-button').click();
  await expect(page.getByRole('menu', { name: 'Account' })).toContainText(customer.email);
  await page.screenshot({ path: screenPath(`accounts-account-menu-1280.png`) });
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();

  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/$/);
});

test('login with an e-mail code; signed in, /login and /register lead to the dashboard', async ({
  page,
  api,
}) => {
  const { email } = await newCustomer(api, 'login');

  await gotoInteractive(page, '/login');
  await page.getByLabel('Email').fill(email);
  const sentAt = Date.now() - 2000;
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'OTP Verification' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Time: 00:/ })).toBeDisabled();
  await snap(page, 'login-otp');
  await page.getByLabel('Verification code').fill(await latestCode(page.request, email, sentAt));
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await gotoInteractive(page, '/login');
  await expect(page).toHaveURL(/\/dashboard$/);
  await gotoInteractive(page, '/register');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('settings: edit the name', async ({ page, api }) => {
  const customer = await newCustomer(api, 'profile');
  const { email } = customer;
  await signIn(page, customer);
  await gotoInteractive(page, '/dashboard');

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

test('the side drawer on a phone', async ({ page, api }) => {
  await signIn(page, await newCustomer(api, 'drawer'));
  await gotoInteractive(page, '/dashboard');

  await page.setViewportSize(MOBILE);
  const toggle = page.getByTestId('dashboard-menu-toggle');
  const drawer = page.getByTestId('dashboard-drawer');
  await expect(drawer).toBeHidden();
  await toggle.click();
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'OffZero dashboard' })).toHaveAttribute('href', '/dashboard');
  await expect(drawer.getByRole('link', { name: 'OffZero on X' })).toHaveAttribute('href', /^https?:\/\//);
  // Let the slide-in finish before the picture.
  await expect.poll(async () => (await drawer.boundingBox())?.x).toBe(0);
  await page.screenshot({ path: screenPath(`accounts-drawer-390.png`) });
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await toggle.click();
  await drawer.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(drawer).toBeHidden();
  await page.setViewportSize(DESKTOP);
});

test('the demo outbox lists the codes sent to an address, newest first', async ({ page, api }) => {
  // Two e-mail codes: the registration's and a login code.
  const customer = await newCustomer(api, 'outbox');
  const sentAt = Date.now() - 2000;
  await api.post('/api/user/login-otp/send', { email: customer.email });
  const loginCode = await latestCode(api.context, customer.email, sentAt);

  await page.goto(`/dev/outbox?to=${encodeURIComponent(customer.email)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Demo outbox' })).toBeVisible();
  await expect(
    page.getByText('In demo mode no e-mail or SMS leaves this machine.', { exact: false }),
  ).toBeVisible();
  await expect(page.getByTestId('outbox-messages').getByRole('listitem')).toHaveCount(2);
  await expect(page.getByTestId('outbox-code').first()).toHaveText(/^\d{6}$/);
  await expect(page.getByTestId('outbox-code').first()).toHaveText(loginCode);
  await snap(page, 'outbox');
});

test('another customer cannot read a profile, and verifies a phone from the dashboard', async ({
  page,
  api,
  baseURL,
}) => {
  const first = await newCustomer(api, 'profile-owner');
  const other = await apiClient(baseURL!);
  const otherEmail = `e2e-${stamp}-b@example.com`;
  const otherPhone = nextPhoneDigits();

  // The second customer verifies an e-mail only, then logs in: no phone yet.
  const sentAt = Date.now() - 2000;
  await other.post('/api/verification/email/otp', { email: otherEmail, purpose: 'new account' });
  await other.post('/api/verification/verify/otp', {
    email: otherEmail,
    code: await latestCode(other.context, otherEmail, sentAt),
  });
  const { token: otherToken, userId: otherId } = await logIn(other, otherEmail);

  const forbidden = await other.context.get(`/api/user/${first.userId}`, {
    headers: { Authorization: `Bearer ${otherToken}` },
  });
  expect(forbidden.status()).toBe(403);
  const own = await other.context.get(`/api/user/${otherId}`, {
    headers: { Authorization: `Bearer ${otherToken}` },
  });
  expect(own.status()).toBe(200);

  // The second customer, signed in in the browser, has no phone yet: the dashboard offers to verify it.
  await gotoInteractive(page, '/');
  await page.evaluate((token) => localStorage.setItem('authToken', token), otherToken);
  await gotoInteractive(page, '/dashboard');
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

  await other.dispose();
});

test('settings: a verified phone changes only after the security code sent to the e-mail', async ({
  page,
  api,
}) => {
  const customer = await newCustomer(api, 'change-phone');
  await signIn(page, customer);
  await page.goto('/settings');
  const card = page.getByTestId('profile-card');
  await expect(card.getByText('Verified')).toHaveCount(2);
  await snap(page, 'settings-contact-actions');

  await card.getByRole('button', { name: 'Change phone' }).click();
  const stepUp = page.getByRole('dialog', { name: 'Change your phone' });
  await expect(stepUp).toContainText(customer.email);
  await stepUp.getByRole('button', { name: 'Send security code' }).click();
  // Once the server has answered, the newest code to the address is the security code.
  await expect(page.getByText(`We sent a security code to ${customer.email}.`)).toBeVisible();
  await stepUp.getByLabel('Verification code').fill(await latestCode(page.request, customer.email));
  await snap(page, 'settings-change-phone-step-up');
  await stepUp.getByRole('button', { name: 'Continue' }).click();

  const newPhone = nextPhoneDigits();
  const phoneDialog = page.getByRole('dialog', { name: 'Verify your phone' });
  await phoneDialog.getByLabel('Phone number', { exact: true }).fill(newPhone);
  await phoneDialog.getByRole('button', { name: 'Send code' }).click();
  const codeDialog = page.getByRole('dialog', { name: 'Enter the code' });
  await codeDialog.getByLabel('Verification code').fill(await latestCode(page.request, `+1${newPhone}`));
  await codeDialog.getByRole('button', { name: 'Verify phone' }).click();
  await expect(codeDialog).toBeHidden();
  await expect(card).toContainText(newPhone.slice(-4));

  // The old number was told of the change.
  await expect
    .poll(async () => {
      const response = await page.request.get(`/api/dev/outbox?to=${encodeURIComponent(customer.phone)}`);
      const { messages } = (await response.json()) as { messages: { subject: string }[] };
      return messages.map((message) => message.subject);
    })
    .toContain('Phone number changed');
});
