import { decimalToCents } from './paypal-gateway';

/** What a PayPal webhook event means for our orders. */
export type PayPalWebhookEvent = { id: string; eventType: string } & (
  | {
      kind: 'capture-completed';
      captureId: string;
      /** The PayPal order the capture belongs to (`supplementary_data.related_ids.order_id`). */
      paypalOrderId: string | null;
      amountCents: bigint | null;
      currency: string | null;
    }
  | { kind: 'capture-denied'; captureId: string }
  /** Money taken back after a capture: a refund, a reversal (chargeback) or a dispute opened. */
  | { kind: 'payment-reversed'; captureId: string; note: string }
  | { kind: 'other' }
);

/** Reads a PayPal webhook event (`{ id, event_type, resource }`); null when it is not one. */
export function readPayPalWebhookEvent(rawBody: Buffer): PayPalWebhookEvent | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const event = parsed as { id?: unknown; event_type?: unknown; resource?: unknown };
  if (typeof event.id !== 'string' || event.id === '' || event.id.length > 200) return null;
  if (typeof event.event_type !== 'string') return null;
  const base = { id: event.id, eventType: event.event_type };
  const resource = (event.resource && typeof event.resource === 'object' ? event.resource : {}) as Resource;

  switch (event.event_type) {
    case 'PAYMENT.CAPTURE.COMPLETED': {
      if (typeof resource.id !== 'string') return { ...base, kind: 'other' };
      const value = resource.amount?.value;
      const relatedOrder = resource.supplementary_data?.related_ids?.order_id;
      return {
        ...base,
        kind: 'capture-completed',
        captureId: resource.id,
        paypalOrderId: typeof relatedOrder === 'string' ? relatedOrder : orderIdFromLinks(resource),
        amountCents:
          typeof value === 'string' && /^\d+(\.\d{1,2})?$/.test(value) ? decimalToCents(value) : null,
        currency: typeof resource.amount?.currency_code === 'string' ? resource.amount.currency_code : null,
      };
    }
    case 'PAYMENT.CAPTURE.DENIED':
      return typeof resource.id === 'string'
        ? { ...base, kind: 'capture-denied', captureId: resource.id }
        : { ...base, kind: 'other' };
    case 'PAYMENT.CAPTURE.REFUNDED':
    case 'PAYMENT.CAPTURE.REVERSED': {
      // The resource is the refund; its `up` link names the capture it takes money back from.
      const captureId = captureIdFromLinks(resource);
      if (!captureId) return { ...base, kind: 'other' };
      const amount = resource.amount;
      const what = event.event_type === 'PAYMENT.CAPTURE.REFUNDED' ? 'refunded' : 'reversed';
      return {
        ...base,
        kind: 'payment-reversed',
        captureId,
        note:
          `PayPal ${what} capture ${captureId}` +
          (typeof amount?.value === 'string'
            ? ` (${amount.value}${typeof amount.currency_code === 'string' ? ` ${amount.currency_code}` : ''})`
            : '') +
          (typeof resource.id === 'string' ? `, ${resource.id}` : ''),
      };
    }
    case 'CUSTOMER.DISPUTE.CREATED': {
      const captureId = resource.disputed_transactions?.find(
        (transaction) => typeof transaction?.seller_transaction_id === 'string',
      )?.seller_transaction_id;
      if (typeof captureId !== 'string') return { ...base, kind: 'other' };
      const reason = typeof resource.reason === 'string' ? `: ${resource.reason}` : '';
      const disputeId = typeof resource.dispute_id === 'string' ? ` ${resource.dispute_id}` : '';
      return {
        ...base,
        kind: 'payment-reversed',
        captureId,
        note: `PayPal dispute${disputeId} opened on capture ${captureId}${reason}`,
      };
    }
    default:
      return { ...base, kind: 'other' };
  }
}

interface Resource {
  id?: unknown;
  amount?: { value?: unknown; currency_code?: unknown };
  supplementary_data?: { related_ids?: { order_id?: unknown } };
  links?: { href?: unknown; rel?: unknown }[];
  disputed_transactions?: { seller_transaction_id?: unknown }[];
  reason?: unknown;
  dispute_id?: unknown;
}

function linkId(resource: Resource, pattern: RegExp): string | null {
  if (!Array.isArray(resource.links)) return null;
  for (const link of resource.links) {
    if (link?.rel !== 'up' || typeof link.href !== 'string') continue;
    const match = pattern.exec(link.href);
    if (match?.[1]) return decodeURIComponent(match[1]);
  }
  return null;
}

const captureIdFromLinks = (resource: Resource) => linkId(resource, /\/v2\/payments\/captures\/([^/?#]+)$/);
const orderIdFromLinks = (resource: Resource) => linkId(resource, /\/v2\/checkout\/orders\/([^/?#]+)$/);
