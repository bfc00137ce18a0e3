import { isValidBitcoinAddress, type BitcoinNetwork } from '@offzero/shared/bitcoin/address';
import { formatUsd } from '@offzero/shared/money/money';
import type { ChainApi } from '../chain/chain-api';
import type { Database, Transaction } from '../db/database';
import type { OrderRow, PayoutAddressRow } from '../db/schema';
import { AppError } from '../http/errors';
import { findGlobalSettings } from '../settings/global-settings.repository';
import {
  findBuyOrder,
  findPayoutAddressByAddress,
  findPayoutAddressById,
  claimPayoutIndex,
  recordDerivedPayoutAddress,
} from './payout-address.repository';
import { screenNothing, type ScreenAddress } from './payout-address.service';
import { derivePayoutAddress } from './payout-xpub';
import { checkPlaceForMoneyRoute, ShieldRefusal } from '../places/place-check';

/**
 * Where a paid buy's bitcoin goes, and whether it may go there yet (docs/design.md). Every payout path
 * asks here: the manual `payout-btc` and demo send of the back office, and payout batches.
 *
 * A buy is due for payout only when its address-book entry is confirmed, past its cooldown, not
 * removed, and proven when the operator requires proof at the buy's value. An xpub entry pays each buy
 * a fresh receive address, derived once and recorded on the order (`walletAddress`, `payoutIndex`).
 */

export type PayoutHoldReason =
  | 'not_paid'
  | 'not_in_address_book'
  | 'removed'
  | 'unconfirmed'
  | 'cooldown'
  | 'proof_required'
  | 'cooling_off'
  | 'place_closed';

export type PayoutDestination =
  | { due: true; address: string | null; entry: PayoutAddressRow }
  | { due: false; reason: PayoutHoldReason; message: string; entry: PayoutAddressRow | null };

/** Addresses with chain history an xpub payout skips before it gives up (the customer reused many). */
export const MAX_SKIPPED_ADDRESSES = 20;

function utc(date: Date): string {
  return `${date.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}

/** The buy's entry: the one it names, or (buys from before the address book) its address's. */
async function entryOfOrder(
  db: Database | Transaction,
  order: OrderRow,
): Promise<PayoutAddressRow | undefined> {
  if (order.payoutAddressId) return findPayoutAddressById(db, order.payoutAddressId);
  if (order.walletAddress) return findPayoutAddressByAddress(db, order.userId, order.walletAddress);
  return undefined;
}

/**
 * Whether the buy's address may be paid now, without deriving anything: the check every payout path
 * makes (inside its own transaction when it passes `db` as one). `address` is null for an xpub buy
 * whose address is not derived yet.
 */
export async function checkPayoutDestination(
  db: Database | Transaction,
  order: OrderRow,
  now: Date,
): Promise<PayoutDestination> {
  const entry = (await entryOfOrder(db, order)) ?? null;
  // The operator's proof threshold matters only for an entry that passes every other rule.
  const proofRequiredCents = async () => (await findGlobalSettings(db)).proofRequiredCents;
  const judged = await judgePayoutDestination(order, entry, proofRequiredCents, now);
  if (!judged.due) return judged;
  // A place closed for buying since the buy was saved: no bitcoin leaves (docs/design.md, "Places and the scam shield").
  try {
    await checkPlaceForMoneyRoute(db, { userId: order.userId, side: 'buy', route: 'payout' });
  } catch (error) {
    if (!(error instanceof ShieldRefusal)) throw error;
    return {
      due: false,
      reason: 'place_closed',
      message: `The customer's place is closed for buying: ${error.message}`,
      entry,
    };
  }
  return judged;
}

/**
 * The rules of `checkPayoutDestination` on what was read already: the buy's entry (null when it has
 * none) and the operator's proof threshold (a value, or how to read it when it is needed). Lists of
 * buys read every entry in one query and judge each here.
 */
