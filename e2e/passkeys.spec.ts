/// <reference lib="dom" />
import { expect } from '@playwright/test';
import { test } from './support/fixtures';
import { addVirtualAuthenticator } from './support/virtual-authenticator';
import { registerCustomer, signedInPage } from './support/api';
import { gotoInteractive } from './support/interactive';
import { nextPhoneDigits } from './support/run-state';
import { DESKTOP, snapAtWidths } from './support/screens';

// Passkeys end to end, on the real server in demo mode, with Chromium's virtual authenticator (CDP
// WebAuthn domain) standing in for the person's phone or laptop: register a passkey in Settings, log out,
// log in with the passkey alone, add a payout address confirmed by the passkey, and see the same API
// call refused without the assertion. Screenshots at 390 and 1280 px go to e2e/.screens/.
const stamp = Date.now();

test('register a passkey, log in with it alone, and confirm a new payout address with it', async ({
  api,
  browser,
}) => {
  const customer = await registerCustomer(api, `passkey-${stamp}@example.com`, `+1${nextPhoneDigits()}`);
  const page = await signedInPage(browser, customer.token, DESKTOP);
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page, 'internal');

  // Settings → Passkeys: name it and add it; the browser's dialog is answered by the virtual device.
  await gotoInteractive(page, '/settings');
  const card = page.getByTestId('passkeys-card');
  await expect(card).toContainText('No passkeys yet.');
  await card.getByLabel('Passkey name').fill('My laptop');
  await card.getByRole('button', { name: 'Add passkey' }).click();
  await expect(card.getByTestId('passkey-entry')).toContainText('My laptop');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);
  await card.scrollIntoViewIfNeeded();
  await snapAtWidths(page, 'passkeys', 'settings-card');

  // Log out, then log in with the passkey alone: no e-mail, no code.
  await page.getByTestId('account-menu-button').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await gotoInteractive(page, '/login');
  await snapAtWidths(page, 'passkeys', 'login');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  const token = await page.evaluate(() => localStorage.getItem('authToken'));
  expect(token).not.toBeNull();
  expect(token).not.toBe(customer.token);

  // A new payout address: the server asks for the passkey, the browser asks the device, the call goes
  // again with the assertion.
  await gotoInteractive(page, '/settings');
  const book = page.getByTestId('address-book-card');
  await book.getByRole('button', { name: 'Add payout address' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add payout address' });
  await dialog.getByLabel('Label').fill('Cold storage');
  await dialog
    .getByLabel('Bitcoin address or extended public key')
    .fill('tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl');
  await dialog.getByRole('button', { name: 'Add address' }).click();
  await expect(dialog).toBeHidden();
  await expect(book.getByTestId('address-book-entry')).toContainText('Cold storage');
  await snapAtWidths(page, 'passkeys', 'address-added');

  // The same call without the assertion is refused.
  const refused = await api.context.post('/api/payout-addresses', {
    data: { label: 'Thief', address: 'tb1qd7spv5q28348xl4myc8zmh983w5jx32cjhkn97' },
    headers: { 'X-CSRF-Token': api.csrf, Authorization: `Bearer ${token}` },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({
    code: 'PASSKEY_STEP_UP_REQUIRED',
    message: 'Confirm this change with your passkey.',
  });
  const { payoutAddresses } = await api.get<{ payoutAddresses: { label: string }[] }>(
    '/api/payout-addresses',
    token!,
  );
  expect(payoutAddresses.map((entry) => entry.label)).toEqual(['Cold storage']);
  await page.context().close();
});
