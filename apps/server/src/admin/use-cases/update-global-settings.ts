import type { FullGlobalSettings } from '@offzero/shared/api/global-settings';
import { basisPointsFromPercent, MoneyParseError, usdNumberToCents } from '@offzero/shared/money/money';
import type { SignedInUser } from '../../auth/sessions';
import type { Database } from '../../db/database';
import type { GlobalSettingsRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import {
  lockGlobalSettings,
  saveGlobalSettings,
  type GlobalSettingsChange,
} from '../../settings/global-settings.repository';
import { forgetCachedGlobalSettings } from '../../settings/global-settings-cache';
import { toFullSettings } from '../../settings/global-settings.presenter';
import { recordAdminAction } from '../admin-audit.repository';

/** The settings as edited: a group the editor did not send (arrival timing) is left as it is. */
export type EditedSettings = Omit<FullGlobalSettings, 'arrival' | 'instant' | 'lightning'> & {
  arrival?: FullGlobalSettings['arrival'];
  instant?: FullGlobalSettings['instant'];
  lightning?: FullGlobalSettings['lightning'];
};

/** The edited settings (units of `GET /api/admin/settings`) in the database's integer units. */
function toStoredSettings(s: EditedSettings): GlobalSettingsChange {
  try {
    return {
      platformFeeBps: basisPointsFromPercent(s.order.platform_fees),
      minOrderCents: usdNumberToCents(s.order.min_order_size),
      maxOrderCents: usdNumberToCents(s.order.max_order_size),
      orderSessionTimeoutSeconds: s.order.order_session_timeout,
      paypalActive: s.paypal.is_active,
      zelleActive: s.zelle.is_active,
      zellePaymentAddress: s.zelle.payment_address,
      zelleBankChargesCents: usdNumberToCents(s.zelle.bank_charges),
      achActive: s.ach.is_active,
      achAccountHolder: s.ach.account_holder,
      achAccountNumber: s.ach.account_number,
      achBankAddress: s.ach.bank_address,
      achRoutingNumber: s.ach.routing_number,
      achBankChargesCents: usdNumberToCents(s.ach.bank_charges),
      wireActive: s.wire.is_active,
      wireAccountHolder: s.wire.account_holder,
      wireAccountNumber: s.wire.account_number,
      wireBankAddress: s.wire.bank_address,
      wireSwiftCode: s.wire.swift_code,
      wireBankChargesCents: usdNumberToCents(s.wire.bank_charges),
      ...(s.instant === undefined
        ? {}
        : {
            instantActive: s.instant.is_active,
            instantBankChargesCents: usdNumberToCents(s.instant.bank_charges),
            instantMaxPayoutCents: usdNumberToCents(s.instant.max_payout),
          }),
      // Lightning's caps are whole satoshis (checked so by the settings rules).
      ...(s.lightning === undefined
        ? {}
        : {
            lightningActive: s.lightning.is_active,
            lightningMaxOrderSats: BigInt(s.lightning.max_order_sats),
            lightningMaxPayoutSats: BigInt(s.lightning.max_payout_sats),
            lightningDailyPayoutSats: BigInt(s.lightning.daily_payout_sats),
          }),
      referralRewardBps: basisPointsFromPercent(s.referral.reward),
      referralTradesEligible: s.referral.trades_eligible,
      ...(s.order.four_eyes_usd === undefined
        ? {}
        : { fourEyesCents: usdNumberToCents(s.order.four_eyes_usd) }),
      ...(s.arrival === undefined
        ? {}
        : {
            arrivalPaypal: s.arrival.paypal,
            arrivalZelle: s.arrival.zelle,
            arrivalAch: s.arrival.ach,
            arrivalWire: s.arrival.wire,
            arrivalInstant: s.arrival.instant,
          }),
      ...(s.limits === undefined
        ? {}
        : {
            limitTier1DayCents: usdNumberToCents(s.limits.tier1.day),
            limitTier1WeekCents: usdNumberToCents(s.limits.tier1.week),
            limitTier1MonthCents: usdNumberToCents(s.limits.tier1.month),
            limitTier2DayCents: usdNumberToCents(s.limits.tier2.day),
            limitTier2WeekCents: usdNumberToCents(s.limits.tier2.week),
            limitTier2MonthCents: usdNumberToCents(s.limits.tier2.month),
          }),
      ...(s.scam === undefined
        ? {}
        : {
            scamNewCustomerDailyCents: usdNumberToCents(s.scam.new_customer_daily_usd),
            scamCoolingHours: s.scam.cooling_hours,
          }),
      ...(s.recurring === undefined ? {} : { recurringHoldDays: s.recurring.hold_days }),
      // 0 switches the ownership-proof rule off.
      ...(s.order.proof_required_usd === undefined
        ? {}
        : {
            proofRequiredCents:
              s.order.proof_required_usd === 0 ? null : usdNumberToCents(s.order.proof_required_usd),
          }),
      updatedAt: new Date(),
    };
  } catch (error) {
    // More decimals than cents or basis points hold: the admin's input, not our fault.
    if (error instanceof MoneyParseError) throw new AppError('BAD_REQUEST', error.message);
    throw error;
  }
}

/**
 * Saves the global settings (already validated) with an audit entry of before and after, both read
 * in the transaction that saves them. The next quote uses them.
 */
export async function updateGlobalSettings(
  deps: { db: Database },
  request: { staff: SignedInUser; settings: EditedSettings },
): Promise<GlobalSettingsRow> {
  const change = toStoredSettings(request.settings);
  const saved = await deps.db.transaction(async (tx) => {
    const before = await lockGlobalSettings(tx);
    const after = await saveGlobalSettings(tx, change);
    await recordAdminAction(tx, request.staff, {
      action: 'settings.update',
      targetType: 'settings',
      targetId: 'global',
      before: toFullSettings(before, true),
      after: toFullSettings(after, true),
    });
    return after;
  });
  // After the commit: this process's next save reads the new settings (others' copies expire < 1 s).
  forgetCachedGlobalSettings();
  return saved;
}
