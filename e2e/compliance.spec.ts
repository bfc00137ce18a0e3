/// <reference lib="dom" />
import { expect, type Page } from '@playwright/test';
import type { Order } from '@offzero/shared/api/orders';
import {
  adminToken,
  makeTradeReady,
  orderOf,
  registerCustomer,
  saveSell,
  signedInPage,
  tradeReadyCustomer,
  type Api,
  type Customer,
} from './support/api';
import { test } from './support/fixtures';
import { DESKTOP, snapAtWidths } from './support/screens';
import { nextPhoneDigits } from './support/run-state';
import { gotoInteractive } from './support/interactive';

// Compliance end to end (docs/design.md), on the real server in demo mode: a listed address is refused
// in Settings (the wallet card and the address book, in lower and upper case); a sell whose deposit
// comes from a listed address is held, the customer may read but not trade, and the case waits in the
// back office with its evidence; a first sell asks for the Form W-9 and then goes on. Screenshots at
// 1280 and 390 px go to e2e/.screens/.
const stamp = Date.now();

/** The two testnet addresses of the demo sanctions list. */
const LISTED = 'tb1qn22l4fxz609uc3ztl0apnh6hq66efmws4x0vvc';
const LISTED_TOO = 'tb1ql82xt3nt8e4ezsylt63dqfwzax5u8hzetu8t7z';
const SANCTIONED_MESSAGE = 'This address cannot be used. Contact support.';
const RESTRICTED_MESSAGE = 'Your account is under review. Contact support.';

test.use({ viewport: DESKTOP });

const snap = (page: Page, name: string) => snapAtWidths(page, 'compliance', name);

/** A registered customer with approved identity, a bank account and a Zelle e-mail; no wallet, no W-9. */
async function customerWithoutW9(api: Api, label: string): Promise<Customer> {
  const customer = await registerCustomer(
    api,
    `compliance-${label}-${stamp}@example.com`,
    `+1${nextPhoneDigits()}`,
  );
  await makeTradeReady(api, customer, {
    zelleEmail: 'compliance.pays@example.com',
    wallet: false,
    w9: false,
  });
  return customer;
}

