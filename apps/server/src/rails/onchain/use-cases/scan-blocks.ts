import type { ChainOutput } from '../../../chain/chain-api';
import type { ScanPosition } from './reorg-walk-back';
import type { WatcherDeps } from './watcher-deps';

/** Blocks read per pass at most (a busy block has some 10,000 outputs); the rest wait for the next pass. */
export const BLOCKS_PER_PASS = 6;

export interface ScannedBlock {
  height: number;
  hash: string;
}

/**
 * The outputs of the blocks since the last one matched, a few a pass, and the blocks read (kept once
 * the pass has done its work). A watcher catching up reads no block: it looks at each address instead.
 */
export async function scanBlocks(
  deps: WatcherDeps,
  position: ScanPosition,
  tip: number,
): Promise<{ found: ChainOutput[]; scanned: ScannedBlock[] }> {
  const found: ChainOutput[] = [];
  const scanned: ScannedBlock[] = [];
  if (!position.catchUp) {
    const lastHeight = Math.min(tip, position.from + BLOCKS_PER_PASS - 1);
    for (let height = position.from; height <= lastHeight; height += 1) {
      const hash = await deps.chain.blockHash(height);
      if (!hash) break;
      found.push(...(await deps.chain.blockOutputs(height, hash)));
      scanned.push({ height, hash });
    }
  }
  return { found, scanned };
}
