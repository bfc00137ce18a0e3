/**
 * Every rail once (docs/design.md, "Rails"): a way money or bitcoin moves. What customers and operators
 * see of a rail is here; enums, labels, tiles, settings forms, PDF and timeline words and the database
 * enums are derived from it. Each rail's server behaviour is in `apps/server/src/rails/<rail>/`.
 */

export type RailDirection = 'buy-funding' | 'sell-payout' | 'buy-payout' | 'sell-deposit';

export interface Rail {
  id: string;
  /** The name customers read, at the start of a sentence or on a button. */
  label: string;
  /** The directions the rail serves. */
  directions: readonly RailDirection[];
}

export const RAILS = [
  { id: 'paypal', label: 'PayPal', directions: ['buy-funding'] },
  { id: 'zelle', label: 'Zelle', directions: ['buy-funding', 'sell-payout'] },
  { id: 'ach', label: 'ACH', directions: ['buy-funding', 'sell-payout'] },
  { id: 'wire', label: 'Wire', directions: ['buy-funding', 'sell-payout'] },
  { id: 'onchain', label: 'Bitcoin', directions: ['buy-payout', 'sell-deposit'] },
] as const satisfies readonly Rail[];

export type RailId = (typeof RAILS)[number]['id'];
