/// <reference lib="dom" />
import { expect, type Page } from '@playwright/test';
import { test } from './support/fixtures';
import {
  adminToken,
  orderOf,
  registerCustomer,
  saveBuy,
  signedInPage,
  TESTNET_WALLET,
  type Api,
  type Customer,
} from './support/api';
import { nextPhoneDigits } from './support/run-state';
import { DESKTOP, MOBILE, snapAsIs } from './support/screens';

// The payout address book end to end, on the real server in demo mode: a customer adds an address in
// Settings, opens the confirmation link from the demo mailbox, sees it usable (demo has no cooldown),
// buys with Zelle, and the back office pays the bitcoin to that address. Screenshots at phone and
// desktop width go to e2e/.screens/.
const stamp = Date.now();

const snap = (page: Page, name: string) => snapAsIs(page, 'payout-addresses', name);

async function newCustomer(api: Api, label: string): Promise<Customer> {
  const customer = await registerCustomer(
    api,
    `book-${label}-${stamp}@example.com`,
    `+1${nextPhoneDigits()}`,
  );
  // Approved four days ago: an established customer, past the scam shield's new-customer rules.
  await api.post('/api/dev/kyc/decide', {
    userId: customer.userId,
    status: 'GREEN',
    approvedAt: new Date(Date.now() - 4 * 24 * 3_600_000).toISOString(),
  });
  return customer;
}

/** The path and query of the newest address confirmation link in the customer's demo mailbox. */
async function confirmationLink(api: Api, customer: Customer): Promise<string> {
  let link = '';
  await expect
    .poll(async () => {
      const { messages } = await api.get<{ messages: { text: string }[] }>(
        `/api/dev/outbox?to=${encodeURIComponent(customer.email)}`,
      );
      const match = messages
        .map((message) =>
          /https?:\/\/[^/\s]+(\/settings\/payout-addresses\/confirm\?[^\s]+)/.exec(message.text),
        )
        .find(Boolean);
      link = match?.[1] ?? '';
      return link;
    })
    .not.toBe('');
  return link;
}

test('add an address, confirm it from the e-mail, and a buy pays it', async ({ api, browser }) => {
  const customer = await newCustomer(api, 'journey');
  const page = await signedInPage(browser, customer.token, DESKTOP);
  await page.goto('/settings');
  const card = page.getByTestId('address-book-card');
  await expect(card).toContainText('No payout addresses yet.');

  // Add: a label and the address.
  await card.getByRole('button', { name: 'Add payout address' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add payout address' });
  await dialog.getByLabel('Label').fill('Hardware wallet');
  await dialog.getByLabel('Bitcoin address or extended public key').fill(TESTNET_WALLET);
  await snap(page, 'add-1280');
  await dialog.getByRole('button', { name: 'Add address' }).click();
  await expect(dialog).toBeHidden();
  const entry = card.getByTestId('address-book-entry');
  await expect(entry).toHaveAttribute('data-status', 'unconfirmed');
  await expect(entry).toContainText('Hardware wallet');
  await expect(entry).toContainText('Waiting for you to open the confirmation link');
  await snap(page, 'unconfirmed-1280');

  // A private key is refused with a warning.
  await card.getByRole('button', { name: 'Add payout address' }).click();
  await dialog.getByLabel('Label').fill('Oops');
  await dialog
    .getByLabel('Bitcoin address or extended public key')
    .fill(
      'tprv8fSjiqEQ8YG7Ro7gw2ScwcvweYuuWi1ZzGUtrPz918HvDtBzL5s2voFTrN4y3yUwj5cYD54pLhxk6NKCzHUjcka3zbKjbTEcsuAnkzbjhkL',
    );
  await dialog.getByRole('button', { name: 'Add address' }).click();
  await expect(dialog).toContainText('This is a PRIVATE key');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // The e-mailed link confirms it.
  const link = await confirmationLink(api, customer);
  await page.goto(link);
  const confirmed = page.getByTestId('confirm-payout-address');
  await expect(confirmed).toHaveAttribute('data-state', 'confirmed');
  await expect(confirmed).toContainText('Address confirmed. Payouts can go to it now.');
  await snap(page, 'confirmed-1280');

  await page.goto('/settings');
  await expect(entry).toHaveAttribute('data-status', 'usable');
  await expect(entry).toContainText('Usable since');
  await entry.getByRole('button', { name: 'Prove ownership' }).click();
  const proof = page.getByRole('dialog', { name: 'Prove you own this address' });
  await expect(proof.getByTestId('proof-message')).toHaveText(
    `OffZero address ownership: ${customer.userId} ${TESTNET_WALLET}`,
  );
  await snap(page, 'proof-1280');
  await proof
    .getByLabel('Signature')
    .fill(
      'AkcwRAIgM2gBAQqvZX15ZiysmKmQpDrG83avLIT492QBzLnQIxYCIBaTpOaD20qRlEylyxFSeEA2ba9YOixpX8z46TSDtS40ASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI=',
    );
  await proof.getByRole('button', { name: 'Check signature' }).click();
  await expect(proof).toContainText('This signature does not prove ownership');
  await proof.getByRole('button', { name: 'Cancel' }).click();

  const phone = await signedInPage(browser, customer.token, MOBILE);
  await phone.goto('/settings');
  await expect(phone.getByTestId('address-book-entry')).toHaveAttribute('data-status', 'usable');
  await phone.getByTestId('address-book-card').scrollIntoViewIfNeeded();
  await snap(phone, 'usable-390');

  // A Zelle buy to that address: staff mark it received and the demo chain pays it.
  const order = await saveBuy(api, customer, 120);
  await api.post(
    '/api/order/update',
    { _id: order._id, payment: { method: 'zelle' }, status: 'processing' },
    customer.token,
  );
  const staff = await adminToken(api);
  await api.post(`/api/admin/orders/${order._id}/mark-paid`, { note: 'Seen in the Zelle inbox' }, staff);
  const detail = await api.get<{ payoutDestination: { due: boolean; address: string } }>(
    `/api/admin/orders/${order._id}`,
    staff,
  );
  expect(detail.payoutDestination).toMatchObject({ due: true, address: TESTNET_WALLET });
  await api.post(`/api/admin/orders/${order._id}/send-btc`, {}, staff);
  const paid = await orderOf(api, customer, order._id);
  expect(paid).toMatchObject({ status: 'completed', walletAddress: TESTNET_WALLET });
  expect(paid.txn).toMatch(/^[0-9a-f]{64}$/);
});

test('a buy to a new address waits until the customer confirms it', async ({ api }) => {
  const customer = await newCustomer(api, 'waits');
  const order = await saveBuy(api, customer, 90);
  await api.post(
    '/api/order/update',
    { _id: order._id, payment: { method: 'zelle' }, status: 'processing' },
    customer.token,
  );
  const staff = await adminToken(api);
  await api.post(`/api/admin/orders/${order._id}/mark-paid`, {}, staff);
  const refused = await api.context.post(`/api/admin/orders/${order._id}/send-btc`, {
    data: {},
    headers: { 'X-CSRF-Token': api.csrf, Authorization: `Bearer ${staff}` },
  });
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { message: string }).message).toBe(
    'The payout waits until the customer confirms the address from the link we e-mailed them.',
  );
});
