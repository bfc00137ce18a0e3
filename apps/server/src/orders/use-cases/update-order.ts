import type { UpdateOrderRequest } from '@offzero/shared/api/orders';
import type { OrderRow, UserRow } from '../../db/schema';
import { getCustomerOrder } from './get-customer-order';
import type { OrderDeps } from './order-deps';
import { recordBankReference } from './record-bank-reference';
import { recordManualPayment } from './record-manual-payment';
import { requoteOrder } from './requote-order';

/** `POST /api/order/update`: the three shapes of the request, each its own use-case. */
export async function updateOrder(
  deps: Pick<OrderDeps, 'db' | 'prices' | 'network' | 'notify' | 'now' | 'payoutAddresses' | 'bank'>,
  user: UserRow,
  body: UpdateOrderRequest,
): Promise<{ order: OrderRow; message: string }> {
  const order = await getCustomerOrder(deps.db, user, body._id);
  if ('pair' in body) return requoteOrder(deps, user, order, body);
  if ('payment' in body) return recordManualPayment(deps, user, order, body);
  return recordBankReference(deps, order, body.bankTxn);
}
