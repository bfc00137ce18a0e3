import { z } from 'zod';
import { centsToUsdNumber, MoneyParseError, parseUsd } from '../money/money';
import {
  checkSettings,
  LIMIT_PERIODS,
  LIMIT_TIER_KEYS,
  MESSAGES,
  reporter,
  type Report,
  type SettingsDraft,
} from './admin-settings-rules';
import type { FullGlobalSettings } from './global-settings';
import { byRail, SETTINGS_RAILS } from '../rails/rails';

/**
 * The rules of the global settings (`PUT /api/admin/settings`), written once for both sides:
 * - the server checks the JSON body with `settingsUpdateSchema` (numbers, in the units of
 *   `GET /api/admin/settings`);
 * - the back-office editor checks what its operator typed with `settingsFormSchema` (every field as
 *   text), which reads the text as numbers and then applies the very same rules.
 * Every message sits on its field's path ('order.min_order_size'), the key the server's `errors` and
 * the editor's fields share, and each field keeps only its first message.
 */

// ---------------------------------------------------------------------------------------------------
// The server's body

const trimmed = z.string().trim();

/** `PUT /api/admin/settings`: the editable global settings, unknown fields refused. */
export const settingsUpdateSchema = z
  .strictObject({
    order: z.strictObject({
      platform_fees: z.number(),
      min_order_size: z.number(),
      max_order_size: z.number(),
      order_session_timeout: z.number(),
      four_eyes_usd: z.number().optional(),
      proof_required_usd: z.number().optional(),
    }),
    paypal: z.strictObject({ is_active: z.boolean() }),
    zelle: z.strictObject({ is_active: z.boolean(), payment_address: trimmed, bank_charges: z.number() }),
    ach: z.strictObject({
      is_active: z.boolean(),
      account_holder: trimmed,
      account_number: trimmed,
      bank_address: trimmed,
      routing_number: trimmed,
      bank_charges: z.number(),
    }),
    wire: z.strictObject({
      is_active: z.boolean(),
      account_holder: trimmed,
      account_number: trimmed,
      bank_address: trimmed,
      swift_code: trimmed.toUpperCase(),
      bank_charges: z.number(),
    }),
    /** Absent: left as it is. */
    instant: z
      .strictObject({ is_active: z.boolean(), bank_charges: z.number(), max_payout: z.number() })
      .optional(),
    /** Absent: left as it is. */
    lightning: z
      .strictObject({
        is_active: z.boolean(),
        max_order_sats: z.number(),
        max_payout_sats: z.number(),
        daily_payout_sats: z.number(),
      })
      .optional(),
    referral: z.strictObject({ reward: z.number(), trades_eligible: z.number() }),
    arrival: z.strictObject(byRail(SETTINGS_RAILS, () => trimmed)).optional(),
    limits: z
      .strictObject({
        tier1: z.strictObject({ day: z.number(), week: z.number(), month: z.number() }),
        tier2: z.strictObject({ day: z.number(), week: z.number(), month: z.number() }),
      })
      .optional(),
    scam: z.strictObject({ new_customer_daily_usd: z.number(), cooling_hours: z.number() }).optional(),
    recurring: z.strictObject({ hold_days: z.number() }).optional(),
  })
  .superRefine((settings, ctx) => checkSettings(settings, reporter(ctx).report));

// ---------------------------------------------------------------------------------------------------
// The editor's form

/** The settings editor's fields: every number as the text the operator typed. */
export const settingsFormFieldsSchema = z.object({
  order: z.object({
    platform_fees: z.string(),
    min_order_size: z.string(),
    max_order_size: z.string(),
    order_session_timeout: z.string(),
    four_eyes_usd: z.string().optional(),
    proof_required_usd: z.string().optional(),
  }),
  paypal: z.object({ is_active: z.boolean() }),
  zelle: z.object({ is_active: z.boolean(), payment_address: z.string(), bank_charges: z.string() }),
  ach: z.object({
    is_active: z.boolean(),
    account_holder: z.string(),
    account_number: z.string(),
    bank_address: z.string(),
    routing_number: z.string(),
    bank_charges: z.string(),
  }),
  wire: z.object({
    is_active: z.boolean(),
    account_holder: z.string(),
    account_number: z.string(),
    bank_address: z.string(),
    swift_code: z.string(),
    bank_charges: z.string(),
  }),
  instant: z.object({ is_active: z.boolean(), bank_charges: z.string(), max_payout: z.string() }),
  lightning: z.object({
    is_active: z.boolean(),
    max_order_sats: z.string(),
    max_payout_sats: z.string(),
    daily_payout_sats: z.string(),
  }),
  referral: z.object({ reward: z.string(), trades_eligible: z.string() }),
  arrival: z.object(byRail(SETTINGS_RAILS, () => z.string())),
  limits: z
    .object({
      tier1: z.object({ day: z.string(), week: z.string(), month: z.string() }),
      tier2: z.object({ day: z.string(), week: z.string(), month: z.string() }),
    })
    .optional(),
  scam: z.object({ new_customer_daily_usd: z.string(), cooling_hours: z.string() }).optional(),
  recurring: z.object({ hold_days: z.string() }).optional(),
});
export type SettingsForm = z.infer<typeof settingsFormFieldsSchema>;
/** Messages by field path ('order.min_order_size'), as the server's `errors` carries them too. */
export type SettingsErrors = Record<string, string>;

