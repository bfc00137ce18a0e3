import { z } from 'zod';
import { byRail, DEFAULT_RAIL_ARRIVAL, SETTINGS_RAILS } from '../rails/rails';

/**
 * `GET /api/admin/settings` (docs/design.md). Units at this edge: percentages in percent, sizes and
 * bank charges in USD, the session timeout in seconds. Visitors receive only the public part.
 */
const methodSwitch = z.object({ is_active: z.boolean() });

/**
 * When the customer's money or bitcoin arrives, per payment method, in the operator's words: shown at
 * checkout and on the order. These are the first values; the operator edits them in the back office.
 */
export const DEFAULT_ARRIVAL_TIMING = DEFAULT_RAIL_ARRIVAL;

/** A line for each rail with a settings group (a rail without one says its own, in the registry). */
export const arrivalTimingSchema = z.object(byRail(SETTINGS_RAILS, () => z.string()));
export type ArrivalTiming = z.infer<typeof arrivalTimingSchema>;

export const publicGlobalSettingsSchema = z.object({
  order: z.object({
    platform_fees: z.number(),
    min_order_size: z.number(),
    max_order_size: z.number(),
    order_session_timeout: z.number().int(),
  }),
  /** Each rail's switch, for the rails with a settings group (a rail without one is always on). */
  ...byRail(SETTINGS_RAILS, () => methodSwitch),
  referral: z.object({ reward: z.number(), trades_eligible: z.number().int() }),
  /** Expected arrival timing of each payment method (public: shown before sign-in too). */
  arrival: arrivalTimingSchema,
});

const windowLimits = z.object({ day: z.number(), week: z.number(), month: z.number() });

export const fullGlobalSettingsSchema = publicGlobalSettingsSchema.extend({
  /** Staff only: each KYC tier's trading limits (USD) over 24 hours, 7 days and 30 days. */
  limits: z.object({ tier1: windowLimits, tier2: windowLimits }).optional(),
  /** Staff only: the scam shield's new-customer daily buy cap (USD) and cooling-off (hours). */
  scam: z.object({ new_customer_daily_usd: z.number(), cooling_hours: z.number().int() }).optional(),
  /** Staff only: business days a recurring or deposit buy waits after the money settles. */
  recurring: z.object({ hold_days: z.number().int() }).optional(),
  order: publicGlobalSettingsSchema.shape.order.extend({
    /** Staff only: a buy marked paid or a sell paid out at or above this (USD) needs two admins. */
    four_eyes_usd: z.number().optional(),
    /**
     * Staff only: a buy paid out at or above this (USD) needs a payout address the customer proved
     * they own (BIP-322); 0: no proof required.
     */
    proof_required_usd: z.number().optional(),
  }),
  zelle: methodSwitch.extend({ payment_address: z.string(), bank_charges: z.number() }),
  ach: methodSwitch.extend({
    account_holder: z.string(),
    account_number: z.string(),
    bank_address: z.string(),
    routing_number: z.string(),
    bank_charges: z.number(),
  }),
  wire: methodSwitch.extend({
    account_holder: z.string(),
    account_number: z.string(),
    bank_address: z.string(),
    swift_code: z.string(),
    bank_charges: z.number(),
  }),
  /** Instant sell payouts (RTP, FedNow): their charge, and the largest one sent instantly. */
  instant: methodSwitch.extend({ bank_charges: z.number(), max_payout: z.number() }),
  /**
   * Lightning (docs/design.md, "Lightning"), in whole satoshis: the largest sell paid by Lightning, the
   * largest buy paid out by it, and what the platform pays out by Lightning in a day.
   */
  lightning: methodSwitch.extend({
    max_order_sats: z.number().int(),
    max_payout_sats: z.number().int(),
    daily_payout_sats: z.number().int(),
  }),
});

export type PublicGlobalSettings = z.infer<typeof publicGlobalSettingsSchema>;
export type FullGlobalSettings = z.infer<typeof fullGlobalSettingsSchema>;
export type GlobalSettings = PublicGlobalSettings | FullGlobalSettings;

export const globalSettingsResponseSchema = z.object({
  settings: z.union([fullGlobalSettingsSchema, publicGlobalSettingsSchema]),
});
