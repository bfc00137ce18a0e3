/// <reference lib="dom" />
import { expect, type Page } from '@playwright/test';
import { test } from './support/fixtures';
import { readFileSync } from 'node:fs';
import {
  adminToken,
  listOrders,
  makeTradeReady,
  orderOf,
  registerCustomer,
  savePaidZelleBuy,
  signedInPage,
} from './support/api';
import { nextPhoneDigits } from './support/run-state';
import { DESKTOP, MOBILE, screenPath, snapAtWidths } from './support/screens';
import { gotoInteractive } from './support/interactive';

// Payout batches end to end in demo mode: a customer's two Zelle buys are marked paid; on the Payouts
// page the operator builds one batch, downloads its PSBT, has the demo wallet sign it (standing in for
// a hardware wallet), uploads it; both orders complete with the same transaction, each with its own
// output, and the batch confirms once a block is mined. Screenshots at 1280 and 390 px.
const stamp = Date.now();

const snap = (page: Page, name: string) => snapAtWidths(page, 'payouts', name, { capture: 'tall-window' });

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

/** A testnet address of the customer's own, kept apart from the wallet other tests pay. */
const OWN_ADDRESS = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';

/** A buy on the dashboard, paid to the chosen address-book entry and by Zelle, to the success step. */
async function buyWithZelle(page: Page, valueUsd: number, entryLabel: string): Promise<void> {
  await gotoInteractive(page, '/dashboard');
  const widget = page.getByTestId('trade-widget');
  await expect(widget.getByText(/refresh in \d+s/)).toBeVisible();
  await widget.getByLabel('You Pay').fill(String(valueUsd));
  await expect(widget.getByLabel('You Receive')).not.toHaveValue('');
  await widget.getByRole('button', { name: 'Continue' }).click();
  const payTo = widget.getByTestId('payout-address-choice');
  // The customer's confirmed entry is chosen to begin with.
  await expect(payTo.getByRole('radio', { name: entryLabel })).toBeChecked();
  await expect(payTo.getByTestId('payout-wait-note')).toHaveCount(0);
  const width = page.viewportSize()?.width ?? 0;
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await widget.screenshot({ path: screenPath(`payouts-buy-choice-${width}.png`) });
  await widget.getByRole('button', { name: `Pay $${valueUsd}.00` }).click();
  await expect(widget.getByText(`Total: $${valueUsd}.00`)).toBeVisible();
  await widget.getByRole('button', { name: /^Zelle/ }).click();
  await expect(widget.getByText('Thank you for the purchase!')).toBeVisible();
}

