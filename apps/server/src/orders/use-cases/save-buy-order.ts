import type { SaveOrderRequest } from '@offzero/shared/api/orders';
import type { OrderRow, UserRow } from '../../db/schema';
import { recordOrderCreated } from '../order-state';
import { insertOrder } from '../order.repository';
import type { OrderDeps } from './order-deps';
import { priceBuyOrder } from './price-order';

/** A new pending buy at the server's figures, paid out later to the customer's own address. */
export async function saveBuyOrder(
  deps: Pick<OrderDeps, 'db' | 'prices' | 'network' | 'now'>,
  user: UserRow,
  body: SaveOrderRequest,
): Promise<OrderRow> {
  const priced = await priceBuyOrder(deps, user, body);
  return deps.db.transaction(async (tx) => {
    const order = await insertOrder(tx, {
      userId: user.id,
      type: 'buy',
      ...priced.figures,
      priceSnapshotId: priced.snapshot.id,
      quoteExpiresAt: priced.quoteExpiresAt,
      walletAddress: priced.walletAddress,
      depositIndex: null,
      paymentMethod: null,
      receivingDetails: null,
    });
    await recordOrderCreated(tx, order, `user:${user.id}`);
    return order;
  });
}
