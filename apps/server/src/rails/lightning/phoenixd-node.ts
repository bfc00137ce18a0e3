import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import {
  LightningNodeError,
  LightningWebhookError,
  type IncomingPayment,
  type LightningNode,
  type OutgoingPayment,
  type PaymentReceivedEvent,
} from './lightning-node';

/**
 * phoenixd's HTTP API (https://phoenix.acinq.co/server/api): HTTP basic auth with an empty user and
 * the API password, form-encoded request bodies, JSON replies. Payment notifications are posted to our
 * webhook signed with `X-Phoenix-Signature`: the hex HMAC-SHA256 of the raw body keyed with the
 * configured webhook secret.
 */
export interface PhoenixdOptions {
  url: string;
  password: string;
  webhookSecret: string;
  /** How long one call may take; paying waits for the payment's outcome, so it gets longer. */
  timeoutMs?: number;
  payTimeoutMs?: number;
}

const createdInvoiceSchema = z.object({ serialized: z.string(), paymentHash: z.string() });
const paidSchema = z.object({
  recipientAmountSat: z.number(),
  routingFeeSat: z.number(),
  paymentId: z.string(),
  paymentHash: z.string(),
  paymentPreimage: z.string(),
});
const payFailedSchema = z.object({ paymentId: z.string().optional(), reason: z.string() });
const incomingSchema = z.object({
  paymentHash: z.string(),
  preimage: z.string().nullish(),
  externalId: z.string().nullish(),
  isPaid: z.boolean(),
  receivedSat: z.number().default(0),
  completedAt: z.number().nullish(),
});
const outgoingSchema = z.object({
  paymentId: z.string(),
  paymentHash: z.string().nullish(),
  preimage: z.string().nullish(),
  isPaid: z.boolean(),
  sent: z.number().default(0),
  fees: z.number().default(0),
  completedAt: z.number().nullish(),
});
const webhookSchema = z.object({
  type: z.string(),
  amountSat: z.number().int().nonnegative(),
  paymentHash: z.string().regex(/^[0-9a-f]{64}$/),
  externalId: z.string().nullish(),
});

export function createPhoenixdNode(options: PhoenixdOptions): LightningNode {
  // A malformed URL is refused at start, as a configuration problem.
  const base = new URL(options.url);
  const auth = `Basic ${Buffer.from(`:${options.password}`).toString('base64')}`;

  async function call(path: string, init: { form?: Record<string, string>; timeoutMs: number }) {
    let response: Response;
    try {
      response = await fetch(new URL(path, base), {
        method: init.form ? 'POST' : 'GET',
        headers: {
          authorization: auth,
          ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: init.form ? new URLSearchParams(init.form).toString() : undefined,
        signal: AbortSignal.timeout(init.timeoutMs),
      });
    } catch (error) {
      throw new LightningNodeError(`phoenixd did not answer ${path}: ${(error as Error).message}`);
    }
    const text = await response.text();
    return { status: response.status, text };
  }

  const timeoutMs = options.timeoutMs ?? 15_000;
  const payTimeoutMs = options.payTimeoutMs ?? 90_000;

  return {
    kind: 'phoenixd',
    async createInvoice(request) {
      const result = await call('/createinvoice', {
        form: {
          description: request.description,
          amountSat: String(request.amountSats),
          expirySeconds: String(request.expirySeconds),
          externalId: request.externalId,
        },
        timeoutMs,
      });
      expectOk(result, '/createinvoice');
      const parsed = createdInvoiceSchema.parse(json(result.text, '/createinvoice'));
      return { invoice: parsed.serialized, paymentHash: parsed.paymentHash };
    },

    async payInvoice(request) {
      const form: Record<string, string> = { invoice: request.invoice };
      if (request.amountSats !== undefined) form.amountSat = String(request.amountSats);
      let result: { status: number; text: string };
      try {
        result = await call('/payinvoice', { form, timeoutMs: payTimeoutMs });
      } catch {
        // No answer: the payment may or may not be on its way. Never send again; ask by hash later.
        return { status: 'pending', paymentId: null, paymentHash: null };
      }
      return readPayReply(result);
    },

    async incomingPayment(paymentHash) {
      const path = `/payments/incoming/${encodeURIComponent(paymentHash)}`;
      const result = await call(path, { timeoutMs });
      if (result.status === 404) return null;
      expectOk(result, path);
      const body = json(result.text, path);
      if (body === null) return null;
      const parsed = incomingSchema.parse(body);
      return toIncoming(parsed);
    },

    async outgoingPayment(paymentId) {
      return readOutgoing(`/payments/outgoing/${encodeURIComponent(paymentId)}`);
    },

    async outgoingPaymentByHash(paymentHash) {
      return readOutgoing(`/payments/outgoinghash/${encodeURIComponent(paymentHash)}`);
    },

    verifyWebhook(rawBody, headers) {
      return verifyPhoenixdWebhook(rawBody, headers, options.webhookSecret);
    },
  };

  async function readOutgoing(path: string): Promise<OutgoingPayment | null> {
    const result = await call(path, { timeoutMs });
    if (result.status === 404) return null;
    expectOk(result, path);
    const body = json(result.text, path);
    if (body === null) return null;
    const parsed = outgoingSchema.parse(body);
    if (parsed.isPaid && parsed.preimage) {
      return {
        status: 'settled',
        paymentId: parsed.paymentId,
        paymentHash: parsed.paymentHash ?? '',
        preimage: parsed.preimage,
        amountSats: parsed.sent - parsed.fees,
        feeSats: parsed.fees,
      };
    }
    if (parsed.completedAt) {
      return {
        status: 'failed',
        paymentId: parsed.paymentId,
        paymentHash: parsed.paymentHash ?? null,
        reason: 'The payment failed.',
      };
    }
    return { status: 'pending', paymentId: parsed.paymentId, paymentHash: parsed.paymentHash ?? null };
  }
}

function json(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new LightningNodeError(`phoenixd answered ${path} with something other than JSON`);
  }
}

