/// <reference lib="dom" />
import { test, expect } from '@playwright/test';
import { adminToken, apiClient, registerCustomer, type Api } from './support/api';
import { samplePng } from './support/customers';
import { nextPhoneDigits } from './support/run-state';
import { gotoInteractive } from './support/interactive';

// Issue 10, point 5: an identity decision reaches the customer's open dashboard through the realtime
// channel alone. The page runs with the demo-only "realtime only" switch (localStorage
// `offzero.realtimeOnly`, apps/web/src/lib/realtime.tsx), which turns the 10 s KYC review poll off;
// the test first proves the poll really is off, then decides the case and gives the page 2 s.
// Before the fix the browser client dropped `kyc-updated`, and the old test passed only through the poll.

/** apps/web/src/domain/kyc.ts: KYC_REVIEW_POLL_MS. */
const KYC_REVIEW_POLL_MS = 10_000;
const REALTIME_ONLY_STORAGE_KEY = 'offzero.realtimeOnly';

/** Registers a customer (support/api.ts) and submits the demo KYC form, so the case is under review. */
async function customerUnderReview(api: Api, email: string): Promise<{ token: string; userId: string }> {
  const { token, userId } = await registerCustomer(api, email, `+1${nextPhoneDigits()}`);
  const submitted = await api.context.post('/api/kyc/local/submit', {
    headers: { Authorization: `Bearer ${token}`, 'X-CSRF-Token': api.csrf },
    multipart: {
      legalName: 'Katherine Johnson',
      dateOfBirth: '1988-08-26',
      country: 'US',
      residenceState: 'CA',
      documentType: 'passport',
      documentNumber: 'P1918082',
      document: { name: 'passport.png', mimeType: 'image/png', buffer: samplePng() },
    },
  });
  expect(submitted.status(), await submitted.text()).toBe(200);
  return { token, userId };
}

test('a KYC decision reaches the open dashboard within 2 s through the realtime channel, polling off', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const api = await apiClient(baseURL!);
  const customer = await customerUnderReview(api, `rt-kyc-${Date.now()}@example.com`);
  const staffToken = await adminToken(api);

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const frames: { type?: string }[] = [];
  page.on('websocket', (socket) => {
    if (!socket.url().endsWith('/api/realtime')) return;
    socket.on('framereceived', ({ payload }) =>
      frames.push(JSON.parse(String(payload)) as { type?: string }),
    );
  });
  const kycReads: number[] = [];
  page.on('request', (request) => {
    if (request.method() === 'GET' && request.url().includes(`/api/kyc/${customer.userId}`)) {
      kycReads.push(Date.now());
    }
  });

  await gotoInteractive(page, '/');
  await page.evaluate(
    ([token, key]) => {
      localStorage.setItem('authToken', token);
      localStorage.setItem(key, '1');
    },
    [customer.token, REALTIME_ONLY_STORAGE_KEY] as const,
  );
  await gotoInteractive(page, '/dashboard');
  const tile = page.getByTestId('status-kyc');

  await test.step('the dashboard shows the case under review, with the channel open', async () => {
    await expect(tile).toContainText('Under Review');
    await expect.poll(() => frames.some((frame) => frame.type === 'ready')).toBe(true);
  });

  await test.step('the review poll is off: no read of the status for longer than its interval', async () => {
    // The trade widget mounts a moment later and reads the status once more (staleTime 0); let it.
    await page.waitForLoadState('networkidle');
    const readsBefore = kycReads.length;
    await page.waitForTimeout(KYC_REVIEW_POLL_MS + 1_500);
    expect(kycReads.length).toBe(readsBefore);
    await expect(tile).toContainText('Under Review');
  });

  await test.step('the admin approves; the open dashboard shows Approved within 2 s', async () => {
    const readsBefore = kycReads.length;
    await api.post(`/api/admin/kyc/${customer.userId}`, { status: 'GREEN' }, staffToken);
    await expect(tile).toContainText('Approved', { timeout: 2_000 });
    await expect(tile.getByText('Done')).toHaveCount(1);
    // The page heard the event and read the status once because of it.
    expect(frames.filter((frame) => frame.type === 'kyc-updated')).toHaveLength(1);
    expect(kycReads.length).toBe(readsBefore + 1);
  });

  await context.close();
  await api.context.dispose();
});
