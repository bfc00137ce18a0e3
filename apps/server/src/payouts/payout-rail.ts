import { SELL_PAYOUT_RAILS } from '@offzero/shared/rails/rails';
import type { OrderRow, PayoutRail } from '../db/schema';

/** The rail a sell's dollars leave on: the payout method the customer chose (Zelle, ACH or wire). */
export function usdPayoutRail(order: Pick<OrderRow, 'id' | 'paymentMethod'>): PayoutRail {
  const rail = SELL_PAYOUT_RAILS.find((candidate) => candidate === order.paymentMethod);
  if (!rail)
    throw new Error(`order ${order.id} has no dollar payout method (${order.paymentMethod ?? 'none'})`);
  return rail;
}
