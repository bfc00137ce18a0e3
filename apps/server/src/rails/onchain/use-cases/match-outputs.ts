import type { ChainOutput } from '../../../chain/chain-api';
import { findScanBlocksAt, type WatchedAddress } from '../deposit.repository';
import type { ScannedBlock } from './scan-blocks';
import type { WatcherDeps } from './watcher-deps';

/** How far the clocks of two server processes may disagree (a block's reading time against an order's creation). */
const CLOCK_SLACK_MS = 60_000;

/**
 * The outputs found that pay a watched address: one view per output (the confirmed one when read both
 * ways), and those to credit, oldest block first, leaving out an address's history from before its
 * order (a block read before the order existed is not the order's deposit).
 */
export async function matchOutputs(
  deps: WatcherDeps,
  found: ChainOutput[],
  byAddress: Map<string, WatchedAddress>,
  scanned: ScannedBlock[],
  forkHeight: number | null,
): Promise<{ views: Map<string, ChainOutput>; outputs: ChainOutput[] }> {
  const views = new Map<string, ChainOutput>();
  for (const output of found) {
    if (!byAddress.has(output.address)) continue;
    const key = `${output.txid}:${output.vout}`;
    const seen = views.get(key);
    if (!seen || (seen.blockHeight === null && output.blockHeight !== null)) views.set(key, output);
  }
  const thisPass = new Set(scanned.map((block) => block.height));
  const heights = [
    ...new Set([...views.values()].flatMap((o) => (o.blockHeight === null ? [] : [o.blockHeight]))),
  ];
  // Blocks above a reorganisation's fork are not what was read then.
  const stillOnChain = (height: number) =>
    !thisPass.has(height) && (forkHeight === null || height <= forkHeight);
  const readBefore = new Map(
    (await findScanBlocksAt(deps.db, heights.filter(stillOnChain))).map((block) => [
      block.height,
      block.scannedAt.getTime(),
    ]),
  );
  const outputs = [...views.values()]
    .filter((output) => {
      const read = output.blockHeight === null ? undefined : readBefore.get(output.blockHeight);
      const order = byAddress.get(output.address)!;
      return read === undefined || read >= order.createdAt.getTime() - CLOCK_SLACK_MS;
    })
    .sort((a, b) => (a.blockHeight ?? Infinity) - (b.blockHeight ?? Infinity));
  return { views, outputs };
}
