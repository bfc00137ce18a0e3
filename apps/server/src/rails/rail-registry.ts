import { RAILS, type RailDirection, type RailId, type SellPayoutRail } from '@offzero/shared/rails/rails';
import type { GlobalSettingsRow } from '../db/schema';
import { achRail } from './ach';
import { lightningRail } from './lightning';
import { instantRail } from './instant';
import { onchainRail } from './onchain';
import { paypalRail } from './paypal';
import type { RailHandler } from './rail-handler';
import { wireRail } from './wire';
import { zelleRail } from './zelle';

/**
 * Every rail's handler, registered once and looked up by id (docs/design.md, "Rails"). The shared
 * registry `RAILS` says which rails exist and what they serve; this says what each one does.
 */
const HANDLERS: { readonly [id in RailId]: RailHandler } = {
  paypal: paypalRail,
  zelle: zelleRail,
  ach: achRail,
  wire: wireRail,
  instant: instantRail,
  onchain: onchainRail,
  lightning: lightningRail,
};

/** The handler of one rail. */
export function railHandler(id: RailId): RailHandler {
  return HANDLERS[id];
}

/** The handler of a rail named by a client, or undefined when no rail has that id. */
export function findRailHandler(id: string | undefined): RailHandler | undefined {
  return RAILS.find((rail) => rail.id === id) ? HANDLERS[id as RailId] : undefined;
}

/** The rails the operator has switched on that serve a direction, in the shared registry's order. */
export function activeRails(settings: GlobalSettingsRow, direction: RailDirection): RailHandler[] {
  return RAILS.filter((rail) => (rail.directions as readonly RailDirection[]).includes(direction))
    .map((rail) => HANDLERS[rail.id])
    .filter((handler) => handler.isActive(settings));
}

/** The handler of a rail a sell is paid out by. */
export type SellPayoutHandler = RailHandler & { id: SellPayoutRail };

/** The switched-on rail a sell may be paid out on under that name, or undefined (an unknown or off method). */
export function activeSellPayoutRail(
  settings: GlobalSettingsRow,
  method: string | undefined,
): SellPayoutHandler | undefined {
  // Only rails serving 'sell-payout' are listed, so the id is one of theirs.
  return activeRails(settings, 'sell-payout').find((handler) => handler.id === method) as
    | SellPayoutHandler
    | undefined;
}
