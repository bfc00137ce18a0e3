import type { DepositRow, OrderRow } from '../../../db/schema';
import { recordOrderNotices } from '../../../orders/order-notifications';
import { updateDepositConfirmationsOfOrder } from '../../../orders/order.repository';
import { updateDepositConfirmations } from '../deposit.repository';
import type { WatcherDeps } from './watcher-deps';

/**
 * A new confirmation count of a seen deposit (and of its order, when the order waits on it). The row
 * only changes if it still has the count it was read with: another watcher may have counted first.
 */
export async function countConfirmations(
  deps: WatcherDeps,
  deposit: DepositRow,
  confirmations: number,
  blockHeight: number | null,
): Promise<OrderRow | null> {
  const orderId = deposit.orderId;
  if (!orderId) return null;
  return deps.db.transaction(async (tx) => {
    const counted = await updateDepositConfirmations(tx, deposit, { confirmations, blockHeight }, deps.now());
    // Another watcher counted it first (and announces it).
    if (!counted) return null;
    const updated = await updateDepositConfirmationsOfOrder(
      tx,
      orderId,
      deposit.txid,
      confirmations,
      deps.now(),
    );
    if (!updated) return null;
    // Each new confirmation reaches the customer's pages; they are messaged once, when it is enough.
    const enough =
      deposit.confirmations < deps.confirmationsRequired && confirmations >= deps.confirmationsRequired;
    await recordOrderNotices(tx, updated, {
      eventKey: `deposit-confirmations:${deposit.id}:${confirmations}`,
      messages: enough,
    });
    return updated;
  });
}