const PERCENT_TEXT = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/;

/** '1.5' → 1.5; what cannot be read is reported in the words an operator needs. */
function percentFromText(text: string, path: string, report: Report): number | null {
  const value = text.trim();
  const refuse = (message: string) => (report(path, message), null);
  if (value === '') return refuse('Enter a percentage.');
  if (value.startsWith('-')) return refuse(MESSAGES.percentNegative);
  const match = PERCENT_TEXT.exec(value);
  if (!match) return refuse('Enter a percentage as a plain number, like 1.5.');
  // Counted in the text: '1.500' has three decimals even though it reads as 1.5.
  if ((match[2] ?? match[3] ?? '').length > 2) return refuse(MESSAGES.percentDecimals);
  return Number(value);
}

function dollarsFromText(text: string, path: string, report: Report): number | null {
  try {
    return centsToUsdNumber(parseUsd(text));
  } catch (error) {
    if (!(error instanceof MoneyParseError)) throw error;
    report(path, error.reason === 'negative' ? MESSAGES.amountNegative : error.message);
    return null;
  }
}

function wholeFromText(text: string, path: string, report: Report, what: string): number | null {
  const value = text.trim();
  const refuse = (message: string) => (report(path, message), null);
  if (value === '') return refuse(`Enter the ${what}.`);
  if (value.startsWith('-')) return refuse(MESSAGES.wholeNegative);
  if (!/^\d+$/.test(value)) return refuse(`Enter the ${what} as a whole number.`);
  return Number(value);
}

/** A cap in satoshis, as whole digits (thousands separators allowed). */
const satsFromText = (text: string, path: string, report: Report) =>
  wholeFromText(text.replace(/[,_\s]/g, ''), path, report, 'amount in satoshis');

/**
 * The editor's form, read into the settings to send: numbers from their text, text trimmed, the SWIFT
 * code in capitals; every rule of `settingsUpdateSchema` applied, every field's first message reported.
 */
export const settingsFormSchema = settingsFormFieldsSchema.transform((form, ctx): FullGlobalSettings => {
  const { report, count } = reporter(ctx);
  const draft: SettingsDraft = {
    order: {
      platform_fees: percentFromText(form.order.platform_fees, 'order.platform_fees', report),
      min_order_size: dollarsFromText(form.order.min_order_size, 'order.min_order_size', report),
      max_order_size: dollarsFromText(form.order.max_order_size, 'order.max_order_size', report),
      order_session_timeout: wholeFromText(
        form.order.order_session_timeout,
        'order.order_session_timeout',
        report,
        'quote lock in seconds',
      ),
      ...(form.order.four_eyes_usd === undefined
        ? {}
        : { four_eyes_usd: dollarsFromText(form.order.four_eyes_usd, 'order.four_eyes_usd', report) }),
      ...(form.order.proof_required_usd === undefined
        ? {}
        : {
            proof_required_usd: dollarsFromText(
              form.order.proof_required_usd,
              'order.proof_required_usd',
              report,
            ),
          }),
    },
    paypal: { is_active: form.paypal.is_active },
    zelle: {
      is_active: form.zelle.is_active,
      payment_address: form.zelle.payment_address.trim(),
      bank_charges: dollarsFromText(form.zelle.bank_charges, 'zelle.bank_charges', report),
    },
    ach: {
      is_active: form.ach.is_active,
      account_holder: form.ach.account_holder.trim(),
      account_number: form.ach.account_number.trim(),
      bank_address: form.ach.bank_address.trim(),
      routing_number: form.ach.routing_number.trim(),
      bank_charges: dollarsFromText(form.ach.bank_charges, 'ach.bank_charges', report),
    },
    wire: {
      is_active: form.wire.is_active,
      account_holder: form.wire.account_holder.trim(),
      account_number: form.wire.account_number.trim(),
      bank_address: form.wire.bank_address.trim(),
      swift_code: form.wire.swift_code.trim().toUpperCase(),
      bank_charges: dollarsFromText(form.wire.bank_charges, 'wire.bank_charges', report),
    },
    instant: {
      is_active: form.instant.is_active,
      bank_charges: dollarsFromText(form.instant.bank_charges, 'instant.bank_charges', report),
      max_payout: dollarsFromText(form.instant.max_payout, 'instant.max_payout', report),
    },
    lightning: {
      is_active: form.lightning.is_active,
      max_order_sats: satsFromText(form.lightning.max_order_sats, 'lightning.max_order_sats', report),
      max_payout_sats: satsFromText(form.lightning.max_payout_sats, 'lightning.max_payout_sats', report),
      daily_payout_sats: satsFromText(
        form.lightning.daily_payout_sats,
        'lightning.daily_payout_sats',
        report,
      ),
    },
    referral: {
      reward: percentFromText(form.referral.reward, 'referral.reward', report),
      trades_eligible: wholeFromText(
        form.referral.trades_eligible,
        'referral.trades_eligible',
        report,
        'number of trades',
      ),
    },
    arrival: byRail(SETTINGS_RAILS, (id) => form.arrival[id].trim()),
    ...(form.limits === undefined
      ? {}
      : {
          limits: Object.fromEntries(
            LIMIT_TIER_KEYS.map((tier) => [
              tier,
              Object.fromEntries(
                LIMIT_PERIODS.map((period) => [
                  period,
                  dollarsFromText(form.limits![tier][period], `limits.${tier}.${period}`, report),
                ]),
              ),
            ]),
          ) as NonNullable<SettingsDraft['limits']>,
        }),
    ...(form.scam === undefined
      ? {}
      : {
          scam: {
            new_customer_daily_usd: dollarsFromText(
              form.scam.new_customer_daily_usd,
              'scam.new_customer_daily_usd',
              report,
            ),
            cooling_hours: wholeFromText(
              form.scam.cooling_hours,
              'scam.cooling_hours',
              report,
              'cooling-off in hours',
            ),
          },
        }),
    ...(form.recurring === undefined
      ? {}
      : {
          recurring: {
            hold_days: wholeFromText(form.recurring.hold_days, 'recurring.hold_days', report, 'hold in days'),
          },
        }),
  };
  checkSettings(draft, report);
  if (count() > 0) return z.NEVER;
  // Nothing was reported, so every number was read.
  return draft as FullGlobalSettings;
});

