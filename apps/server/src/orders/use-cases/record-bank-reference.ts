import type { OrderRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { setBankReferenceAndFlag } from '../bank-reference.repository';
import { lockOrder } from '../order.repository';
import { duplicateReferenceFlag } from './duplicate-reference';
import type { OrderDeps } from './order-deps';

/**
 * The customer's bank reference on a processing buy paid by bank transfer; blank text is ignored. A
 * reference another order already carries flags this one `duplicate_reference` for the back office.
 */
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
  const updated = await deps.db.transaction(async (tx) => {
    const current = (await lockOrder(tx, order.id)) ?? order;
    const flag = await duplicateReferenceFlag(tx, current, reference);
    return setBankReferenceAndFlag(
      tx,
      order.id,
      { bankTxn: reference, ...(flag ? { flag } : {}) },
      deps.now(),
    );
  });
  return { order: updated ?? order, message: 'Bank Tx Ref No. Added' };
}
