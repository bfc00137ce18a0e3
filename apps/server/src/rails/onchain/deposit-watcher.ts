import { confirmationsOf } from '../../chain/chain-api';
import { deleteScanBlocksAbove, saveScanBlocks } from './deposit.repository';
import { creditDeposit } from './use-cases/credit-deposit';
import { followSeenDeposits } from './use-cases/follow-deposits';
import {
  addressesToLookAt,
  findWatched,
  LATE_DEPOSIT_WATCH_MS,
  lookAtAddresses,
  type PreviousPass,
} from './use-cases/late-deposit-watch';
import { matchOutputs } from './use-cases/match-outputs';
import { scanPosition } from './use-cases/reorg-walk-back';
import { scanBlocks } from './use-cases/scan-blocks';
import { createMempoolScan } from './use-cases/scan-mempool';
import type { DepositWatcherOptions, WatcherDeps } from './use-cases/watcher-deps';

export { nextFlag } from './use-cases/deposit-flags';
export { LATE_DEPOSIT_WATCH_MS } from './use-cases/late-deposit-watch';
export { REVERSAL_WATCH_CONFIRMATIONS } from './use-cases/reversal-watch';
export { CATCH_UP_AFTER_BLOCKS, REORG_WALK_BACK_BLOCKS } from './use-cases/reorg-walk-back';
export { BLOCKS_PER_PASS } from './use-cases/scan-blocks';
export { MEMPOOL_TRANSACTIONS_PER_PASS } from './use-cases/scan-mempool';
export type { DepositWatcherOptions } from './use-cases/watcher-deps';

/**
 * Watches every open sell order's deposit address (docs/design.md): credits each output exactly
 * once by `txid:vout` (the unique row is inserted in the same transaction as the credit, so two
 * watchers cannot both credit), announces it, counts confirmations, re-prices and flags under-, over-
 * and late payments, and takes an order back to waiting when its transaction disappears. docs/design.md
 * 7.7: split deposits are priced on their sum, an over-payment beyond the quoted amount at the lower of
 * the locked and current price, an order pushed over `max_order_size` is flagged `over_limit` (held);
 * completed sells stay watched until their deposit is 6 blocks deep, and a paid deposit that vanishes
 * flags the order `deposit_reversed` and restricts the customer. Every notice
 * (realtime `new-transaction` and `order-updated`, e-mail, SMS) is written into the outbox in the
 * transaction of its change and delivered once that is committed. Each step is a use-case in
 * `use-cases/`; this only runs them in order.
 */
export function createDepositWatcher(options: DepositWatcherOptions) {
  const deps: WatcherDeps = { ...options, now: options.now ?? (() => new Date()) };
  const { db, chain, now } = deps;
  const mempool = createMempoolScan();
  /** The orders this process watched at its last pass, and when it read them. */
  let previous: PreviousPass | null = null;

  return {
    /**
     * One pass: reads what is new on the chain (blocks since the last one matched, and mempool
     * transactions not read before), matches their outputs against the watched deposit addresses (one
     * query), credits what pays them, and counts the confirmations of what was credited. Its cost grows
     * with new transactions, not with open addresses: an address is looked at on its own only when the
     * watcher catches up (first run, far behind, a deep reorganisation) or its order comes back into
     * the watch. Safe to run in several processes at once.
     */
    async pollOnce(): Promise<{ credited: number }> {
      // 1. The chain, read before the watched orders: a deposit in what was read paid an order that
      // existed before, so it is in the list read after.
      const tip = await chain.tipHeight();
      const position = await scanPosition(deps, tip);
      const { found, scanned } = await scanBlocks(deps, position, tip);
      const inPool = await mempool.read(deps);
      found.push(...inPool.outputs);

      // 2. The watched addresses, in one query.
      const lateSince = new Date(now().getTime() - LATE_DEPOSIT_WATCH_MS);
      const readAt = now().getTime();
      const watched = await findWatched(deps, lateSince);
      const byAddress = new Map(watched.map((entry) => [entry.address, entry]));

      // 3. Addresses looked at on their own.
      const looks = addressesToLookAt(watched, position.catchUp, previous);
      const { found: lookedAt, looked } = await lookAtAddresses(deps, looks);
      found.push(...lookedAt);
      if (position.catchUp) {
        const hash = await chain.blockHash(tip);
        if (hash) scanned.push({ height: tip, hash });
      }

      // 4. Match.
      const { views, outputs } = await matchOutputs(deps, found, byAddress, scanned, position.forkHeight);

      // 5. Credit.
      let credited = 0;
      for (const output of outputs) {
        const orderId = byAddress.get(output.address)!.orderId;
        const updated = await creditDeposit(deps, orderId, output, confirmationsOf(output, tip));
        if (updated) {
          credited += 1;
          deps.onCredited?.(updated);
          await deps.notify(updated);
        }
      }

      // 6. Count confirmations and find what left the chain, for every deposit still watched.
      await followSeenDeposits(deps, {
        tip,
        views,
        looked,
        inMempool: inPool.inMempool,
        forkHeight: position.forkHeight,
        lateSince,
      });

      // 7. Where the next pass resumes.
      if (position.forkHeight !== null) {
        await deleteScanBlocksAbove(db, position.forkHeight < 0 ? null : position.forkHeight);
      }
      await saveScanBlocks(db, scanned, now());
      mempool.remember(inPool);
      previous = { orderIds: new Set(watched.map((entry) => entry.orderId)), readAt };
      return { credited };
    },
  };
}

export type DepositWatcher = ReturnType<typeof createDepositWatcher>;
