import type { OrderRow } from '../../db/schema';
import { findSeenDepositsIn } from '../../rails/onchain/deposit.repository';
import { moveOrder } from '../../orders/order-state';
import { clearFlag } from '../../admin/admin-orders.repository';
import { insertBtcRefund, recordOrderEvent } from '../btc-refund.repository';
import { assertOrderAction } from '../../admin/order-action-rules';
import {
  actionFactsIn,
  adminActor,
  runOrderAction,
  type OrderActionDeps,
  type OrderActionRequest,
} from '../../admin/run-order-action';

/**
 * Records that a sell order's coins were sent back to the customer (`txid`, to `address`) instead of
 * being paid for (docs/design.md). Only an order that holds coins we will not pay for qualifies: a
 * flagged one (over the limit, under- or over-paid, an extra deposit…) or a cancelled or expired one
 * with a deposit still on the chain. An order still open (pending, processing, expired) is cancelled,
 * so it can never be paid out as well; a cancelled or completed one keeps its state and the return is
 * put in its timeline. Either way the flag is cleared (the coins are back) and the return is audited.
 * One return per order.
 */
export async function refundBtc(
  deps: OrderActionDeps,
  request: OrderActionRequest & { address: string; txid: string },
): Promise<OrderRow> {
  const { address, txid, staff } = request;
  return runOrderAction(deps, { ...request, action: 'order.refund_btc' }, async (tx, order) => {
    assertOrderAction('refund-btc', order, await actionFactsIn(tx, deps, order));
    const held = await findSeenDepositsIn(tx, order.id);
    await insertBtcRefund(tx, { orderId: order.id, address, txid, refundedBy: adminActor(staff) });
    const heldSats = held.reduce((sum, deposit) => sum + deposit.valueSats, 0n);
    const flagNote = `bitcoin returned in ${txid} to ${address}${order.flag ? ` (was ${order.flag}: ${order.flagNote ?? ''})` : ''}`;
    const details = { address, txid, heldSats: heldSats.toString() };
    if (order.status === 'pending' || order.status === 'processing' || order.status === 'expired') {
      return moveOrder(tx, {
        orderId: order.id,
        from: ['pending', 'processing', 'expired'],
        to: 'cancelled',
        actor: adminActor(staff),
        reason: 'bitcoin returned to the customer',
        patch: { flag: null, flagNote, cancelReason: 'Your bitcoin was returned to you.' },
        details,
      });
    }
    // One event says both: the coins went back, and so the review is over.
    await recordOrderEvent(tx, order, {
      actor: adminActor(staff),
      reason: 'bitcoin returned to the customer',
      details: {
        ...details,
        ...(order.flag ? { flag: { from: order.flag, to: null }, resolution: 'refunded' } : {}),
      },
    });
    return (await clearFlag(tx, order.id, flagNote)) ?? order;
  });
}
