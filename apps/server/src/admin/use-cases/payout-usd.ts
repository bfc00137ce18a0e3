import type { OrderRow } from '../../db/schema';
import { moveOrder } from '../../orders/order-state';
import { assertOrderAction } from '../order-action-rules';
import { insertPayout } from '../payout.repository';
import {
  actionFactsIn,
  adminActor,
  runOrderAction,
  type OrderActionDeps,
  type OrderActionRequest,
} from './run-order-action';

/**
 * The dollars of a confirmed sell were paid to the customer (bank reference `reference`): it completes.
 * The payout row (one per order) commits with the move, under the order's lock: one payout, whoever calls.
 */
export async function payoutUsd(
  deps: OrderActionDeps,
  request: OrderActionRequest & { reference: string },
): Promise<OrderRow> {
  return runOrderAction(deps, { ...request, action: 'order.payout_usd' }, async (tx, order) => {
    assertOrderAction('payout-usd', order, await actionFactsIn(tx, deps, order));
    await insertPayout(
      tx,
      {
        orderId: order.id,
        kind: 'usd',
        address: null,
        amountSats: null,
        createdBy: adminActor(request.staff),
        reference: request.reference,
      },
      'sent',
    );
    return moveOrder(tx, {
      orderId: order.id,
      from: ['processing'],
      to: 'completed',
      actor: adminActor(request.staff),
      reason: 'dollars paid to the customer',
      patch: { bankTxn: request.reference },
      details: { reference: request.reference },
    });
  });
}
