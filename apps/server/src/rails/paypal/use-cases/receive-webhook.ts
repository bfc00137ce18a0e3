import { AppError } from '../../../http/errors';
import { PAYPAL_WEBHOOK_HEADERS, PayPalError } from '../paypal-gateway';
import { readPayPalWebhookEvent } from '../paypal-webhook-event';
import { PAYPAL_WEBHOOK_PROVIDER, type PayPalDeps } from './paypal-deps';

/**
 * A PayPal webhook: verified with PayPal (a forged or altered one answers 401), stored in the inbox
 * once per event id (a replay stores nothing) and applied by its job.
 */
export async function receiveWebhook(
  deps: PayPalDeps,
  rawBody: Buffer,
  headers: Record<string, unknown>,
): Promise<'stored' | 'replay'> {
  const { gateway, log } = deps;
  const kept: Record<string, string> = {};
  for (const name of PAYPAL_WEBHOOK_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string') kept[name] = value;
  }
  let authentic: boolean;
  try {
    authentic = await gateway.verifyWebhook(rawBody, kept);
  } catch (error) {
    if (!(error instanceof PayPalError)) throw error;
    log.warn({ err: error }, 'paypal webhook could not be verified now');
    // PayPal sends it again later.
    throw new AppError('UNAVAILABLE', 'The signature cannot be checked right now. Send it again later.');
  }
  if (!authentic) {
    log.warn('paypal webhook with a bad signature refused');
    throw new AppError('UNAUTHENTICATED', 'Invalid signature.');
  }
  const event = readPayPalWebhookEvent(rawBody);
  if (!event) throw new AppError('BAD_REQUEST', 'The webhook body is not a PayPal event.');
  return deps.inbox.receive({
    provider: PAYPAL_WEBHOOK_PROVIDER,
    rawBody,
    headers: kept,
    deliveryKey: event.id,
  });
}
