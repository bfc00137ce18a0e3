import { formatUsd } from '@offzero/shared/money/money';
import { PAYPAL_WEBHOOK_HEADERS, PayPalError, readPayPalOrder, type PayPalGateway } from './paypal-gateway';

/**
 * PayPal's REST API: OAuth client credentials (`/v1/oauth2/token`), then Orders v2 — create with our
 * order's value and id, capture with a `PayPal-Request-Id`, and read back an order already captured —
 * and webhooks checked by PayPal itself (`/v1/notifications/verify-webhook-signature`).
 */
export function createPayPalRestGateway(options: {
  clientId: string;
  clientSecret: string;
  apiUrl: string;
  /** The id PayPal gave the webhook registered for this app: a signature for another one is refused. */
  webhookId: string;
  now?: () => number;
}): PayPalGateway {
  const now = options.now ?? Date.now;
  let cached: { token: string; expiresAt: number } | null = null;

  async function accessToken(): Promise<string> {
    if (cached && cached.expiresAt > now() + 60_000) return cached.token;
    const response = await send(`${options.apiUrl}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
    const body = (await response.json().catch(() => null)) as {
      access_token?: unknown;
      expires_in?: unknown;
    } | null;
    if (response.status !== 200 || typeof body?.access_token !== 'string') {
      throw new PayPalError(`PayPal refused our credentials (HTTP ${response.status})`);
    }
    const ttl = typeof body.expires_in === 'number' ? body.expires_in : 300;
    cached = { token: body.access_token, expiresAt: now() + ttl * 1000 };
    return body.access_token;
  }

  async function api(method: 'GET' | 'POST', path: string, requestId?: string, payload?: object | string) {
    const token = await accessToken();
    const response = await send(`${options.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        ...(requestId ? { 'PayPal-Request-Id': requestId } : {}),
      },
      ...(method === 'POST'
        ? { body: typeof payload === 'string' ? payload : JSON.stringify(payload ?? {}) }
        : {}),
    });
    const body: unknown = await response.json().catch(() => null);
    return { status: response.status, body };
  }

  return {
    kind: 'paypal',
    clientId: options.clientId,

    async createOrder({ orderId, valueCents, description }) {
      const { status, body } = await api('POST', '/v2/checkout/orders', `create-${orderId}-${valueCents}`, {
        intent: 'CAPTURE',
        purchase_units: [
          {
            reference_id: orderId,
            custom_id: orderId,
            description,
            amount: { currency_code: 'USD', value: formatUsd(valueCents) },
          },
        ],
      });
      if (status !== 200 && status !== 201)
        throw new PayPalError(`PayPal refused the order (HTTP ${status})`, issueOf(body));
      return { id: readPayPalOrder(body).paypalOrderId };
    },

    async capture(paypalOrderId, requestId) {
      const path = `/v2/checkout/orders/${encodeURIComponent(paypalOrderId)}`;
      const { status, body } = await api('POST', `${path}/capture`, requestId, {});
      if (status === 200 || status === 201) return readPayPalOrder(body);
      const issue = issueOf(body);
      // Captured before (a retry after a lost answer): read the truth back from PayPal.
      if (status === 422 && issue === 'ORDER_ALREADY_CAPTURED') {
        const existing = await api('GET', path);
        if (existing.status === 200) return readPayPalOrder(existing.body);
      }
      throw new PayPalError(`PayPal refused the capture (HTTP ${status}${issue ? `, ${issue}` : ''})`, issue);
    },

    async getOrder(paypalOrderId) {
      const { status, body } = await api('GET', `/v2/checkout/orders/${encodeURIComponent(paypalOrderId)}`);
      if (status !== 200) {
        const issue = issueOf(body);
        throw new PayPalError(`PayPal did not answer the order (HTTP ${status})`, issue);
      }
      return readPayPalOrder(body);
    },

    async verifyWebhook(rawBody, headers) {
      const request = verificationRequest(rawBody, headers, options.webhookId);
      if (!request) return false;
      const { status, body } = await api(
        'POST',
        '/v1/notifications/verify-webhook-signature',
        undefined,
        request,
      );
      // PayPal refuses malformed headers with a 400: not a signature it made.
      if (status === 400 || status === 422) return false;
      if (status !== 200)
        throw new PayPalError(`PayPal could not verify the webhook (HTTP ${status})`, issueOf(body));
      return (body as { verification_status?: unknown } | null)?.verification_status === 'SUCCESS';
    },
  };
}

/**
 * The body of PayPal's verify-webhook-signature call, or null when the delivery lacks a header or is
 * not a JSON object. The event goes back byte for byte: parsing and re-serialising it could change
 * what was signed.
 */
function verificationRequest(
  rawBody: Buffer,
  headers: Record<string, string | undefined>,
  webhookId: string,
): string | null {
  const [authAlgo, certUrl, transmissionId, transmissionSig, transmissionTime] = PAYPAL_WEBHOOK_HEADERS.map(
    (name) => headers[name],
  );
  if (!authAlgo || !certUrl || !transmissionId || !transmissionSig || !transmissionTime) return null;
  const text = rawBody.toString('utf8');
  if (!isJsonObject(text)) return null;
  const fields = [
    ['auth_algo', authAlgo],
    ['cert_url', certUrl],
    ['transmission_id', transmissionId],
    ['transmission_sig', transmissionSig],
    ['transmission_time', transmissionTime],
    ['webhook_id', webhookId],
  ];
  return `{${fields.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')},"webhook_event":${text}}`;
}

async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  } catch (error) {
    throw new PayPalError(`PayPal is unreachable: ${(error as Error).message}`);
  }
}

function issueOf(body: unknown): string | null {
  const details = (body as { details?: { issue?: unknown }[] } | null)?.details;
  const issue = details?.[0]?.issue;
  return typeof issue === 'string' ? issue : null;
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}
