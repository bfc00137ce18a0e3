/// <reference lib="dom" />
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { deflateSync } from 'node:zlib';
import { waitForInteractive } from './interactive';

// Helpers for browser tests that need signed-in customers on the demo server: codes come from the demo
// outbox (GET /api/dev/outbox?to=…), as in accounts.spec.ts.

interface OutboxMessage {
  to: string;
  channel: 'email' | 'sms';
  subject: string;
  code: string | null;
  createdAt: string;
}

/** The newest code sent to `to`, waiting for it to arrive; `notBefore` skips older messages. */
export async function latestCode(request: APIRequestContext, to: string, notBefore = 0): Promise<string> {
  let code: string | null = null;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
        expect(response.ok()).toBe(true);
        const { messages } = (await response.json()) as { messages: OutboxMessage[] };
        const newest = messages.find((message) => message.code && Date.parse(message.createdAt) >= notBefore);
        code = newest?.code ?? null;
        return code;
      },
      { message: `a code for ${to}`, timeout: 10_000 },
    )
    .toMatch(/^\d{6}$/);
  return code!;
}

/** Reads the user id out of the stored session token (its payload is plain base64url JSON). */
export async function sessionUserId(page: Page): Promise<string> {
  const token = await sessionToken(page);
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as {
    _id: string;
  };
  return payload._id;
}

export async function sessionToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('authToken'));
  expect(token).toBeTruthy();
  return token!;
}

/**
 * The security token the page's cookie goes with, for calls made with `page.request` (which shares the
 * page's cookies). Reusing the page's own token keeps the page and the cookie in step.
 */
export async function pageCsrfToken(page: Page): Promise<string> {
  const stored = await page.evaluate(() => localStorage.getItem('csrfToken'));
  if (stored) return stored;
  const { _csrf } = (await (await page.request.get('/api/csrf')).json()) as { _csrf: string };
  await page.evaluate((token) => localStorage.setItem('csrfToken', token), _csrf);
  return _csrf;
}

/**
 * Registers a customer through the four registration steps in the browser and lands on the dashboard.
 * With `referralCode`, the register page is opened through the referral link and the field must be
 * prefilled with it.
 */
export async function registerInBrowser(
  page: Page,
  { email, phoneDigits, referralCode }: { email: string; phoneDigits: string; referralCode?: string },
  beforeEmailCode?: (code: string) => Promise<void>,
): Promise<void> {
  await page.goto(referralCode ? `/register/?ref=${encodeURIComponent(referralCode)}` : '/register');
  await waitForInteractive(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Register Your Account' })).toBeVisible();
  if (referralCode) await expect(page.getByLabel(/Referral Code/)).toHaveValue(referralCode);
  await page.getByLabel('Email').fill(email);
  const sentAt = Date.now() - 2000;
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Verify your email' })).toBeVisible();
  const emailCode = await latestCode(page.request, email, sentAt);
  await beforeEmailCode?.(emailCode);
  await page.getByLabel('Verification code').fill(emailCode);
  await page.getByRole('button', { name: 'Verify email' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Add your phone number' })).toBeVisible();
  await page.getByLabel('Phone number', { exact: true }).fill(phoneDigits);
  await page.getByRole('button', { name: 'Send code' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Verify your phone' })).toBeVisible();
  await page.getByLabel('Verification code').fill(await latestCode(page.request, `+1${phoneDigits}`));
  await page.getByRole('button', { name: 'Verify and finish' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** A real PNG image (a small striped card), for document uploads. */
export function samplePng(width = 96, height = 64): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x += 1) {
      const stripe = y < 14 ? [247, 147, 26] : (x + y) % 12 < 6 ? [226, 232, 240] : [203, 213, 225];
      raw.set(stripe, row + 1 + x * 3);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