export async function judgePayoutDestination(
  order: OrderRow,
  entry: PayoutAddressRow | null,
  proofRequiredCents: bigint | null | (() => Promise<bigint | null>),
  now: Date,
): Promise<PayoutDestination> {
  if (!entry) {
    return {
      due: false,
      reason: 'not_in_address_book',
      message: "The payout address is not in the customer's address book: they must add and confirm it.",
      entry,
    };
  }
  if (entry.removedAt) {
    return {
      due: false,
      reason: 'removed',
      message: 'The customer removed this payout address: ask them for another one.',
      entry,
    };
  }
  if (!entry.confirmedAt || !entry.usableAt) {
    return {
      due: false,
      reason: 'unconfirmed',
      message: 'The payout waits until the customer confirms the address from the link we e-mailed them.',
      entry,
    };
  }
  // The scam shield's cooling-off: a new customer's buy to a destination never paid and not proven.
  if (order.coolingUntil && order.coolingUntil.getTime() > now.getTime()) {
    return {
      due: false,
      reason: 'cooling_off',
      message:
        `Scam shield cooling-off: a new customer's first payout to this address waits until ` +
        `${utc(order.coolingUntil)}; until then the customer may cancel it as a scam.`,
      entry,
    };
  }
  if (entry.usableAt.getTime() > now.getTime()) {
    return {
      due: false,
      reason: 'cooldown',
      message: `The payout address was confirmed recently; it can be paid from ${utc(entry.usableAt)}.`,
      entry,
    };
  }
  const threshold =
    typeof proofRequiredCents === 'function' ? await proofRequiredCents() : proofRequiredCents;
  if (threshold !== null && order.valueCents >= threshold && !entry.provenAt) {
    return {
      due: false,
      reason: 'proof_required',
      message:
        `Payouts of $${formatUsd(threshold)} or more need a proven address: the payout waits ` +
        "for the customer's ownership signature (Settings → Payout addresses).",
      entry,
    };
  }
  return { due: true, address: entry.address ?? order.walletAddress, entry };
}

/** Whether a batch may pay a buy now: at a known address of the server's network, or why not. */
export type PayoutReadiness =
  { payable: true; address: string } | { payable: false; address: string | null; reason: string };

/**
 * A destination as a payout batch needs it: due, its address derived (an xpub buy's), and of the
 * server's network.
 */
export function payoutReadiness(
  destination: PayoutDestination,
  order: OrderRow,
  network: BitcoinNetwork,
): PayoutReadiness {
  if (!destination.due) return { payable: false, address: order.walletAddress, reason: destination.message };
  const { address } = destination;
  if (!address) {
    return { payable: false, address: null, reason: 'the address of its xpub entry is not derived yet' };
  }
  if (!isValidBitcoinAddress(address, network)) {
    return { payable: false, address, reason: `the address is not a ${network} bitcoin address` };
  }
  return { payable: true, address };
}

/** Why the buy may not be paid now at a known address, or null when it may. */
export function payoutDestinationProblem(destination: PayoutDestination): string | null {
  if (!destination.due) return destination.message;
  if (!destination.address) {
    return "This buy pays a fresh address of the customer's xpub, not derived yet: open the order to get it first.";
  }
  return null;
}

export interface ResolveDeps {
  db: Database;
  chain: Pick<ChainApi, 'hasHistory'>;
  network: BitcoinNetwork;
  screenAddress?: ScreenAddress | undefined;
  now?: (() => Date) | undefined;
}

/**
 * The address to pay a buy at, or why it is not due yet. For an xpub entry the first time this is asked,
 * the next index is taken (atomically: two buys never share one), addresses with chain history are
 * skipped, the address is screened and recorded on the order; afterwards the recorded address answers.
 * Payout batches call this for every candidate buy.
 */
export async function resolvePayoutDestination(
  deps: ResolveDeps,
  orderId: string,
): Promise<PayoutDestination> {
  const now = (deps.now ?? (() => new Date()))();
  const order = await findBuyOrder(deps.db, orderId);
  if (!order) throw new AppError('NOT_FOUND', 'Order not found.');
  const destination = await checkPayoutDestination(deps.db, order, now);
  if (!destination.due || destination.address) return destination;
  // A fresh xpub address is taken only for a buy that is paid and waits for its bitcoin.
  if (order.status !== 'processing' || !order.paymentConfirmedAt) {
    return {
      due: false,
      reason: 'not_paid',
      message: 'The payment of this buy has not been confirmed yet.',
      entry: destination.entry,
    };
  }

  const { entry } = destination;
  const screen = deps.screenAddress ?? screenNothing;
  // The chain is read outside any transaction; the index is claimed and replaced under the order's lock.
  let index = await claimPayoutIndex(deps.db, { orderId: order.id, entryId: entry.id, replacing: null });
  let skipped = 0;
  // Bounded: each turn skips an address with history, or follows another resolver of this buy.
  for (let turn = 0; turn < 3 * (MAX_SKIPPED_ADDRESSES + 1) && skipped <= MAX_SKIPPED_ADDRESSES; turn += 1) {
    const address = derivePayoutAddress(entry.xpub!, index, deps.network);
    if (await deps.chain.hasHistory(address)) {
      const next = await claimPayoutIndex(deps.db, {
        orderId: order.id,
        entryId: entry.id,
        replacing: index,
      });
      if (next !== index) skipped += 1;
      index = next;
      continue;
    }
    await screen(address, { userId: order.userId, purpose: 'xpub-payout' });
    if (await recordDerivedPayoutAddress(deps.db, order.id, { address, index })) {
      return { due: true, address, entry };
    }
    // Another resolver recorded the address, or moved the buy to a later index: follow it.
    const current = await findBuyOrder(deps.db, order.id);
    if (current?.walletAddress) return { due: true, address: current.walletAddress, entry };
    if (current?.payoutIndex === null || current?.payoutIndex === undefined) break;
    index = current.payoutIndex;
  }
  throw new AppError(
    'CONFLICT',
    `The next ${MAX_SKIPPED_ADDRESSES + 1} addresses of the customer's xpub all have history already: ask them for a fresh key.`,
  );
}

