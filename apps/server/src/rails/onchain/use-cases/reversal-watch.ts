import { formatBtc } from '@offzero/shared/money/money';
import type { Transaction } from '../../../db/database';
import type { DepositRow, OrderRow } from '../../../db/schema';
import { recordOrderNotices } from '../../../orders/order-notifications';
import { flagOrder } from '../../../orders/order.repository';
import { restrictCustomer } from '../../../users/customer-restriction.repository';
import type { WatcherDeps } from './watcher-deps';

/** Completed sells are still watched until their deposit is this deep: a reversal after payout is caught. */
export const REVERSAL_WATCH_CONFIRMATIONS = 6;

/**
 * A deposit of a completed sell left the chain (reorganisation or double spend): if it was paid for
 * (seen before the payout), the dollars went out for coins we no longer have. The order is flagged
 * `deposit_reversed` and the customer restricted from trading until staff look into it.
 */
export async function reverseAfterPayout(
  deps: WatcherDeps,
  tx: Transaction,
  current: OrderRow,
  deposit: DepositRow,
): Promise<OrderRow | null> {
  if (current.completedAt && deposit.firstSeenAt > current.completedAt) return null;
  const what = `${deposit.txid}:${deposit.vout} (${formatBtc(deposit.valueSats)} BTC) left the chain after the dollars were paid`;
  const flagged = await flagOrder(
    tx,
    current.id,
    {
      flag: 'deposit_reversed',
      flagNote: current.flag ? `${what}; earlier ${current.flag}: ${current.flagNote ?? ''}` : what,
    },
    deps.now(),
    'system:deposit-watcher',
  );
  await restrictCustomer(
    tx,
    current.userId,
    `the deposit of sell order #${current.id.slice(0, 8)} was reversed after payout`,
  );
  if (!flagged) return null;
  await recordOrderNotices(tx, flagged, { eventKey: `deposit-reversed:${deposit.id}`, messages: false });
  return flagged;
}
