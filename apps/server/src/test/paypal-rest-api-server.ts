import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPayPalRestGateway } from '../rails/paypal/paypal-rest-gateway';
import type { PayPalGateway } from '../rails/paypal/paypal-gateway';

/**
 * A local server speaking PayPal's REST API as the real adapter uses it: OAuth client credentials,
 * Orders v2 (create, read, capture) and verify-webhook-signature. Tests drive its answers through the
 * returned handles; it listens on 127.0.0.1 only.
 */
export const PAYPAL_TEST_CLIENT = { clientId: 'client-id', clientSecret: 'client-secret' };
export const PAYPAL_TEST_WEBHOOK_ID = '8PT597110X687430LKGECATA';
const ACCESS_TOKEN = 'A21AAF-test-token';
const SIGNING_KEY = 'paypal-signing-key';

export interface PayPalTestOrder {
  referenceId: string;
  value: string;
  /** null until captured; then COMPLETED or PENDING. */
  captureStatus: string | null;
  captureId: string;
}

export interface PayPalRestApiServer {
  gateway: PayPalGateway;
  orders: Map<string, PayPalTestOrder>;
  /** Every request: method and path, its PayPal-Request-Id and Authorization headers. */
  log: { path: string; requestId?: string; auth?: string }[];
  /** Bodies of verify-webhook-signature calls. */
  verifyCalls: Record<string, unknown>[];
  /** How the next capture goes: COMPLETED, PENDING, or captured with the answer lost. */
  nextCapture: 'COMPLETED' | 'PENDING' | 'LOST';
  /** A capture amount other than the order's (a partial capture), or null. */
  captureAmountOverride: string | null;
  close(): Promise<void>;
}

/** What this PayPal signs: an HMAC over the transmission, the webhook id and the event as sent. */
export function paypalTestSignature(transmissionId: string, time: string, webhookId: string, event: string) {
  return createHmac('sha256', SIGNING_KEY)
    .update(`${transmissionId}|${time}|${webhookId}|${createHash('sha256').update(event).digest('hex')}`)
    .digest('base64');
}

let transmissions = 0;
/** A webhook delivery as PayPal sends it: the raw body and its transmission headers. */
export function paypalTestDelivery(event: object, webhookId = PAYPAL_TEST_WEBHOOK_ID) {
  const rawBody = JSON.stringify(event);
  const transmissionId = `b2384410-f8d2-11ee-9a1b-${String(++transmissions).padStart(12, '0')}`;
  const time = new Date().toISOString();
  return {
    rawBody,
    headers: {
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': 'https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77',
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-sig': paypalTestSignature(transmissionId, time, webhookId, rawBody),
      'paypal-transmission-time': time,
    },
  };
}

const VERIFY_FIELDS = [
  'auth_algo',
  'cert_url',
  'transmission_id',
  'transmission_sig',
  'transmission_time',
  'webhook_id',
] as const;

async function readBody(request: IncomingMessage) {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return text;
}

export async function startPayPalRestApiServer(): Promise<PayPalRestApiServer> {
  const handles = {
    orders: new Map<string, PayPalTestOrder>(),
    log: [] as PayPalRestApiServer['log'],
    verifyCalls: [] as Record<string, unknown>[],
    nextCapture: 'COMPLETED' as PayPalRestApiServer['nextCapture'],
    captureAmountOverride: null as string | null,
  };

  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const reply = (status: number, json: object) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(json));
      };
      handles.log.push({
        path: `${request.method} ${request.url}`,
        requestId: request.headers['paypal-request-id'] as string | undefined,
        auth: request.headers.authorization,
      });

      if (request.url === '/v1/oauth2/token') {
        const basic = Buffer.from(`${PAYPAL_TEST_CLIENT.clientId}:${PAYPAL_TEST_CLIENT.clientSecret}`);
        const ok =
          request.headers.authorization === `Basic ${basic.toString('base64')}` &&
          text === 'grant_type=client_credentials';
        return ok
          ? reply(200, { access_token: ACCESS_TOKEN, token_type: 'Bearer', expires_in: 32400 })
          : reply(401, { error: 'invalid_client' });
      }
      if (request.headers.authorization !== `Bearer ${ACCESS_TOKEN}`)
        return reply(401, { name: 'AUTHENTICATION_FAILURE' });

      if (request.method === 'POST' && request.url === '/v1/notifications/verify-webhook-signature') {
        const verify = JSON.parse(text);
        handles.verifyCalls.push(verify);
        for (const field of VERIFY_FIELDS) {
          if (typeof verify[field] !== 'string')
            return reply(400, {
              name: 'VALIDATION_ERROR',
              details: [{ field, issue: 'MISSING_REQUIRED_PARAMETER' }],
            });
        }
        if (verify.transmission_id.startsWith('outage-'))
          return reply(503, { name: 'SERVICE_UNAVAILABLE', message: 'Service Unavailable' });
        // The event exactly as it was sent: the bytes between `"webhook_event":` and the last brace.
        const sentEvent = text.slice(text.indexOf('"webhook_event":') + '"webhook_event":'.length, -1);
        const expected = paypalTestSignature(
          verify.transmission_id,
          verify.transmission_time,
          verify.webhook_id,
          sentEvent,
        );
        return reply(200, {
          verification_status: expected === verify.transmission_sig ? 'SUCCESS' : 'FAILURE',
        });
      }

      if (request.method === 'POST' && request.url === '/v2/checkout/orders') {
        const order = JSON.parse(text);
        const unit = order.purchase_units[0];
        if (order.intent !== 'CAPTURE' || unit.amount.currency_code !== 'USD')
          return reply(422, { name: 'UNPROCESSABLE_ENTITY' });
        const sequence = String(handles.orders.size).padStart(6, '0');
        const id = `5O190127TN${sequence}`;
        handles.orders.set(id, {
          referenceId: unit.reference_id,
          value: unit.amount.value,
          captureStatus: null,
          captureId: `3C679366HH${sequence}`,
        });
        return reply(201, {
          id,
          status: 'CREATED',
          links: [
            { href: `https://www.sandbox.paypal.com/checkoutnow?token=${id}`, rel: 'approve', method: 'GET' },
          ],
        });
      }

      const match = /^\/v2\/checkout\/orders\/([A-Z0-9]+)(\/capture)?$/.exec(request.url ?? '');
      const order = match ? handles.orders.get(match[1]!) : undefined;
      if (!match || !order)
        return reply(404, { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID' }] });
      const answer = () => ({
        id: match[1],
        status: order.captureStatus ? 'COMPLETED' : 'APPROVED',
        purchase_units: [
          {
            reference_id: order.referenceId,
            ...(order.captureStatus
              ? {
                  payments: {
                    captures: [
                      {
                        id: order.captureId,
                        status: order.captureStatus,
                        amount: { currency_code: 'USD', value: handles.captureAmountOverride ?? order.value },
                      },
                    ],
                  },
                }
              : {}),
          },
        ],
      });
      if (match[2]) {
        if (order.captureStatus)
          return reply(422, { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_ALREADY_CAPTURED' }] });
        order.captureStatus = handles.nextCapture === 'PENDING' ? 'PENDING' : 'COMPLETED';
        // Captured at PayPal, but the answer never reaches us.
        if (handles.nextCapture === 'LOST') return response.destroy();
        return reply(201, answer());
      }
      return reply(200, answer());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const gateway = createPayPalRestGateway({
    ...PAYPAL_TEST_CLIENT,
    webhookId: PAYPAL_TEST_WEBHOOK_ID,
    apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  });
  return Object.assign(handles, {
    gateway,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
