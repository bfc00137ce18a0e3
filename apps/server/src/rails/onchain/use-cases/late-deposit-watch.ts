import type { ChainOutput } from '../../../chain/chain-api';
import { findWatchedDepositAddresses, type WatchedAddress } from '../deposit.repository';
import { REVERSAL_WATCH_CONFIRMATIONS } from './reversal-watch';
import type { WatcherDeps } from './watcher-deps';

/** Expired and cancelled sells are still watched this long, so a late deposit is never lost. */
export const LATE_DEPOSIT_WATCH_MS = 24 * 3600_000;

/** Addresses looked at on their own at once when catching up. */
const PARALLEL_LOOKS = 8;

/** The orders a watcher watched at its last pass, and when it read them. */
export interface PreviousPass {
  orderIds: Set<string>;
  readAt: number;
}

/**
 * The deposit addresses watched, in one query: open sells, expired and cancelled ones for
 * `LATE_DEPOSIT_WATCH_MS`, and completed ones until their deposit is `REVERSAL_WATCH_CONFIRMATIONS` deep.
 */
export function findWatched(deps: WatcherDeps, lateSince: Date): Promise<WatchedAddress[]> {
  return findWatchedDepositAddresses(deps.db, lateSince, REVERSAL_WATCH_CONFIRMATIONS);
}

/**
 * The addresses looked at on their own: all of them when catching up; else orders that were already
 * there at the last pass without being watched (back within the late window).
 */
export function addressesToLookAt(
  watched: WatchedAddress[],
  catchUp: boolean,
  last: PreviousPass | null,
): WatchedAddress[] {
  if (catchUp) return watched;
  if (!last) return [];
  return watched.filter(
    (entry) => !last.orderIds.has(entry.orderId) && entry.createdAt.getTime() < last.readAt,
  );
}

/** Each address's outputs, a few addresses at once, and the addresses looked at. */
export async function lookAtAddresses(
  deps: WatcherDeps,
  looks: WatchedAddress[],
): Promise<{ found: ChainOutput[]; looked: Set<string> }> {
  const found: ChainOutput[] = [];
  const looked = new Set<string>();
  for (let start = 0; start < looks.length; start += PARALLEL_LOOKS) {
    const batch = looks.slice(start, start + PARALLEL_LOOKS);
    const outputs = await Promise.all(batch.map((entry) => deps.chain.outputsTo(entry.address)));
    batch.forEach((entry, i) => {
      found.push(...outputs[i]!.filter((o) => o.address === entry.address));
      looked.add(entry.address);
    });
  }
  return { found, looked };
}
