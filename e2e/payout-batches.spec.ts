/// <reference lib="dom" />
import { test as base, expect, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import {
  adminToken,
  apiClient,
  makeTradeReady,
  orderOf,
  registerCustomer,
  savePaidZelleBuy,
  signedInPage,
  type Api,
} from './support/api';
import { nextPhoneDigits } from './support/run-state';

// Payout batches end to end in demo mode: a customer's two Zelle buys are marked paid; on the Payouts
// page the operator builds one batch, downloads its PSBT, has the demo wallet sign it (standing in for
// a hardware wallet), uploads it; both orders complete with the same transaction, each with its own
// output, and the batch confirms once a block is mined. Screenshots at 1280 and 390 px.
const screensDir = fileURLToPath(new URL('./.screens/', import.meta.url));
const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 390, height: 844 };
const stamp = Date.now();

const test = base.extend<{ api: Api }>({
  api: async ({ baseURL }, use) => {
    const api = await apiClient(baseURL!);
    await use(api);
    await api.dispose();
  },
});

async function snap(page: Page, name: string) {
  for (const [label, size] of [
    ['1280', DESKTOP],
    ['390', MOBILE],
  ] as const) {
    await page.setViewportSize(size);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${label}px is wider than the viewport`).toBeLessThanOrEqual(0);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
    await page.screenshot({ path: `${screensDir}payouts-${name}-${label}.png` });
  }
  await page.setViewportSize(DESKTOP);
}

test('two paid buys are paid in one batch: build, download, demo-sign, upload, broadcast, confirm', async ({
  api,
  browser,
}) => {
  const trader = await registerCustomer(api, `batch-${stamp}@example.com`, `+1${nextPhoneDigits()}`);
  await makeTradeReady(api, trader, { zelleEmail: 'batch.pays@example.com' });
  const token = await adminToken(api);
  const orders = [];
  for (const n of [1, 2]) {
    const order = await savePaidZelleBuy(api, trader, 150 + n * 10, `ZL-BATCH-${stamp}-${n}`);
    await api.post(`/api/admin/orders/${order._id}/mark-paid`, {}, token);
    orders.push(order);
  }

  const admin = await signedInPage(browser, token, DESKTOP);
  await admin.goto('/admin/payouts');
  await expect(admin.getByRole('heading', { level: 1, name: 'Payouts' })).toBeVisible();
  const due = admin.getByTestId('due-buys');
  for (const order of orders) await expect(due.getByText(order._id.slice(0, 8)).first()).toBeVisible();
  await snap(admin, 'due');

  await admin.getByLabel('Network fee').selectOption('economy');
  await admin.getByRole('button', { name: 'Build batch' }).click();
  const batch = admin.getByTestId('payout-batch').first();
  await expect(batch.getByText('Waiting for signature')).toBeVisible();

  const download = admin.waitForEvent('download');
  await batch.getByRole('button', { name: 'Download PSBT' }).click();
  expect((await download).suggestedFilename()).toMatch(/^offzero-batch-[0-9a-f]{8}\.psbt$/);

  await batch.getByRole('button', { name: 'Sign with the demo wallet' }).click();
  await expect(batch.getByLabel('…or paste it (base64)')).not.toHaveValue('');
  await snap(admin, 'signed');
  await batch.getByRole('button', { name: 'Upload and broadcast' }).click();
  await expect(batch.getByText('Broadcast, waiting for confirmation')).toBeVisible();
  await expect(batch.getByRole('link', { name: 'Open the transaction in the block explorer' })).toBeVisible();

  const completed = await Promise.all(orders.map((order) => orderOf(api, trader, order._id)));
  for (const order of completed) expect(order.status).toBe('completed');
  const txid = completed[0]!.txn!;
  expect(txid).toMatch(/^[0-9a-f]{64}$/);
  expect(completed[1]!.txn).toBe(txid);

  await api.post('/api/dev/chain/mine', { blocks: 1 });
  await admin.reload();
  const confirmed = admin.getByTestId('payout-batch').first();
  await expect(confirmed.getByText('Confirmed')).toBeVisible();
  await expect(confirmed.getByTestId('batch-confirmations')).toHaveText('1');
  await snap(admin, 'confirmed');
  await admin.context().close();
});
