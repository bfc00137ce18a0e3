/** What a capture looked like at PayPal, read from PayPal's own answer. */
export interface PayPalCaptureResult {
  paypalOrderId: string;
  /** PayPal's order status: COMPLETED once captured. */
  status: string;
  captureId: string | null;
  captureStatus: string | null;
  /** Captured amount in cents, and its currency, when a capture exists. */
  amountCents: bigint | null;
  currency: string | null;
  /** Our order id, as we put it in `reference_id` when creating the PayPal order. */
  referenceId: string | null;
}

/** One interface for card / PayPal payments: PayPal Orders v2 in production, a local sandbox in demo. */
export interface PayPalGateway {
  kind: 'paypal' | 'demo';
  /** The public client id the browser's PayPal buttons load with; null for the demo sandbox. */
  clientId: string | null;
  createOrder(input: { orderId: string; valueCents: bigint; description: string }): Promise<{ id: string }>;
  /** Captures the approved PayPal order; `requestId` makes a retried capture return the first one. */
  capture(paypalOrderId: string, requestId: string): Promise<PayPalCaptureResult>;
  /** Reads a PayPal order back as PayPal has it now (reconciliation). */
  getOrder(paypalOrderId: string): Promise<PayPalCaptureResult>;
  /**
   * Whether a webhook really comes from PayPal, unaltered: PayPal's verify-webhook-signature call in
   * production, the sandbox's own signature in demo. Throws PayPalError when it cannot tell (PayPal
   * unreachable), so the sender retries.
   */
  verifyWebhook(rawBody: Buffer, headers: Record<string, string>): Promise<boolean>;
}

/** The headers of a PayPal webhook its signature check reads (lower-case, as Node gives them). */
export const PAYPAL_WEBHOOK_HEADERS = [
  'paypal-auth-algo',
  'paypal-cert-url',
  'paypal-transmission-id',
  'paypal-transmission-sig',
  'paypal-transmission-time',
] as const;

export class PayPalError extends Error {
  override name = 'PayPalError';
  constructor(
    message: string,
    /** PayPal's issue code (e.g. ORDER_NOT_APPROVED), when it gave one. */
    public readonly issue: string | null = null,
  ) {
    super(message);
  }
}

/** Reads a PayPal order (create, capture or get answer) into our shape. */
export function readPayPalOrder(body: unknown): PayPalCaptureResult {
  if (!body || typeof body !== 'object')
    throw new PayPalError('PayPal answered with something that is not an order');
  const order = body as {
    id?: unknown;
    status?: unknown;
    purchase_units?: {
      reference_id?: unknown;
      payments?: {
        captures?: {
          id?: unknown;
          status?: unknown;
          amount?: { currency_code?: unknown; value?: unknown };
        }[];
      };
    }[];
  };
  if (typeof order.id !== 'string' || typeof order.status !== 'string')
    throw new PayPalError('PayPal order without id or status');
  const unit = order.purchase_units?.[0];
  const capture = unit?.payments?.captures?.[0];
  const value = capture?.amount?.value;
  return {
    paypalOrderId: order.id,
    status: order.status,
    captureId: typeof capture?.id === 'string' ? capture.id : null,
    captureStatus: typeof capture?.status === 'string' ? capture.status : null,
    amountCents: typeof value === 'string' && /^\d+(\.\d{1,2})?$/.test(value) ? decimalToCents(value) : null,
    currency: typeof capture?.amount?.currency_code === 'string' ? capture.amount.currency_code : null,
    referenceId: typeof unit?.reference_id === 'string' ? unit.reference_id : null,
  };
}

/** A PayPal decimal amount ("123.45") in cents. */
export function decimalToCents(value: string): bigint {
  const [whole = '0', fraction = ''] = value.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
}
