import { RAIL_LIST, type RailIdServing } from '../rails/rails';

/**
 * A payout's record (docs/design.md, "Payouts"): its states, the one sender allowed to send it, what it
 * is for, and the rails money or coins leave on. Declared once here; the database schema imports them.
 */

/** A payout's states; only the payouts feature's state machine moves a payout between them. */
export const PAYOUT_STATES = [
  'requested',
  'submitted',
  'settled',
  'failed',
  'returned',
  'cancelled',
] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

/**
 * The one code path allowed to send a payout: staff by hand, a signed batch, the demo chain, the
 * operator's Lightning node, the day's ACH file, or the bank's API (instant payouts).
 */
export const PAYOUT_SENDERS = ['operator', 'batch', 'demo-chain', 'lightning', 'nacha-file', 'bank-api'] as const;
export type PayoutSenderName = (typeof PAYOUT_SENDERS)[number];

/** Paying an order out, or returning a sell's coins instead of paying for them. */
export const PAYOUT_PURPOSES = ['payout', 'refund'] as const;
export type PayoutPurpose = (typeof PAYOUT_PURPOSES)[number];

/** The rails a payout leaves on: every rail that pays a seller's dollars or a buyer's bitcoin, and every
 * rail a buyer paid by (a buy's dollars refunded the way they came). */
export const PAYOUT_RAILS = RAIL_LIST.filter((rail) =>
  rail.directions.some(
    (direction) => direction === 'sell-payout' || direction === 'buy-payout' || direction === 'buy-funding',
  ),
).map((rail) => rail.id) as unknown as readonly [PayoutRailId, ...PayoutRailId[]];
export type PayoutRailId =
  RailIdServing<'sell-payout'> | RailIdServing<'buy-payout'> | RailIdServing<'buy-funding'>;