test('Settings refuses a listed address as the wallet and in the address book, in any case', async ({
  api,
  browser,
}) => {
  const customer = await customerWithoutW9(api, 'settings');
  const page = await signedInPage(browser, customer.token, DESKTOP);
  await page.goto('/settings');

  await test.step('the wallet card', async () => {
    await page.getByRole('button', { name: 'Add bitcoin wallet address' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add bitcoin wallet address' });
    for (const address of [LISTED, LISTED_TOO.toUpperCase()]) {
      await dialog.getByLabel('Bitcoin wallet address').fill(address);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText(SANCTIONED_MESSAGE).first()).toBeVisible();
    }
    await snap(page, 'wallet-refused');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  await test.step('the address book', async () => {
    const card = page.getByTestId('address-book-card');
    await card.getByRole('button', { name: 'Add payout address' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add payout address' });
    await dialog.getByLabel('Label').fill('Listed wallet');
    for (const address of [LISTED_TOO, LISTED.toUpperCase()]) {
      await dialog.getByLabel('Bitcoin address or extended public key').fill(address);
      await dialog.getByRole('button', { name: 'Add address' }).click();
      await expect(dialog.getByText(SANCTIONED_MESSAGE).first()).toBeVisible();
    }
    await snap(page, 'address-book-refused');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(card).toContainText('No payout addresses yet.');
  });

  // Nothing was saved.
  const { settings } = await api.get<{ settings: { walletAddress: string | null } }>(
    `/api/user/settings?userId=${customer.userId}`,
    customer.token,
  );
  expect(settings.walletAddress ?? '').toBe('');
  const { payoutAddresses } = await api.get<{ payoutAddresses: unknown[] }>(
    '/api/payout-addresses',
    customer.token,
  );
  expect(payoutAddresses).toEqual([]);
  await page.context().close();
});

test('a sell paid from a listed address is held, the customer restricted, and the case is in the back office', async ({
  api,
  admin,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const customer = await tradeReadyCustomer(baseURL!, {
    email: `compliance-deposit-${stamp}@example.com`,
    zelleEmail: 'compliance.pays@example.com',
  });
  const token = await adminToken(api);
  const sell: Order = await saveSell(api, customer, 0.004);
  const deposit = sell.walletAddress as { address: string; amount: number };

  await test.step('the deposit comes from a listed address: the order is held', async () => {
    await api.post('/api/dev/chain/send', {
      address: deposit.address,
      amount: deposit.amount,
      from: LISTED.toUpperCase(),
    });
    await expect
      .poll(async () => (await orderOf(api, customer, sell._id)).flag, {
        message: 'the sanctions flag',
        timeout: 20_000,
      })
      .toBe('sanctions_hit');
    // Held: the back office cannot pay it out.
    const payout = await api.context.post(`/api/admin/orders/${sell._id}/payout-usd`, {
      data: { reference: `HELD-${stamp}` },
      headers: { 'X-CSRF-Token': api.csrf, Authorization: `Bearer ${token}` },
    });
    expect(payout.status()).toBe(409);
  });

  await test.step('the customer can read but not trade: 403 with the message in the web app', async () => {
    const page = await signedInPage(browser, customer.token, DESKTOP);
    await page.goto('/orders');
    await expect(page.getByText(`#${sell._id.slice(0, 8)}`).first()).toBeVisible();
    await gotoInteractive(page, '/dashboard');
    const widget = page.getByTestId('trade-widget');
    await widget.getByRole('tab', { name: 'Buy' }).click();
    await widget.getByLabel('You Pay').fill('100');
    await expect(widget.getByLabel('You Receive')).not.toHaveValue('');
    await widget.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText(RESTRICTED_MESSAGE).first()).toBeVisible();
    await snap(page, 'restricted');
    const refused = await api.context.post('/api/quotes', {
      data: { type: 'buy', value: 100 },
      headers: { 'X-CSRF-Token': api.csrf, Authorization: `Bearer ${customer.token}` },
    });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe(RESTRICTED_MESSAGE);
    await page.context().close();
  });

  await test.step('the back office: the case with its evidence, and why the customer is restricted', async () => {
    let caseId = '';
    await expect
      .poll(
        async () => {
          const { cases } = await api.get<{ cases: { id: string }[] }>(
            `/api/admin/cases?userId=${customer.userId}&rule=sanctions_hit`,
            token,
          );
          caseId = cases[0]?.id ?? '';
          return cases.length;
        },
        { message: 'the sanctions case', timeout: 20_000 },
      )
      .toBe(1);
    await admin.goto('/admin');
    await expect(
      admin.getByTestId('queue-section-cases').getByRole('link', { name: 'Sanctions hit' }).first(),
    ).toBeVisible();
    await admin.goto(`/admin/cases?userId=${customer.userId}`);
    const row = admin.getByTestId('case-row').filter({ hasText: 'Sanctions hit' });
    await expect(row).toHaveCount(1);
    await row.getByRole('link', { name: 'Sanctions hit' }).click();
    await expect(admin).toHaveURL(new RegExp(`/admin/cases/${caseId}$`));
    const evidence = admin.getByTestId('case-evidence');
    await expect(evidence.getByRole('link', { name: `#${sell._id.slice(0, 8)}` }).first()).toBeVisible();
    await expect(evidence).toContainText(new RegExp(LISTED, 'i'));
    await snap(admin, 'case');

    await admin.goto(`/admin/customers/${customer.userId}`);
    await expect(admin.getByTestId('customer-restriction')).toContainText('sanctions hit');
    await snap(admin, 'customer-restricted');
  });
});

test('a first sell asks for the Form W-9, then goes on to the payout method', async ({ api, browser }) => {
  const customer = await customerWithoutW9(api, 'w9');
  const page = await signedInPage(browser, customer.token, DESKTOP);
  await gotoInteractive(page, '/dashboard');
  const widget = page.getByTestId('trade-widget');
  await widget.getByRole('tab', { name: 'Sell' }).click();
  await widget.getByLabel('You Pay').fill('0.005');
  await expect(widget.getByLabel('You Receive')).not.toHaveValue('');
  await widget.getByRole('button', { name: 'Continue' }).click();

  const step = widget.getByTestId('sell-tax-details-step');
  await expect(step.getByText('Add your tax details (Form W-9)')).toBeVisible();
  await step.getByLabel('Legal name').fill('Ada Lovelace');
  await step.getByLabel('SSN').fill('900-12-3456');
  await step.getByLabel('Street address').fill('12 Engine Row');
  await step.getByLabel('City').fill('Cheyenne');
  await step.getByLabel('State').selectOption('WY');
  await step.getByLabel('ZIP code').fill('82001');
  await step.getByRole('checkbox').check();
  await step.getByRole('button', { name: 'Save and continue' }).click();
  await expect(step.getByText('cannot start with 000, 666 or 9').first()).toBeVisible();
  await snap(page, 'w9-step');
  await step.getByLabel('SSN').fill('123-45-6789');
  await step.getByRole('button', { name: 'Save and continue' }).click();

  await expect(widget.getByText('Select Payment Method to Receive Funds')).toBeVisible();
  await widget.getByRole('button', { name: /^Zelle/ }).click();
  await widget.getByRole('button', { name: 'Send 0.005000 BTC' }).click();
  await expect(widget.getByRole('img', { name: 'Deposit QR code' })).toBeVisible();
  await snap(page, 'w9-then-deposit');

  const { w9 } = await api.get<{ w9: { tin: string } | null }>('/api/tax/w9', customer.token);
  expect(w9?.tin).toBe('***-**-6789');
  await expect(page.getByText('123-45-6789')).toHaveCount(0);
  await page.context().close();
});
