/// <reference lib="dom" />
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { csvRecords, pdfText } from '../apps/server/src/test/document-text';
import {
  adminToken,
  apiClient,
  confirmDeposit,
  makeTradeReady,
  orderOf,
  payDeposit,
  registerCustomer,
  savePaidZelleBuy,
  saveSell,
  signedInPage,
  TESTNET_WALLET,
  type Api,
} from './support/api';
import { nextPhoneDigits } from './support/run-state';

// Tax details and the Tax center end to end: a new customer files a Form W-9 from the Settings card
// (the number is shown masked afterwards), then downloads each CSV layout and the annual statement from
// the Tax center. Screenshots at phone and desktop width go to e2e/.screens/.
const screensDir = fileURLToPath(new URL('./.screens/', import.meta.url));
const YEAR = new Date().getUTCFullYear();

for (const [name, viewport] of [
  ['1280', { width: 1280, height: 900 }],
  ['390', { width: 390, height: 844 }],
] as const) {
  test(`tax details card and Tax center at ${name} px`, async ({ browser, baseURL }) => {
    const api = await apiClient(baseURL!);
    const customer = await registerCustomer(
      api,
      `tax.${name}.${Date.now()}@example.com`,
      `+1${nextPhoneDigits()}`,
    );
    const page = await signedInPage(browser, customer.token, viewport);
    await page.goto('/settings');
    const card = page.getByTestId('tax-details-card');
    await expect(card.getByText('Not added yet')).toBeVisible();
    await card.screenshot({ path: `${screensDir}tax-details-card-empty-${name}.png` });

    await card.getByRole('button', { name: 'Add tax details' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Legal name').fill('Ada Lovelace');
    await dialog.getByLabel('SSN').fill('666-12-3456');
    await dialog.getByLabel('Street address').fill('12 Engine Row');
    await dialog.getByLabel('City').fill('Cheyenne');
    await dialog.getByLabel('State').selectOption('WY');
    await dialog.getByLabel('ZIP code').fill('82001');
    await dialog.getByRole('checkbox').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('cannot start with 000, 666 or 9').first()).toBeVisible();
    await dialog.getByLabel('SSN').fill('123-45-6789');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByText('***-**-6789')).toBeVisible();
    await expect(page.getByText('123-45-6789')).toHaveCount(0);
    await card.screenshot({ path: `${screensDir}tax-details-card-${name}.png` });

    await card.getByRole('link', { name: /Tax center/ }).click();
    await expect(page.getByRole('heading', { name: 'Tax center' })).toBeVisible();
    await page.screenshot({ path: `${screensDir}tax-center-${name}.png`, fullPage: true });

    const headers = {
      offzero: '"Date (UTC)","Type","BTC Amount"',
      koinly: '"Date","Sent Amount","Sent Currency","Received Amount"',
      cointracker: '"Date","Received Quantity","Received Currency","Sent Quantity"',
    };
    for (const [format, title] of [
      ['offzero', 'OffZero'],
      ['koinly', 'Koinly'],
      ['cointracker', 'CoinTracker'],
    ] as const) {
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: `Download ${title} CSV for ${YEAR}` }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`offzero-${format}-${YEAR}.csv`);
      const text = await readFile(await file.path(), 'utf8');
      expect(text.startsWith(headers[format])).toBe(true);
    }
    const statement = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download statement (PDF)' }).click();
    const pdf = await statement;
    expect(pdf.suggestedFilename()).toBe(`offzero-statement-${YEAR}.pdf`);
    expect((await readFile(await pdf.path())).subarray(0, 5).toString()).toBe('%PDF-');
    await page.context().close();
  });
}

/** The admin API's action on an order, as the console's buttons call it. */
async function adminAction(api: Api, orderId: string, action: string, body: object = {}) {
  await api.post(`/api/admin/orders/${orderId}/${action}`, body, await adminToken(api));
}

/** Saves a file the browser downloaded and answers its name and bytes. */
async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const download = page.waitForEvent('download');
  await click();
  const file = await download;
  return { name: file.suggestedFilename(), bytes: await readFile(await file.path()) };
}

