import type { OrderRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { assertAddressNotSanctioned } from '../../compliance/sanctions/sanctions-screening';
import { moveOrder } from '../../orders/order-state';
import { assertPayoutDestinationUsable } from '../../payout-addresses/payout-destination';
import { findPayoutOfOrder, insertPayout, recordPayoutSent } from '../payout.repository';
import { assertNoPayout, assertNotInBatch } from './payout-rules';
import {
  adminActor,
  runOrderAction,
  type OrderActionDeps,
  type OrderActionRequest,
} from './run-order-action';

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
    if (order.type !== 'buy') throw new AppError('CONFLICT', 'A bitcoin payout completes buy orders only.');
    if (order.status === 'processing' && !order.paymentConfirmedAt) {
      throw new AppError('CONFLICT', 'Mark the payment as received before sending the bitcoin.');
    }
    if (order.flag) throw new AppError('CONFLICT', 'Resolve the flag first.');
    // Screened again just before the payout: the list may have changed since the order was saved.
    if (order.walletAddress) await assertAddressNotSanctioned(tx, order.walletAddress, 'walletAddress');
    if (order.status === 'processing') await assertNotInBatch(tx, order);
    const existing = await findPayoutOfOrder(tx, order.id);
    // A payout in flight already passed this check when it started; anything new must pass it now.
    const address =
      existing?.state === 'sending'
        ? existing.address
        : await assertPayoutDestinationUsable(tx, order, new Date());
    if (existing?.state === 'sending') {
      await recordPayoutSent(tx, existing.id, { txid, vout });
    } else if (existing) {
      assertNoPayout(order, existing);
    } else if (order.status === 'processing') {
      await insertPayout(
        tx,
        {
          orderId: order.id,
          kind: 'btc',
          address,
          amountSats: order.amountSats,
          createdBy: adminActor(request.staff),
          txid,
          vout,
        },
        'sent',
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
