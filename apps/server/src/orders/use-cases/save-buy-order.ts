import type { SaveOrderRequest } from '@offzero/shared/api/orders';
import type { OrderRow, UserRow } from '../../db/schema';
import { recordOrderCreated } from '../order-state';
import { findRecentTwinOrder, insertOrder, lockCustomerForSave } from '../order.repository';
import { linkBuyPayoutAddress } from './link-payout-address';
import type { OrderDeps } from './order-deps';
import { priceBuyOrder } from './price-order';

/**
 * A new pending buy at the server's figures, paid out later to the customer's own address, an entry of
 * their payout address book (a new address joins it unconfirmed, and the payout waits). The same
 * buy saved again within 10 seconds (a double click) answers the first order (DESIGN.md 7.5).
 */
export async function saveBuyOrder(
  deps: Pick<OrderDeps, 'db' | 'prices' | 'network' | 'now' | 'notify' | 'payoutAddresses'>,
  user: UserRow,
  body: SaveOrderRequest,
): Promise<OrderRow> {
  const priced = await priceBuyOrder(deps, user, body);
  const saved = await deps.db.transaction(async (tx) => {
    await lockCustomerForSave(tx, user.id);
    const twin = await findRecentTwinOrder(tx, {
      userId: user.id,
      type: 'buy',
      amountSats: priced.figures.amountSats,
      valueCents: priced.figures.valueCents,
      walletAddress: priced.walletAddress,
      paymentMethod: null,
    });
    if (twin) return twin;
    const payout = await linkBuyPayoutAddress(deps, tx, user.id, {
      payoutAddressId: body.payoutAddressId,
      walletAddress: priced.walletAddress,
    });
    const order = await insertOrder(tx, {
      userId: user.id,
      type: 'buy',
      ...priced.figures,
      priceSnapshotId: priced.snapshot.id,
      quoteExpiresAt: priced.quoteExpiresAt,
      walletAddress: payout.walletAddress,
      payoutAddressId: payout.payoutAddressId,
      depositIndex: null,
      paymentMethod: null,
      receivingDetails: null,
    });
    await recordOrderCreated(tx, order, `user:${user.id}`);
    return order;
  });
  // A new address's confirmation e-mail went into the outbox with the order: deliver it now.
  await deps.notify(saved);
  return saved;
}