test('the issue’s whole path: address book, two Zelle buys, one batch signed off the server, receipts', async ({
  api,
  browser,
}) => {
  test.setTimeout(180_000);
  const customer = await registerCustomer(api, `batch-book-${stamp}@example.com`, `+1${nextPhoneDigits()}`);
  // Approved four days ago: an established customer, past the scam shield's new-customer rules.
  await api.post('/api/dev/kyc/decide', {
    userId: customer.userId,
    status: 'GREEN',
    approvedAt: new Date(Date.now() - 4 * 24 * 3_600_000).toISOString(),
  });
  const page = await signedInPage(browser, customer.token, DESKTOP);

  await test.step('the customer adds an address to the address book', async () => {
    await page.goto('/settings');
    const card = page.getByTestId('address-book-card');
    await card.getByRole('button', { name: 'Add payout address' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add payout address' });
    await dialog.getByLabel('Label').fill('Cold wallet');
    await dialog.getByLabel('Bitcoin address or extended public key').fill(OWN_ADDRESS);
    await dialog.getByRole('button', { name: 'Add address' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByTestId('address-book-entry')).toHaveAttribute('data-status', 'unconfirmed');
  });

  await test.step('and confirms it from the e-mail in the demo outbox', async () => {
    await page.goto(`/dev/outbox?to=${encodeURIComponent(customer.email)}`);
    const messages = page.getByTestId('outbox-messages');
    await expect(messages).toContainText('/settings/payout-addresses/confirm?');
    const text = (await messages.textContent()) ?? '';
    const link =
      /https?:\/\/[^/\s]+(\/settings\/payout-addresses\/confirm\?id=[0-9a-f-]{36}&token=[A-Za-z0-9_-]+)/.exec(
        text,
      )?.[1];
    expect(link, 'the confirmation link in the e-mail').toBeTruthy();
    await page.goto(link!);
    await expect(page.getByTestId('confirm-payout-address')).toHaveAttribute('data-state', 'confirmed');
    await page.goto('/settings');
    await expect(page.getByTestId('address-book-entry')).toHaveAttribute('data-status', 'usable');
  });

  await test.step('buys twice with Zelle, choosing that address', async () => {
    await buyWithZelle(page, 140, 'Cold wallet');
    await page.setViewportSize(MOBILE);
    await buyWithZelle(page, 160, 'Cold wallet');
    await page.setViewportSize(DESKTOP);
  });
  const orders = (await listOrders(api, customer)).filter((order) => order.type === 'buy');
  expect(orders).toHaveLength(2);
  for (const order of orders) {
    expect(order).toMatchObject({ status: 'processing', walletAddress: OWN_ADDRESS });
  }

  const token = await adminToken(api);
  const admin = await signedInPage(browser, token, DESKTOP);
  await test.step('staff mark both payments received on their order pages', async () => {
    for (const order of orders) {
      await admin.goto(`/admin/orders/${order._id}`);
      await admin.getByTestId('order-actions').getByRole('button', { name: 'Mark payment received' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Mark payment received' });
      await dialog.getByLabel(/Note/).fill('Seen in the Zelle inbox');
      await dialog.getByRole('button', { name: 'Mark received' }).click();
      await expect(dialog).toBeHidden();
    }
    await admin.goto('/admin');
    const toSend = admin.getByTestId('queue-section-bitcoin');
    for (const order of orders) {
      await expect(toSend.getByRole('row').filter({ hasText: order._id.slice(0, 8) })).toContainText(
        'Not in a batch',
      );
    }
  });

  let batchId = '';
  await test.step('build a batch and download its PSBT', async () => {
    await admin.goto('/admin/payouts');
    const due = admin.getByTestId('due-buys');
    for (const order of orders) await expect(due.getByText(order._id.slice(0, 8)).first()).toBeVisible();
    await admin.getByLabel('Network fee').selectOption('standard');
    await admin.getByRole('button', { name: 'Build batch' }).click();
    const batch = admin.getByTestId('payout-batch').first();
    await expect(batch.getByText('Waiting for signature')).toBeVisible();
    batchId = (await batch.getAttribute('data-batch-id')) ?? '';
    for (const order of orders) {
      await expect(batch.locator(`[data-testid="batch-output"][data-order-id="${order._id}"]`)).toHaveCount(
        1,
      );
    }
    const download = admin.waitForEvent('download');
    await batch.getByRole('button', { name: 'Download PSBT' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`offzero-batch-${batchId.slice(0, 8)}.psbt`);
    const bytes = readFileSync(await file.path());
    // A BIP 174 file: the magic bytes "psbt" 0xff, and the same PSBT the server answers in base64.
    expect([...bytes.subarray(0, 5)]).toEqual([0x70, 0x73, 0x62, 0x74, 0xff]);
    const answer = await api.get<{ psbt: string }>(`/api/admin/payouts/batches/${batchId}`, token);
    expect(bytes.toString('base64')).toBe(answer.psbt);
  });

  await test.step('the work queue shows both buys held by that batch', async () => {
    await admin.goto('/admin');
    const toSend = admin.getByTestId('queue-section-bitcoin');
    for (const order of orders) {
      const row = toSend.getByRole('row').filter({ hasText: order._id.slice(0, 8) });
      await expect(row.getByTestId('queue-batch')).toContainText(`Batch ${batchId.slice(0, 8)}`);
      await expect(row.getByTestId('queue-batch')).toContainText('Waiting for signature');
    }
    await snap(admin, 'queue-held');
    // Its order page offers no payout by hand: the batch pays it.
    await admin.goto(`/admin/orders/${orders[0]!._id}`);
    const actions = admin.getByTestId('order-actions');
    await expect(actions).toContainText(
      `This order is in payout batch ${batchId.slice(0, 8)}. Pay it through the batch, or abandon that batch first.`,
    );
    await expect(actions.getByRole('button', { name: 'Record payout txid' })).toBeDisabled();
    await expect(actions.getByRole('button', { name: 'Send via demo chain' })).toBeDisabled();
    await expect(actions.getByRole('button', { name: 'Cancel order' })).toBeEnabled();
  });

  await test.step('the demo signer signs it, staff upload it, the server broadcasts it', async () => {
    await admin.goto('/admin/payouts');
    const batch = admin.locator(`[data-testid="payout-batch"][data-batch-id="${batchId}"]`);
    await batch.getByRole('button', { name: 'Sign with the demo wallet' }).click();
    await expect(batch.getByLabel('…or paste it (base64)')).not.toHaveValue('');
    await batch.getByRole('button', { name: 'Upload and broadcast' }).click();
    await expect(batch.getByText('Broadcast, waiting for confirmation')).toBeVisible();
    await batch.getByText('Outputs and change').click();
    await snap(admin, 'batch-outputs');
  });

  const { batch } = await api.get<{
    batch: { txid: string; outputs: { orderId: string; address: string; vout: number | null }[] };
  }>(`/api/admin/payouts/batches/${batchId}`, token);
  const txid = batch.txid;
  expect(txid).toMatch(/^[0-9a-f]{64}$/);
  const voutOf = new Map(batch.outputs.map((output) => [output.orderId, output.vout]));
  const vouts = orders.map((order) => voutOf.get(order._id));
  for (const vout of vouts) expect(vout).toEqual(expect.any(Number));
  expect(new Set(vouts).size).toBe(2);
  for (const order of orders) {
    expect(await orderOf(api, customer, order._id)).toMatchObject({ status: 'completed', txn: txid });
    expect(batch.outputs.find((output) => output.orderId === order._id)?.address).toBe(OWN_ADDRESS);
  }

  await test.step('the customer’s drawer and timeline show the payout, each with its own output', async () => {
    await page.goto('/orders');
    for (const order of orders) {
      await page.locator(`[data-order-id="${order._id}"]:visible`).click();
      const drawer = page.getByRole('dialog', { name: `Order #${order._id.slice(0, 8)}` });
      await expect(drawer).toContainText('Completed');
      await expect(drawer.getByRole('link', { name: txid }).first()).toHaveAttribute(
        'href',
        new RegExp(`/tx/${txid}$`),
      );
      const sent = drawer.getByTestId('order-timeline').locator('li', { hasText: 'Bitcoin sent' });
      await expect(sent.getByRole('link', { name: txid })).toBeVisible();
      await expect(sent.getByTestId('timeline-vout')).toHaveText(`, output ${voutOf.get(order._id)}`);
      await sent.scrollIntoViewIfNeeded();
      await drawer
        .getByTestId('order-timeline')
        .screenshot({ path: screenPath(`payouts-customer-timeline-${orders.indexOf(order) + 1}.png`) });
      const receipt = page.waitForEvent('download');
      await drawer.getByRole('button', { name: /receipt/i }).click();
      const pdf = readFileSync(await (await receipt).path());
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      await snap(page, `customer-drawer-${orders.indexOf(order) + 1}`);
      await page.keyboard.press('Escape');
      await expect(drawer).toBeHidden();
    }
    const timeline = await api.get<{
      timeline: { title: string; reference: { value: string; vout?: number } | null }[];
    }>(`/api/order/${orders[0]!._id}/timeline`, customer.token);
    expect(timeline.timeline.find((entry) => entry.title === 'Bitcoin sent')?.reference).toEqual({
      kind: 'tx',
      value: txid,
      vout: voutOf.get(orders[0]!._id),
    });
  });
  await page.context().close();
  await admin.context().close();
});
