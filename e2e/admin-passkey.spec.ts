/// <reference lib="dom" />
import { expect } from '@playwright/test';
import { test } from './support/fixtures';
import { addVirtualAuthenticator } from './support/virtual-authenticator';
import { registerCustomer, signedInPage } from './support/api';
import { latestCode } from './support/customers';
import { gotoInteractive } from './support/interactive';
import { nextPhoneDigits } from './support/run-state';
import { DESKTOP, snapAtWidths } from './support/screens';
import { PASSKEY_ADMIN_EMAIL } from './support/staff';

// An admin's passkey as the second factor (docs/design.md, "Passkeys"), on the real server in demo mode
// with Chromium's virtual authenticator: a new operator (listed in the suite's ADMIN_EMAILS, so the demo
// admins other specs sign in with keep their e-mail code alone) adds a passkey on the back office's
// Security page, logs out, and signs in again with the e-mail code and then "Use a passkey instead".
// Screenshots at 390 and 1280 px go to e2e/.screens/.

test('a new admin adds a passkey and signs in with it as the second factor', async ({ api, browser }) => {
  const admin = await registerCustomer(api, PASSKEY_ADMIN_EMAIL, `+1${nextPhoneDigits()}`);
  const page = await signedInPage(browser, admin.token, DESKTOP);
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page, 'usb');

  // Back office → Security: name the passkey and add it; the virtual key answers the browser's dialog.
  await gotoInteractive(page, '/admin/security');
  const card = page.getByTestId('passkeys-card');
  await expect(card).toContainText('No passkeys yet.');
  await card.getByLabel('Passkey name').fill('Security key');
  await card.getByRole('button', { name: 'Add passkey' }).click();
  await expect(card.getByTestId('passkey-entry')).toContainText('Security key');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  const mfa = await api.get<{ enrolled: boolean }>('/api/admin/mfa', admin.token);
  expect(mfa.enrolled).toBe(true);
  await snapAtWidths(page, 'admin-passkey', 'security');

  await page.getByRole('navigation', { name: 'Back office' }).getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);

  // The e-mail code first; the passkey is asked for as the second step, instead of an app's code.
  await gotoInteractive(page, '/login');
  await page.getByLabel('Email').fill(PASSKEY_ADMIN_EMAIL);
  let sentAt = 0;
  // Registration sent this address a code moments ago: a new one may be asked for 10 s later.
  await expect(async () => {
    sentAt = Date.now() - 2000;
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'OTP Verification' })).toBeVisible({
      timeout: 3_000,
    });
  }).toPass({ intervals: [2_000], timeout: 20_000 });
  await page
    .getByLabel('Verification code')
    .fill(await latestCode(page.request, PASSKEY_ADMIN_EMAIL, sentAt));
  await page.getByRole('button', { name: 'Log in' }).click();
  const usePasskey = page.getByRole('button', { name: 'Use a passkey instead' });
  await expect(usePasskey).toBeVisible();
  // An authenticator app's code is not in the demo outbox: the step does not send the admin there.
  await expect(page.getByRole('link', { name: /demo outbox/ })).toHaveCount(0);
  await snapAtWidths(page, 'admin-passkey', 'second-step');

  await usePasskey.click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const token = await page.evaluate(() => localStorage.getItem('authToken'));
  expect(token).not.toBeNull();
  expect(token).not.toBe(admin.token);
  // The passkey was used: its signature counter moved on.
  const [used] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  expect(used!.signCount).toBeGreaterThan(credentials[0]!.signCount);

  // The new session is an admin's: the console opens.
  await gotoInteractive(page, '/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Work queue' })).toBeVisible();
  await page.context().close();
});
