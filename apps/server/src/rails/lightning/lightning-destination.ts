import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { BitcoinNetwork } from '@offzero/shared/bitcoin/address';
import {
  Bolt11Error,
  bolt11ExpiresAt,
  decodeBolt11,
  type Bolt11Invoice,
} from '@offzero/shared/bitcoin/bolt11';
import { formatBtc } from '@offzero/shared/money/money';
import { lightningDestinationKind } from '@offzero/shared/bitcoin/payout-destination';
import { AppError } from '../../http/errors';

/**
 * Where a buy's bitcoin goes by Lightning (docs/design.md, "Lightning"): a BOLT11 invoice (its amount
 * the order's satoshis or none, not expired, of the configured network), or a Lightning address
 * `name@domain`, resolved by LNURL-pay (LUD-06, LUD-16) into an invoice checked for amount and
 * description hash before anything is paid.
 */
export type LightningDestination =
  { kind: 'invoice'; invoice: string } | { kind: 'lightning-address'; address: string };

export const DESTINATION_MESSAGES = {
  otherAmount: (sats: bigint) =>
    `This invoice asks for another amount. Make an invoice for ${formatBtc(sats)} BTC (${sats} sats), or one without an amount.`,
  expired: 'This invoice has expired. Make a new one in your wallet.',
  otherNetwork: 'This invoice is for another bitcoin network. Make one on the network OffZero uses.',
  unreadable:
    'This is not a Lightning invoice or Lightning address we can read. Copy it again from your wallet.',
  addressUnreachable: (address: string) =>
    `The wallet behind ${address} did not answer in time. Try again, or paste an invoice instead.`,
  addressRefused: (address: string) =>
    `The wallet behind ${address} did not give a usable invoice. Try again, or paste an invoice instead.`,
  addressRange: (address: string, sats: bigint) =>
    `The wallet behind ${address} does not take ${sats} sats. Paste an invoice instead.`,
  wrongInvoice: (address: string) =>
    `The wallet behind ${address} answered with an invoice that does not match. Paste an invoice instead.`,
} as const;

/** Whether a buy's destination is a Lightning one (an invoice or a Lightning address). */
export function paysOutByLightning(order: { type: string; walletAddress: string | null }): boolean {
  return order.type === 'buy' && lightningDestinationKind(order.walletAddress ?? '') !== null;
}

/**
 * Checks an invoice against the order: readable and signed, the network's, unexpired, and for the
 * order's satoshis or no amount. Answers the invoice read.
 */
export function checkPayoutInvoice(
  text: string,
  order: { amountSats: bigint; network: BitcoinNetwork; now: Date },
): Bolt11Invoice {
  let invoice: Bolt11Invoice;
  try {
    invoice = decodeBolt11(text);
  } catch (error) {
    if (error instanceof Bolt11Error) throw new AppError('BAD_REQUEST', DESTINATION_MESSAGES.unreadable);
    throw error;
  }
  if (invoice.network !== order.network) throw new AppError('BAD_REQUEST', DESTINATION_MESSAGES.otherNetwork);
  if (bolt11ExpiresAt(invoice) * 1000 <= order.now.getTime()) {
    throw new AppError('BAD_REQUEST', DESTINATION_MESSAGES.expired);
  }
  if (invoice.amountMsat !== null && invoice.amountMsat !== order.amountSats * 1000n) {
    throw new AppError('BAD_REQUEST', DESTINATION_MESSAGES.otherAmount(order.amountSats));
  }
  return invoice;
}

/** Reads a buy's Lightning destination, checking an invoice at once (an address is resolved when paid). */
export function readLightningDestination(
  text: string,
  order: { amountSats: bigint; network: BitcoinNetwork; now: Date },
): LightningDestination {
  const value = text.trim().replace(/^lightning:/i, '');
  const kind = lightningDestinationKind(value);
  if (kind === 'lightning-address') return { kind, address: value.toLowerCase() };
  if (kind === 'invoice') {
    checkPayoutInvoice(value, order);
    return { kind, invoice: value.toLowerCase() };
  }
  throw new AppError('BAD_REQUEST', DESTINATION_MESSAGES.unreadable);
}

const payRequestSchema = z.object({
  tag: z.literal('payRequest'),
  callback: z.string().url(),
  minSendable: z.number().int().nonnegative(),
  maxSendable: z.number().int().positive(),
  metadata: z.string(),
});
const callbackSchema = z.object({ pr: z.string() });

export interface LnurlOptions {
  /** How long each of the two requests may take. */
  timeoutMs?: number;
  /**
   * The LUD-16 well-known URL of an address; https://<domain>/.well-known/lnurlp/<name> unless a test
   * points it at a local server.
   */
  wellKnownUrl?: (name: string, domain: string) => string;
}

/**
 * LNURL-pay for a Lightning address (LUD-16 then LUD-06): reads the pay request, asks its callback for
 * an invoice of `amountSats`, and checks that invoice: the amount asked, the description hash the
 * SHA-256 of the pay request's metadata, the network, not expired.
 */
export async function invoiceForLightningAddress(
  address: string,
  order: { amountSats: bigint; network: BitcoinNetwork; now: Date },
  options: LnurlOptions = {},
): Promise<Bolt11Invoice> {
  const [name, domain] = address.split('@') as [string, string];
  const timeoutMs = options.timeoutMs ?? 10_000;
  const wellKnown =
    options.wellKnownUrl?.(name, domain) ??
    `https://${domain}/.well-known/lnurlp/${encodeURIComponent(name)}`;
  const payRequest = payRequestSchema.safeParse(await fetchJson(wellKnown, address, timeoutMs));
  if (!payRequest.success) throw new AppError('BAD_REQUEST', DESTINATION_MESSAGES.addressRefused(address));
  const amountMsat = order.amountSats * 1000n;
  const { minSendable, maxSendable, metadata, callback } = payRequest.data;
  if (amountMsat < BigInt(minSendable) || amountMsat > BigInt(maxSendable)) {
    throw new AppError('BAD_REQUEST', DESTINATION_MESSAGES.addressRange(address, order.amountSats));
  }
  const url = new URL(callback);
  url.searchParams.set('amount', amountMsat.toString());
  const answer = callbackSchema.safeParse(await fetchJson(url.toString(), address, timeoutMs));
  if (!answer.success) throw new AppError('BAD_REQUEST', DESTINATION_MESSAGES.addressRefused(address));
  let invoice: Bolt11Invoice;
  try {
    invoice = checkPayoutInvoice(answer.data.pr, order);
  } catch {
    throw new AppError('BAD_REQUEST', DESTINATION_MESSAGES.wrongInvoice(address));
  }
  const expectedHash = createHash('sha256').update(metadata, 'utf8').digest('hex');
  if (invoice.amountMsat !== amountMsat || invoice.descriptionHash !== expectedHash) {
    throw new AppError('BAD_REQUEST', DESTINATION_MESSAGES.wrongInvoice(address));
  }
  return invoice;
}

async function fetchJson(url: string, address: string, timeoutMs: number): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
  } catch {
    throw new AppError('BAD_REQUEST', DESTINATION_MESSAGES.addressUnreachable(address));
  }
  if (!response.ok) throw new AppError('BAD_REQUEST', DESTINATION_MESSAGES.addressRefused(address));
  try {
    return await response.json();
  } catch {
    throw new AppError('BAD_REQUEST', DESTINATION_MESSAGES.addressRefused(address));
  }
}