/**
 * Derives, outside any lock, the fresh address of each xpub buy about to be batched (it reads the chain
 * to skip used addresses); buys that name an address are left as they are.
 */
export async function deriveXpubDestinations(deps: ResolveDeps, orders: readonly OrderRow[]): Promise<void> {
  for (const order of orders) {
    if (order.walletAddress) continue;
    await resolvePayoutDestination(deps, order.id);
  }
}

/** Whether a buy may be paid out now (without deriving an xpub address): for lists of due buys. */
export async function isPayoutAddressUsable(
  db: Database,
  order: OrderRow,
  now = new Date(),
): Promise<boolean> {
  return (await checkPayoutDestination(db, order, now)).due;
}

const CUSTOMER_HOLD_TEXT: Record<
  Exclude<PayoutHoldReason, 'not_paid'>,
  (entry: PayoutAddressRow | null) => string
> = {
  not_in_address_book: () =>
    'We send your bitcoin once this address is in your payout addresses and confirmed (Settings).',
  removed: () => 'You removed this payout address. Contact support to choose another one.',
  unconfirmed: () => 'We send your bitcoin once you confirm the address: open the link we e-mailed you.',
  cooldown: (entry) =>
    `Your new address can receive payouts from ${utc(entry!.usableAt!)}; we send your bitcoin then.`,
  proof_required: () =>
    'Orders of this size need proof that you own the address: sign the message in Settings → Payout addresses.',
  cooling_off: () =>
    'For your safety, bitcoin to a new address waits a day. If someone asked you to buy, cancel this order now.',
  place_closed: () => 'OffZero cannot send bitcoin to customers in your state right now. Contact support.',
};

/** Only a buy that is not done yet can wait for its payout address. */
const mayWaitForAddress = (order: OrderRow) =>
  order.type === 'buy' && (order.status === 'pending' || order.status === 'processing');

/**
 * Why each of these buys (pending or processing) waits for its payout address, in words for the
 * customer (their order list and drawer); buys with nothing to wait for are absent.
 */
export async function customerPayoutHolds(
  db: Database,
  listed: readonly { order: OrderRow; entry: PayoutAddressRow | null }[],
  now = new Date(),
): Promise<Map<string, string>> {
  const holds = new Map<string, string>();
  // Read at most once per list, and only when an order needs it.
  let proofRequired: Promise<bigint | null> | undefined;
  const readProofRequired = () =>
    (proofRequired ??= findGlobalSettings(db).then((settings) => settings.proofRequiredCents));
  for (const { order, entry: joined } of listed) {
    if (!mayWaitForAddress(order)) continue;
    // The list joined the entry the buy names; a buy from before the address book is matched by address.
    const entry = joined ?? (order.payoutAddressId ? null : ((await entryOfOrder(db, order)) ?? null));
    const destination = await judgePayoutDestination(order, entry, readProofRequired, now);
    if (destination.due || destination.reason === 'not_paid') continue;
    holds.set(order.id, CUSTOMER_HOLD_TEXT[destination.reason](destination.entry));
  }
  return holds;
}

/** `customerPayoutHolds` for one buy: why its bitcoin waits for its payout address, if it does. */
export async function customerPayoutHold(
  db: Database,
  order: OrderRow,
  now = new Date(),
): Promise<string | undefined> {
  // A sell's save, or a finished order, reads nothing more.
  if (!mayWaitForAddress(order)) return undefined;
  const entry = (await entryOfOrder(db, order)) ?? null;
  return (await customerPayoutHolds(db, [{ order, entry }], now)).get(order.id);
}
