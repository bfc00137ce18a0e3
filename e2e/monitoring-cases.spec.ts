/// <reference lib="dom" />
import { expect, type Page } from '@playwright/test';
import {
  adminToken,
  makeTradeReady,
  registerCustomer,
  saveBuy,
  type Api,
  type Customer,
} from './support/api';
import { test } from './support/fixtures';
import { nextPhoneDigits } from './support/run-state';
import { DESKTOP, snapAtWidths } from './support/screens';

// Monitoring cases end to end, on the real server in demo mode: a customer places three buys just under
// the $3,000 Travel Rule amount within minutes (structuring); the monitoring job opens a case; the
// operator finds it in the work queue and on the Cases page, reviews it with a note and closes it as
// "SAR filed" with the filing date and reference. Screenshots at 1280 and 390 px go to e2e/.screens/.
const stamp = Date.now();

test.use({ viewport: DESKTOP });

/** Screenshots at desktop and phone width; fails if the page is wider than the screen. */
const snap = (page: Page, name: string) => snapAtWidths(page, 'cases', name, { capture: 'tall-window' });

async function structuringCustomer(api: Api): Promise<{ customer: Customer; orderIds: string[] }> {
  const customer = await registerCustomer(api, `cases-${stamp}@example.com`, `+1${nextPhoneDigits()}`);
  await makeTradeReady(api, customer, { zelleEmail: 'cases.pays@example.com' });
  const orderIds: string[] = [];
  for (const value of [2500, 2650, 2800]) orderIds.push((await saveBuy(api, customer, value))._id);
  return { customer, orderIds };
}

test('an admin reviews a structuring case and closes it as "SAR filed"', async ({ api, admin }) => {
  const { customer, orderIds } = await structuringCustomer(api);
  const token = await adminToken(api);

  // The rules run as a job once the orders are saved.
  let caseId = '';
  await expect
    .poll(
      async () => {
        const { cases } = await api.get<{ cases: { id: string }[] }>(
          `/api/admin/cases?userId=${customer.userId}&rule=structuring`,
          token,
        );
        caseId = cases[0]?.id ?? '';
        return cases.length;
      },
      { message: 'the structuring case', timeout: 15_000 },
    )
    .toBe(1);

  // In the work queue, with the rule and status in words.
  await admin.goto('/admin');
  const queueSection = admin.getByTestId('queue-section-cases');
  await expect(queueSection.getByRole('link', { name: 'Structuring' }).first()).toBeVisible();
  await snap(admin, 'work-queue');

  // The Cases page, filtered to this customer.
  await admin.goto(`/admin/cases?userId=${customer.userId}`);
  await expect(admin.getByRole('heading', { level: 1, name: 'Monitoring cases' })).toBeVisible();
  const row = admin.getByTestId('case-row').filter({ hasText: 'Structuring' });
  await expect(row).toHaveCount(1);
  await expect(row.getByText('Open', { exact: true })).toBeVisible();
  await snap(admin, 'list');

  await row.getByRole('link', { name: 'Structuring' }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/cases/${caseId}$`));
  const evidence = admin.getByTestId('case-evidence');
  for (const id of orderIds) {
    await expect(evidence.getByRole('link', { name: `#${id.slice(0, 8)}` }).first()).toBeVisible();
  }
  await expect(evidence.getByText('$2,650.00').first()).toBeVisible();
  await snap(admin, 'detail-open');

  // Review with a note.
  await admin.getByRole('button', { name: 'Start review' }).click();
  const reviewDialog = admin.getByRole('dialog');
  await reviewDialog.getByLabel('Note').fill('Three buys just under $3,000 within minutes.');
  await reviewDialog.getByRole('button', { name: 'Start review' }).click();
  await expect(reviewDialog).toBeHidden();
  await expect(admin.getByTestId('case-status').first()).toHaveAttribute('data-status', 'reviewing');
  await expect(admin.getByText('Under review').first()).toBeVisible();
  await expect(admin.getByTestId('case-notes')).toContainText('Three buys just under $3,000 within minutes.');

  // Close as "SAR filed": the date and reference are required.
  await admin.getByRole('button', { name: 'Close case' }).click();
  const closeDialog = admin.getByRole('dialog');
  await closeDialog.getByRole('button', { name: 'Close case' }).click();
  await expect(closeDialog.getByText('Choose an outcome')).toBeVisible();
  await closeDialog.getByLabel('SAR filed').check();
  await closeDialog.getByLabel('Note').fill('Reported to FinCEN.');
  await closeDialog.getByRole('button', { name: 'Close case' }).click();
  await expect(closeDialog.getByText('Give the date the SAR was filed.')).toBeVisible();
  await expect(closeDialog.getByText('Give the SAR reference.')).toBeVisible();
  const today = await admin.evaluate(() => {
    const now = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  });
  await closeDialog.getByLabel('SAR filed on').fill(today);
  await closeDialog.getByLabel('SAR reference').fill('BSA-31000099887766');
  await snap(admin, 'close-dialog');
  await closeDialog.getByRole('button', { name: 'Close case' }).click();
  await expect(closeDialog).toBeHidden();

  const review = admin.getByTestId('case-review');
  await expect(review).toContainText('SAR filed');
  await expect(review).toContainText('BSA-31000099887766');
  await expect(admin.getByTestId('case-status').first()).toHaveAttribute('data-status', 'closed');
  await expect(admin.getByRole('button', { name: 'Close case' })).toHaveCount(0);
  await expect(admin.getByTestId('case-history')).toContainText('Under review → Closed');
  await snap(admin, 'detail-closed');

  // Audited, and the case is never shown to the customer.
  const { entries } = await api.get<{ entries: { action: string }[] }>(
    `/api/admin/audit?targetType=case&targetId=${caseId}`,
    token,
  );
  expect(entries.map((entry) => entry.action).sort()).toEqual(['case.close', 'case.review']);
  const forbidden = await api.context.get(`/api/admin/cases/${caseId}`, {
    headers: { Authorization: `Bearer ${customer.token}` },
  });
  expect(forbidden.status()).toBe(403);
});
