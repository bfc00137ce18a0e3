import { findNewestScanBlocks } from '../deposit.repository';
import type { WatcherDeps } from './watcher-deps';

/** The newest matched blocks searched for a reorganisation's fork point; deeper, every address is looked at. */
export const REORG_WALK_BACK_BLOCKS = 24;

/** Further behind the tip than this (a day of blocks), each watched address is looked at once instead. */
export const CATCH_UP_AFTER_BLOCKS = 144;

export interface ScanPosition {
  /** Look at each watched address once instead of reading blocks. */
  catchUp: boolean;
  /** The next height to read. */
  from: number;
  /** The height above which a reorganisation moved what was credited; null: none; -1: deeper than kept. */
  forkHeight: number | null;
}

/**
 * Where the scan of blocks stands: the next height to read, and the height above which a
 * reorganisation may have moved or removed what was credited (null when nothing changed; -1 when
 * deeper than the blocks kept). With no block matched yet, too far behind, or a reorganisation deeper
 * than the blocks kept, `catchUp` says to look at each watched address once instead. The stored
 * blocks change only once the pass has done its work: a pass that fails finds the same again.
 */
export async function scanPosition(deps: WatcherDeps, tip: number): Promise<ScanPosition> {
  const stored = await findNewestScanBlocks(deps.db, REORG_WALK_BACK_BLOCKS);
  const top = stored[0];
  if (!top) return { catchUp: true, from: tip + 1, forkHeight: null };
  for (const block of stored) {
    if ((await deps.chain.blockHash(block.height)) !== block.hash) continue;
    if (block !== top) {
      deps.log.warn(
        { from: block.height + 1, to: top.height },
        'deposit watcher: blocks were replaced on the chain (reorganisation); reading them again',
      );
    }
    return {
      catchUp: tip - block.height > CATCH_UP_AFTER_BLOCKS,
      from: block.height + 1,
      forkHeight: block === top ? null : block.height,
    };
  }
  deps.log.warn(
    { below: stored.at(-1)?.height },
    'deposit watcher: the chain changed deeper than the blocks kept; looking at every watched address',
  );
  return { catchUp: true, from: tip + 1, forkHeight: -1 };
}
