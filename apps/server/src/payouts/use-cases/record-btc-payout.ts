import type { OrderRow } from '../../db/schema';
import { assertAddressNotSanctioned } from '../../compliance/sanctions/sanctions-screening';
import { moveOrder } from '../../orders/order-state';
import { assertOrderAction } from '../../admin/order-action-rules';
import { movePayout, recordSettledPayout } from '../payout-state';
import {
  actionFactsIn,
  adminActor,
  runOrderAction,
  type OrderActionDeps,
  type OrderActionRequest,
} from '../../admin/run-order-action';

/**
 * The bitcoin of a paid buy was sent (output `txid`:`vout`): the order completes. It also settles a
 * payout left in flight (sent, result not recorded): staff found its transaction on the chain. An
 * output pays one order only.
 */
export async function recordBtcPayout(
  deps: OrderActionDeps,
  request: OrderActionRequest & { txid: string; vout?: number | undefined },
): Promise<OrderRow> {
  const txid = request.txid.toLowerCase();
  const vout = request.vout ?? 0;
  return runOrderAction(deps, { ...request, action: 'order.payout_btc' }, async (tx, order) => {
    const facts = await actionFactsIn(tx, deps, order);
    assertOrderAction('payout-btc', order, facts);
    // Screened again just before the payout: the list may have changed since the order was saved.
    if (order.walletAddress) await assertAddressNotSanctioned(tx, order.walletAddress, 'walletAddress');
    const existing = facts.payout;
    if (existing?.state === 'submitted') {
      // Settled by staff; the payout keeps the sender that sent it.
      await movePayout(tx, existing, 'settled', { txid, vout });
    } else {
      // The rules allow a new payout only to a due destination at a known address.
      const address = facts.destination?.due ? facts.destination.address : null;
      await recordSettledPayout(
        tx,
        {
          orderId: order.id,
          kind: 'btc',
          rail: 'onchain',
          sender: 'operator',
          address,
          amountSats: order.amountSats,
          createdBy: adminActor(request.staff),
        },
        { txid, vout },
      );
    }
    return moveOrder(tx, {
      orderId: order.id,
      from: ['processing'],
      to: 'completed',
      actor: adminActor(request.staff),
      reason: 'bitcoin sent to the customer',
      patch: { txn: txid },
      details: { txid, vout },
    });
  });
}
