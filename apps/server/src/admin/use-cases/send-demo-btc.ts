import type { SignedInUser } from '../../auth/sessions';
import type { SimulatedChain } from '../../chain/simulated-chain';
import type { OrderRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { findOrder } from '../admin-orders.repository';
import type { OrderActionDeps } from './run-order-action';
import { recordBtcPayout } from './record-btc-payout';

/** Demo: sends a paid buy's bitcoin through the simulated chain, then records that transaction. */
export async function sendDemoBtc(
  deps: OrderActionDeps & { chain: SimulatedChain },
  request: { staff: SignedInUser; orderId: string },
): Promise<OrderRow> {
  const order = await findOrder(deps.db, request.orderId);
  if (!order) throw new AppError('NOT_FOUND', 'Order not found.');
  if (
    order.type !== 'buy' ||
    order.status !== 'processing' ||
    !order.paymentConfirmedAt ||
    !order.walletAddress
  ) {
    throw new AppError(
      'CONFLICT',
      'Only a processing buy whose payment was marked received can be paid out.',
    );
  }
  const { txid } = await deps.chain.send(order.walletAddress, order.amountSats);
  return recordBtcPayout(deps, {
    staff: request.staff,
    orderId: order.id,
    txid,
    note: 'sent through the demo chain',
  });
}
