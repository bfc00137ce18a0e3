import type { JurisdictionUpdate } from '@offzero/shared/places/places';
import type { SignedInUser } from '../auth/sessions';
import type { Database } from '../db/database';
import { editPlaceRules } from './edit-place-rules';
import { toJurisdiction } from './places.presenter';
import { findRulesInForce, listOpenEditRequests } from './places.repository';

/** The places rules for their routes (docs/design.md, "Places and the scam shield"). */
export function createPlacesService(db: Database) {
  async function inForce() {
    const { version, rules } = await findRulesInForce(db);
    return { version, jurisdictions: rules.map(toJurisdiction) };
  }
  return {
    /** Every place's rules in force, and their version. */
    inForce,
    /** The same for staff, with the edits waiting for a second admin. */
    async forStaff() {
      const pending = await listOpenEditRequests(db);
      return {
        ...(await inForce()),
        pending: pending.map((request) => ({
          id: request.id,
          code: request.code,
          requestedBy: request.requestedByEmail,
          requestedAt: request.createdAt.toISOString(),
          rules: request.rules,
        })),
      };
    },
    edit: (staff: SignedInUser, code: string, update: JurisdictionUpdate) =>
      editPlaceRules(db, staff, code, update),
  };
}

export type PlacesService = ReturnType<typeof createPlacesService>;
