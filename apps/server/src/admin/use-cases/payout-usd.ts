import type { Transaction } from '../../db/database';
import type { OrderRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { moveOrder } from '../../orders/order-state';
import { findPayoutOfOrder, insertPayout } from '../payout.repository';
import { assertMayPayOut } from './payout-rules';
import {
  adminActor,
  runOrderAction,
  type OrderActionDeps,
  type OrderActionRequest,
} from './run-order-action';

/**
 * Why this sell's dollars cannot be paid out now (409), asked on the locked order by the action and,
 * before any request is recorded, by four eyes: not a sell, flagged, paid already, or not deep enough.
 */
export async function assertMayPayOutUsd(
  deps: { confirmationsRequired: number },
  tx: Transaction,
  order: OrderRow,
): Promise<void> {
  if (order.type !== 'sell') throw new AppError('CONFLICT', 'A dollar payout completes sell orders only.');
  assertMayPayOut(order, await findPayoutOfOrder(tx, order.id));
  if (order.status === 'processing' && order.confirmations < deps.confirmationsRequired) {
    throw new AppError(
      'CONFLICT',
      `Wait for ${deps.confirmationsRequired} confirmations before paying out (now ${order.confirmations}).`,
    );
  }
}

/**
 * The dollars of a confirmed sell were paid to the customer (bank reference `reference`): it completes.
 * The payout row (one per order) commits with the move, under the order's lock: one payout, whoever calls.
 */
export async function payoutUsd(
  deps: OrderActionDeps & { confirmationsRequired: number },
  request: OrderActionRequest & { reference: string },
): Promise<OrderRow> {
  return runOrderAction(deps, { ...request, action: 'order.payout_usd' }, async (tx, order) => {
    await assertMayPayOutUsd(deps, tx, order);
    if (order.status === 'processing') {
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
    }
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