function expectOk(result: { status: number; text: string }, path: string): void {
  if (result.status === 401) throw new LightningNodeError('phoenixd refused the API password');
  if (result.status >= 400)
    throw new LightningNodeError(
      `phoenixd answered ${path} with ${result.status}: ${result.text.slice(0, 200)}`,
    );
}

/** What `/payinvoice` answered: paid, refused, or unclear (then it is asked again by hash, never resent). */
function readPayReply(result: { status: number; text: string }): OutgoingPayment {
  if (result.status === 401) throw new LightningNodeError('phoenixd refused the API password');
  const body = result.status < 500 ? safeJson(result.text) : undefined;
  const paid = paidSchema.safeParse(body);
  if (paid.success) {
    return {
      status: 'settled',
      paymentId: paid.data.paymentId,
      paymentHash: paid.data.paymentHash,
      preimage: paid.data.paymentPreimage,
      amountSats: paid.data.recipientAmountSat,
      feeSats: paid.data.routingFeeSat,
    };
  }
  const failed = payFailedSchema.safeParse(body);
  if (failed.success) {
    return {
      status: 'failed',
      paymentId: failed.data.paymentId ?? null,
      paymentHash: null,
      reason: failed.data.reason,
    };
  }
  if (result.status >= 400 && result.status < 500) {
    return { status: 'failed', paymentId: null, paymentHash: null, reason: result.text.slice(0, 200) };
  }
  return { status: 'pending', paymentId: null, paymentHash: null };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function toIncoming(parsed: z.infer<typeof incomingSchema>): IncomingPayment {
  return {
    paymentHash: parsed.paymentHash,
    isPaid: parsed.isPaid,
    receivedSats: parsed.receivedSat,
    preimage: parsed.preimage ?? null,
    externalId: parsed.externalId ?? null,
    completedAt: parsed.completedAt ? new Date(parsed.completedAt) : null,
  };
}

/** The hex HMAC-SHA256 of the raw body, as phoenixd signs its webhooks. */
export function phoenixdSignature(rawBody: string, secret: string): string {
  return createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');
}

export function verifyPhoenixdWebhook(
  rawBody: string,
  headers: Record<string, string | string[] | undefined>,
  secret: string,
): PaymentReceivedEvent {
  const header = headers['x-phoenix-signature'];
  const given = Array.isArray(header) ? header[0] : header;
  if (!given || !/^[0-9a-fA-F]{64}$/.test(given))
    throw new LightningWebhookError('The notification is not signed.');
  const expected = Buffer.from(phoenixdSignature(rawBody, secret), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) {
    throw new LightningWebhookError('The notification signature does not match.');
  }
  const parsed = webhookSchema.safeParse(safeJson(rawBody));
  if (!parsed.success || parsed.data.type !== 'payment_received') {
    throw new LightningWebhookError('The notification is not a received payment.');
  }
  return {
    type: 'payment_received',
    paymentHash: parsed.data.paymentHash,
    amountSats: parsed.data.amountSat,
    externalId: parsed.data.externalId ?? null,
  };
}
