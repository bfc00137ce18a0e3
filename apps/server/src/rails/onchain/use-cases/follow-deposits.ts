import { confirmationsOf, type ChainOutput } from '../../../chain/chain-api';
import type { DepositRow, OrderRow } from '../../../db/schema';
import { findSeenDepositsOfWatchedOrders } from '../deposit.repository';
import { countConfirmations } from './count-confirmations';
import { REVERSAL_WATCH_CONFIRMATIONS } from './reversal-watch';
import { vanishDeposit } from './vanish-deposit';
import type { WatcherDeps } from './watcher-deps';

/** What a pass read of the chain, for following the deposits already seen. */
export interface PassReading {
  tip: number;
  views: Map<string, ChainOutput>;
  /** The addresses looked at on their own this pass (their whole history was read). */
  looked: Set<string>;
  inMempool: Set<string> | null;
  forkHeight: number | null;
  lateSince: Date;
}

/**
 * Counts confirmations and finds what left the chain, for every deposit still watched. The deposits
 * are read after the chain: another watcher may have recorded a newer view meanwhile, so anything but
 * more confirmations of the same block is read again from the chain before it changes a row.
 */
export async function followSeenDeposits(deps: WatcherDeps, pass: PassReading): Promise<void> {
  const known = await findSeenDepositsOfWatchedOrders(deps.db, pass.lateSince, REVERSAL_WATCH_CONFIRMATIONS);
  let tip = pass.tip;
  let tipReadAgain = false;
  for (const deposit of known) {
    const blockHeight = blockHeightRead(deposit, pass);
    const confirmations = blockHeight === undefined ? undefined : confirmationsOf({ blockHeight }, tip);
    if (confirmations === deposit.confirmations && blockHeight === deposit.blockHeight) continue;
    const progress =
      blockHeight !== undefined &&
      blockHeight !== null &&
      (deposit.blockHeight === null || deposit.blockHeight === blockHeight) &&
      confirmations! > deposit.confirmations;
    let changed: OrderRow | null;
    if (progress) {
      changed = await countConfirmations(deps, deposit, confirmations!, blockHeight);
    } else {
      const status = await deps.chain.transactionStatus(deposit.txid);
      if (!tipReadAgain) {
        tip = await deps.chain.tipHeight();
        tipReadAgain = true;
      }
      if (!status) {
        changed = await vanishDeposit(deps, deposit);
      } else {
        const counted = confirmationsOf(status, tip);
        changed =
          counted === deposit.confirmations && status.blockHeight === deposit.blockHeight
            ? null
            : await countConfirmations(deps, deposit, counted, status.blockHeight);
      }
    }
    if (changed) await deps.notify(changed);
  }
}

/**
 * The deposit's block as this pass read it: null when in the mempool, undefined when the pass cannot
 * tell (not found where it should be, or above a reorganisation's fork).
 */
function blockHeightRead(deposit: DepositRow, pass: PassReading): number | null | undefined {
  const output = pass.views.get(`${deposit.txid}:${deposit.vout}`);
  if (output) return output.blockHeight;
  if (pass.looked.has(deposit.address)) return undefined;
  if (deposit.blockHeight === null) {
    // Without a mempool read, an unconfirmed deposit stays as it was until its block or the next pass.
    return !pass.inMempool || pass.inMempool.has(deposit.txid) ? null : undefined;
  }
  if (pass.forkHeight === null || deposit.blockHeight <= pass.forkHeight) return deposit.blockHeight;
  return undefined;
}
