import type { OrderRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { setBankReference } from '../order.repository';
import type { OrderDeps } from './order-deps';

/** The customer's bank reference on a processing buy paid by bank transfer; blank text is ignored. */
export async function recordBankReference(
  deps: Pick<OrderDeps, 'db' | 'now'>,
  order: OrderRow,
  bankTxn: string,
): Promise<{ order: OrderRow; message: string }> {
  const reference = bankTxn.trim();
  if (reference === '') return { order, message: 'Nothing to update.' };
  if (order.type !== 'buy' || order.status !== 'processing' || order.paymentMethod === 'paypal') {
    throw new AppError('CONFLICT', 'A bank reference can only be added to a buy paid by bank transfer.');
  }
  const updated = await setBankReference(deps.db, order.id, reference, deps.now());
  return { order: updated ?? order, message: 'Bank Tx Ref No. Added' };
}
