import { AppError } from '../../http/errors';
import type { DemoPayPalGateway } from './demo-paypal-gateway';
import { PayPalError } from './paypal-gateway';

export type DemoPaymentDecision = 'approve' | 'cancel';

/** The demo sandbox's stand-in for the buyer approving (or cancelling) in PayPal's window. */
export async function decideDemoPayment(
  gateway: DemoPayPalGateway,
  paypalOrderId: string,
  decision: DemoPaymentDecision,
): Promise<{ message: string }> {
  try {
    await gateway[decision](paypalOrderId);
  } catch (error) {
    if (error instanceof PayPalError) throw new AppError('CONFLICT', error.message);
    throw error;
  }
  return {
    message: decision === 'approve' ? 'Payment approved in the demo sandbox.' : 'Payment cancelled.',
  };
}
