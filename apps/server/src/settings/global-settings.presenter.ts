import { centsToUsdNumber, percentFromBasisPoints } from '@offzero/shared/money/money';
import type { FullGlobalSettings, PublicGlobalSettings } from '@offzero/shared/api/global-settings';
import { byRail, SETTINGS_RAILS, type RailIdWithSettings } from '@offzero/shared/rails/rails';
import type { GlobalSettingsRow } from '../db/schema';
import { railHandler } from '../rails/rail-registry';

/** The column of each settings group's "When it arrives" line (a rail without a group has none). */
const ARRIVAL_COLUMN: Record<RailIdWithSettings, (row: GlobalSettingsRow) => string> = {
  paypal: (row) => row.arrivalPaypal,
  zelle: (row) => row.arrivalZelle,
  ach: (row) => row.arrivalAch,
  wire: (row) => row.arrivalWire,
  instant: (row) => row.arrivalInstant,
};

/** What anyone may see: limits, fees, which methods are on, when each arrives, and the referral terms. */
export function toPublicSettings(row: GlobalSettingsRow): PublicGlobalSettings {
  return {
    order: {
      platform_fees: percentFromBasisPoints(row.platformFeeBps),
      min_order_size: centsToUsdNumber(row.minOrderCents),
      max_order_size: centsToUsdNumber(row.maxOrderCents),
      order_session_timeout: row.orderSessionTimeoutSeconds,
    },
    // Each group's switch, as its rail reads it.
    ...byRail(SETTINGS_RAILS, (id) => ({ is_active: railHandler(id).isActive(row) })),
    referral: {
      reward: percentFromBasisPoints(row.referralRewardBps),
      trades_eligible: row.referralTradesEligible,
    },
    arrival: byRail(SETTINGS_RAILS, (id) => ARRIVAL_COLUMN[id](row)),
  };
}

/**
 * Adds the company's receiving bank details, which only signed-in customers receive, and for staff
 * the four-eyes threshold and the trading limits of each tier.
 */
export function toFullSettings(row: GlobalSettingsRow, forStaff = false): FullGlobalSettings {
  const publicPart = toPublicSettings(row);
  return {
    ...publicPart,
    order: forStaff
      ? {
          ...publicPart.order,
          four_eyes_usd: centsToUsdNumber(row.fourEyesCents),
          proof_required_usd: centsToUsdNumber(row.proofRequiredCents ?? 0n),
        }
      : publicPart.order,
    ...(forStaff
      ? {
          limits: {
            tier1: {
              day: centsToUsdNumber(row.limitTier1DayCents),
              week: centsToUsdNumber(row.limitTier1WeekCents),
              month: centsToUsdNumber(row.limitTier1MonthCents),
            },
            tier2: {
              day: centsToUsdNumber(row.limitTier2DayCents),
              week: centsToUsdNumber(row.limitTier2WeekCents),
              month: centsToUsdNumber(row.limitTier2MonthCents),
            },
          },
          scam: {
            new_customer_daily_usd: centsToUsdNumber(row.scamNewCustomerDailyCents),
            cooling_hours: row.scamCoolingHours,
          },
          recurring: { hold_days: row.recurringHoldDays },
        }
      : {}),
    zelle: {
      is_active: row.zelleActive,
      payment_address: row.zellePaymentAddress,
      bank_charges: centsToUsdNumber(row.zelleBankChargesCents),
    },
    ach: {
      is_active: row.achActive,
      account_holder: row.achAccountHolder,
      account_number: row.achAccountNumber,
      bank_address: row.achBankAddress,
      routing_number: row.achRoutingNumber,
      bank_charges: centsToUsdNumber(row.achBankChargesCents),
    },
    wire: {
      is_active: row.wireActive,
      account_holder: row.wireAccountHolder,
      account_number: row.wireAccountNumber,
      bank_address: row.wireBankAddress,
      swift_code: row.wireSwiftCode,
      bank_charges: centsToUsdNumber(row.wireBankChargesCents),
    },
    instant: {
      is_active: row.instantActive,
      bank_charges: centsToUsdNumber(row.instantBankChargesCents),
      max_payout: centsToUsdNumber(row.instantMaxPayoutCents),
    },
    lightning: {
      is_active: row.lightningActive,
      max_order_sats: Number(row.lightningMaxOrderSats),
      max_payout_sats: Number(row.lightningMaxPayoutSats),
      daily_payout_sats: Number(row.lightningDailyPayoutSats),
    },
  };
}
