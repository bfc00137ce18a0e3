import type { DepositRow, OrderRow } from '../../../db/schema';
import { moveOrder } from '../../../orders/order-state';
import { lockOrder } from '../../../orders/order.repository';
import { findSeenDepositsIn, markDepositVanished } from '../deposit.repository';
import { priceOnSum } from './price-on-sum';
import { reverseAfterPayout } from './reversal-watch';
import type { WatcherDeps } from './watcher-deps';

/**
 * A seen deposit the chain no longer has (dropped, replaced or reorganised away): the order goes back
 * to waiting, is priced on what is left, or (paid out already) is flagged `deposit_reversed`.
 */
export async function vanishDeposit(deps: WatcherDeps, deposit: DepositRow): Promise<OrderRow | null> {
  const orderId = deposit.orderId;
  if (!orderId) return null;
  return deps.db.transaction(async (tx) => {
    if (!(await markDepositVanished(tx, deposit.id, deps.now()))) return null;
    const current = await lockOrder(tx, orderId);
    if (current?.status === 'completed') return reverseAfterPayout(deps, tx, current, deposit);
    if (current?.status !== 'processing') return null;
    const remaining = await findSeenDepositsIn(tx, current.id);
    const newest = remaining.at(-1);
    if (newest) {
      // Other deposits are still there: the order is priced on what is left, and flagged.
      return priceOnSum(
        deps,
        tx,
        current,
        { txid: newest.txid, confirmations: newest.confirmations },
        {
          eventKey: `deposit-vanished:${deposit.id}`,
          reason: 'a deposit disappeared from the chain; priced on the rest',
          details: { txid: deposit.txid, vout: deposit.vout },
          vanished: deposit.txid,
        },
      );
    }
    return moveOrder(tx, {
      orderId: current.id,
      from: ['processing'],
      to: 'pending',
      actor: 'system:deposit-watcher',
      reason: 'deposit transaction disappeared from the chain',
      patch: {
        txn: null,
        confirmations: 0,
        receivedSats: null,
        flag: 'vanished_tx',
        flagNote: `${deposit.txid} is no longer on the chain`,
      },
    });
  });
}