const usdText = (n: number) => n.toFixed(2).replace(/\.00$/, '');

/** The saved settings as the editor's form shows them ('20', '1.50'). */
export function formFromSettings(s: FullGlobalSettings): SettingsForm {
  return {
    order: {
      platform_fees: String(s.order.platform_fees),
      min_order_size: usdText(s.order.min_order_size),
      max_order_size: usdText(s.order.max_order_size),
      order_session_timeout: String(s.order.order_session_timeout),
      ...(s.order.four_eyes_usd === undefined ? {} : { four_eyes_usd: usdText(s.order.four_eyes_usd) }),
      ...(s.order.proof_required_usd === undefined
        ? {}
        : { proof_required_usd: usdText(s.order.proof_required_usd) }),
    },
    paypal: { is_active: s.paypal.is_active },
    zelle: { ...s.zelle, bank_charges: usdText(s.zelle.bank_charges) },
    ach: { ...s.ach, bank_charges: usdText(s.ach.bank_charges) },
    wire: { ...s.wire, bank_charges: usdText(s.wire.bank_charges) },
    instant: {
      is_active: s.instant.is_active,
      bank_charges: usdText(s.instant.bank_charges),
      max_payout: usdText(s.instant.max_payout),
    },
    lightning: {
      is_active: s.lightning.is_active,
      max_order_sats: String(s.lightning.max_order_sats),
      max_payout_sats: String(s.lightning.max_payout_sats),
      daily_payout_sats: String(s.lightning.daily_payout_sats),
    },
    referral: { reward: String(s.referral.reward), trades_eligible: String(s.referral.trades_eligible) },
    arrival: { ...s.arrival },
    ...(s.limits === undefined
      ? {}
      : {
          limits: {
            tier1: {
              day: usdText(s.limits.tier1.day),
              week: usdText(s.limits.tier1.week),
              month: usdText(s.limits.tier1.month),
            },
            tier2: {
              day: usdText(s.limits.tier2.day),
              week: usdText(s.limits.tier2.week),
              month: usdText(s.limits.tier2.month),
            },
          },
        }),
    ...(s.scam === undefined
      ? {}
      : {
          scam: {
            new_customer_daily_usd: usdText(s.scam.new_customer_daily_usd),
            cooling_hours: String(s.scam.cooling_hours),
          },
        }),
    ...(s.recurring === undefined ? {} : { recurring: { hold_days: String(s.recurring.hold_days) } }),
  };
}

/** The whole form checked: the settings to send, or (and no settings) the messages by field. */
export function validateSettingsForm(form: SettingsForm): {
  settings: FullGlobalSettings | null;
  errors: SettingsErrors;
} {
  const result = settingsFormSchema.safeParse(form);
  if (result.success) return { settings: result.data, errors: {} };
  const errors: SettingsErrors = {};
  for (const issue of result.error.issues) errors[issue.path.join('.')] ??= issue.message;
  return { settings: null, errors };
}

/** True when the form differs from the saved settings. */
export function isFormChanged(form: SettingsForm, saved: FullGlobalSettings): boolean {
  return JSON.stringify(form) !== JSON.stringify(formFromSettings(saved));
}
