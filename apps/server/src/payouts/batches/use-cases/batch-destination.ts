import type { Transaction } from '../../../db/database';
import type { OrderRow } from '../../../db/schema';
import {
  checkPayoutDestination,
  payoutReadiness,
  type PayoutReadiness,
} from '../../../payout-addresses/payout-destination';
import type { PayoutBatchDeps } from '../payout-batch-deps';

/**
 * Whether a batch may pay this buy now, and at which address: the rules every payout path asks (the
 * address-book entry confirmed, not removed, past its cooldown, proven above the operator's threshold),
 * the server's network, and sanctions screening. Read through `tx`, which holds the order's lock; asked
 * when a batch is built and again when its signed transaction is uploaded, since the customer or the
 * sanctions list may have changed in between.
 */
export async function batchDestination(
  deps: Pick<PayoutBatchDeps, 'network' | 'screenDestination'>,
  tx: Transaction,
  order: OrderRow,
  now: Date,
): Promise<PayoutReadiness> {
  const readiness = payoutReadiness(await checkPayoutDestination(tx, order, now), order, deps.network);
  if (!readiness.payable) return readiness;
  const held = await deps.screenDestination(tx, readiness.address);
  return held ? { payable: false, address: readiness.address, reason: held } : readiness;
}
