import { createHmac, timingSafeEqual } from 'node:crypto';
import { BANK_WEBHOOK_SIGNATURE_HEADER } from './bank-provider';

/**
 * Increase's webhook signature (docs/design.md, "Bank provider"): the header
 * `Increase-Webhook-Signature: t=<ISO 8601 time>,v1=<hex>` where the hex is HMAC-SHA256, keyed with the
 * endpoint's secret as given (`whsec_…`), of `<t>.<raw body>`. Several `v1` may be present while a
 * secret is rotated. The demo bank signs its deliveries the same way with its own secret.
 */
export function signBankWebhook(secret: string, rawBody: Buffer, at: Date): string {
  const t = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `t=${t},v1=${hmac(secret, t, rawBody)}`;
}

/** The default age past which a signature no longer admits a delivery (a replay of old bytes). */
export const WEBHOOK_MAX_AGE_SECONDS = 300;

export function verifyBankWebhookSignature(
  secret: string,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
  options: { maxAgeSeconds?: number | null; now?: Date } = {},
): boolean {
  const raw = headers[BANK_WEBHOOK_SIGNATURE_HEADER];
  const header = Array.isArray(raw) ? raw[0] : raw;
  if (!header) return false;
  let t: string | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't') t = value;
    else if (key === 'v1') signatures.push(value);
  }
  if (!t || signatures.length === 0) return false;
  const signedAt = Date.parse(t);
  if (Number.isNaN(signedAt)) return false;
  const maxAge = options.maxAgeSeconds === undefined ? WEBHOOK_MAX_AGE_SECONDS : options.maxAgeSeconds;
  if (maxAge !== null) {
    const now = (options.now ?? new Date()).getTime();
    if (Math.abs(now - signedAt) > maxAge * 1000) return false;
  }
  const expected = Buffer.from(hmac(secret, t, rawBody), 'hex');
  return signatures.some((signature) => {
    if (!/^[0-9a-f]+$/i.test(signature)) return false;
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function hmac(secret: string, t: string, rawBody: Buffer): string {
  return createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex');
}