test('after a completed buy and sell: each CSV layout, a receipt from the e-mail link, and the 1099-DA file', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const api = await apiClient(baseURL!);
  const stamp = Date.now();
  const trader = await registerCustomer(api, `tax.docs.${stamp}@example.com`, `+1${nextPhoneDigits()}`);
  await makeTradeReady(api, trader, { zelleEmail: `tax.docs.${stamp}@example.com` });

  // A buy paid by Zelle, received and sent by the operator.
  const buy = await savePaidZelleBuy(api, trader, 250, `ZL-TAX-${stamp}`);
  await adminAction(api, buy._id, 'mark-paid', { note: 'Seen in the Zelle inbox' });
  await adminAction(api, buy._id, 'send-btc');
  const boughtOrder = await orderOf(api, trader, buy._id);
  expect(boughtOrder.status).toBe('completed');
  // A sell deposited and confirmed on the simulated chain, paid out by Zelle.
  const sell = await saveSell(api, trader, 0.005);
  await payDeposit(api, trader, sell);
  await confirmDeposit(api, trader, sell);
  await adminAction(api, sell._id, 'payout-usd', { reference: `ZELLE-OUT-${stamp}` });
  const soldOrder = await orderOf(api, trader, sell._id);
  expect(soldOrder.status).toBe('completed');

  const page = await signedInPage(browser, trader.token, { width: 1280, height: 900 });
  await page.goto('/tax');
  await expect(page.getByRole('heading', { name: 'Tax center' })).toBeVisible();
  const csv = async (title: string) => {
    const file = await downloaded(page, () =>
      page.getByRole('button', { name: `Download ${title} CSV for ${YEAR}` }).click(),
    );
    return csvRecords(file.bytes.toString('utf8')).records;
  };

  const own = await csv('OffZero');
  expect(own.map((r) => r['Order ID'])).toEqual([buy._id, sell._id]);
  expect(own[0]).toMatchObject({
    Type: 'buy',
    'BTC Amount': boughtOrder.amount.toFixed(8),
    'USD Value': boughtOrder.value.toFixed(2),
    'Payment Method': 'zelle',
    Address: TESTNET_WALLET,
    'Transaction ID': boughtOrder.txn,
    'Bank Reference': `ZL-TAX-${stamp}`,
  });
  expect(own[1]).toMatchObject({
    Type: 'sell',
    'BTC Amount': '0.00500000',
    'USD Value': soldOrder.value.toFixed(2),
    'Bank Reference': `ZELLE-OUT-${stamp}`,
  });

  const koinly = await csv('Koinly');
  expect(koinly).toHaveLength(2);
  expect(koinly[0]).toMatchObject({
    'Received Amount': boughtOrder.amount.toFixed(8),
    'Received Currency': 'BTC',
    'Sent Currency': 'USD',
    'Net Worth Amount': boughtOrder.value.toFixed(2),
    Description: `OffZero buy ${buy._id}`,
    TxHash: boughtOrder.txn,
  });
  expect(koinly[1]).toMatchObject({
    'Sent Amount': '0.00500000',
    'Sent Currency': 'BTC',
    'Received Currency': 'USD',
    Description: `OffZero sell ${sell._id}`,
  });

  const cointracker = await csv('CoinTracker');
  expect(cointracker).toHaveLength(2);
  expect(cointracker[0]).toMatchObject({
    'Received Quantity': boughtOrder.amount.toFixed(8),
    'Received Currency': 'BTC',
    'Sent Currency': 'USD',
  });
  expect(cointracker[1]).toMatchObject({
    'Sent Quantity': '0.00500000',
    'Sent Currency': 'BTC',
    'Received Currency': 'USD',
  });

  // The completion e-mail's link opens the order's details on My Orders, with its receipt.
  const { messages } = await api.get<{ messages: { text: string }[] }>(
    `/api/dev/outbox?to=${encodeURIComponent(trader.email)}`,
  );
  const link = messages
    .map((m) => /Your receipt: (\S+)/.exec(m.text)?.[1])
    .find((url) => url?.endsWith(`/orders?order=${buy._id}`));
  expect(link, 'the completion e-mail links to the receipt').toBeTruthy();
  await page.goto(new URL(link!).pathname + new URL(link!).search);
  const drawer = page.getByRole('dialog');
  await expect(drawer).toBeVisible();
  const receipt = await downloaded(page, () =>
    drawer.getByRole('button', { name: 'Download receipt' }).click(),
  );
  expect(receipt.name).toBe(`offzero-receipt-${buy._id.slice(0, 8)}.pdf`);
  const text = await pdfText(receipt.bytes);
  for (const expected of [
    'Receipt — Bitcoin purchase',
    buy._id,
    `${boughtOrder.amount.toFixed(8)} BTC`,
    TESTNET_WALLET,
    boughtOrder.txn!,
    `ZL-TAX-${stamp}`,
    'Zelle',
    'Timeline',
  ]) {
    expect(text, expected).toContain(expected);
  }
  await page.context().close();

  // The operator's 1099-DA page lists the sell with the seller's masked TIN, and its CSV does too.
  for (const [name, viewport] of [
    ['1280', { width: 1280, height: 900 }],
    ['390', { width: 390, height: 844 }],
  ] as const) {
    const admin = await signedInPage(browser, await adminToken(api), viewport);
    if (name === '1280') {
      await admin.goto('/admin');
      await admin.getByRole('navigation').getByRole('link', { name: 'Form 1099-DA' }).click();
    } else {
      await admin.goto('/admin/tax/1099-da');
    }
    await expect(admin.getByRole('heading', { name: 'Form 1099-DA' })).toBeVisible();
    const row = admin.locator(`[data-testid="form-1099-da-row${name === '390' ? '-card' : ''}"]`, {
      hasText: 'Demo Customer',
    });
    await expect(row.filter({ hasText: sell._id.slice(0, 8) })).toContainText('***-**-6789');
    await admin.screenshot({ path: `${screensDir}form-1099-da-${name}.png`, fullPage: true });
    if (name === '1280') {
      const file = await downloaded(admin, () => admin.getByRole('button', { name: 'Download CSV' }).click());
      expect(file.name).toBe(`offzero-1099-da-${YEAR}.csv`);
      const record = csvRecords(file.bytes.toString('utf8')).records.find((r) => r['Order ID'] === sell._id);
      expect(record).toMatchObject({
        'Legal Name': 'Demo Customer',
        'TIN (masked)': '***-**-6789',
        'Quantity (BTC)': '0.00500000',
        'Gross Proceeds (USD)': soldOrder.value.toFixed(2),
        'Cost Basis': 'noncovered',
      });
      expect(file.bytes.toString('utf8')).not.toContain('123456789');
    }
    await admin.context().close();
  }
  await api.dispose();
});
