/// <reference lib="dom" />
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { apiClient, registerCustomer, signedInPage } from './support/api';
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
