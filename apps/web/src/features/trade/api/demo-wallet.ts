import { z } from 'zod';
import { apiPost } from '../../../lib/api-client';

const sentSchema = z.object({ txid: z.string() });

/**
 * Demo mode only (production answers 404): the demo wallet pays `amount` BTC to `address` on the
 * simulated chain, as the customer's own wallet would; the deposit watcher then credits the order.
 */
export function payFromDemoWallet(address: string, amount: number) {
  return apiPost('/dev/chain/send', { address, amount }, { schema: sentSchema });
}

const paidSchema = z.object({ paymentHash: z.string(), preimage: z.string() });

/**
 * Demo mode only: the demo Lightning wallet pays the order's invoice; the server's stand-in node hears
 * of it at once and credits the order.
 */
export function payInvoiceFromDemoWallet(invoice: string) {
  return apiPost('/dev/lightning/pay', { invoice }, { schema: paidSchema });
}
