import type { z } from 'zod';
import { basisPointsFromPercent, MoneyParseError, usdNumberToCents } from '../money/money';
import { railLabel, railLabelInSentence, SETTINGS_RAILS, type RailIdWithSettings } from '../rails/rails';

/**
 * The rules of the global settings on numbers, shared by the server's body and the
 * back-office editor's form (`admin-settings.ts`): every field's first message on its path.
 */

// ---------------------------------------------------------------------------------------------------
// The rules, on numbers

export const MESSAGES = {
  percentNegative: 'Percentages cannot be negative.',
  percentDecimals: 'Use at most 2 decimal places for a percentage.',
  percentAbove100: 'A percentage cannot be above 100 %.',
  amountNegative: 'Amounts cannot be negative.',
  amountZero: 'Enter an amount above zero.',
  minNotBelowMax: 'The minimum order must be below the maximum.',
  wholeNegative: 'This cannot be negative.',
  dayAboveWeek: 'The 24-hour limit cannot be above the 7-day limit.',
  weekAboveMonth: 'The 7-day limit cannot be above the 30-day limit.',
  routingNumber: 'A routing number has 9 digits.',
  swiftCode: 'A SWIFT code has 8 or 11 characters.',
} as const;

const ROUTING_NUMBER = /^\d{9}$/;
const SWIFT_CODE = /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** Records a message on a path unless that path has one already. */
export type Report = (path: string, message: string) => void;

/**
 * The settings with every number either read (a number) or already refused (null, its message
 * reported), so one pass can check everything and report every field at once.
 */
export interface SettingsDraft {
  order: {
    platform_fees: number | null;
    min_order_size: number | null;
    max_order_size: number | null;
    order_session_timeout: number | null;
    /** Absent: left as it is. */
    four_eyes_usd?: number | null | undefined;
    /** Absent: left as it is. 0: no ownership proof required. */
    proof_required_usd?: number | null | undefined;
  };
  paypal: { is_active: boolean };
  zelle: { is_active: boolean; payment_address: string; bank_charges: number | null };
  ach: {
    is_active: boolean;
    account_holder: string;
    account_number: string;
    bank_address: string;
    routing_number: string;
    bank_charges: number | null;
  };
  wire: {
    is_active: boolean;
    account_holder: string;
    account_number: string;
    bank_address: string;
    swift_code: string;
    bank_charges: number | null;
  };
  /** Absent: left as it is. */
  instant?: { is_active: boolean; bank_charges: number | null; max_payout: number | null } | undefined;
  /** Absent: left as it is. Lightning's switch and caps, in whole satoshis. */
  lightning?:
    | {
        is_active: boolean;
        max_order_sats: number | null;
        max_payout_sats: number | null;
        daily_payout_sats: number | null;
      }
    | undefined;
  referral: { reward: number | null; trades_eligible: number | null };
  /** Absent: left as it is. */
  arrival?: Record<RailIdWithSettings, string> | undefined;
  limits?:
    Record<LimitTierKey, { day: number | null; week: number | null; month: number | null }> | undefined;
  /** Absent: left as it is. */
  scam?: { new_customer_daily_usd: number | null; cooling_hours: number | null } | undefined;
  /** Absent: left as it is. */
  recurring?: { hold_days: number | null } | undefined;
}

/** Recurring and deposit buys: the hold after the money settles, whole business days up to 30. */
function checkRecurring(recurring: SettingsDraft['recurring'], report: Report): void {
  if (!recurring) return;
  const days = recurring.hold_days;
  if (days !== null && (!Number.isInteger(days) || days < 0 || days > 30)) {
    report('recurring.hold_days', 'Enter the hold in whole business days, from 0 to 30.');
  }
}

/** The scam shield: a daily cap above zero, and a cooling-off of whole hours up to a week. */
function checkScam(scam: SettingsDraft['scam'], report: Report): void {
  if (!scam) return;
  checkDollars(scam.new_customer_daily_usd, 'scam.new_customer_daily_usd', report, true);
  const hours = scam.cooling_hours;
  if (hours !== null && (!Number.isInteger(hours) || hours < 0 || hours > 168)) {
    report('scam.cooling_hours', 'Enter the cooling-off in whole hours, from 0 to 168.');
  }
}

/** The most satoshis there will ever be: no cap can be above it. */
const MAX_SATS = 2_100_000_000_000_000;

/**
 * Lightning's caps (docs/design.md, "Lightning"): whole satoshis above zero, and one payout never
 * above what the platform pays out in a day.
 */
function checkLightning(lightning: SettingsDraft['lightning'], report: Report): void {
  if (!lightning) return;
  const fields = ['max_order_sats', 'max_payout_sats', 'daily_payout_sats'] as const;
  const ok = fields.map((field) => {
    const value = lightning[field];
    if (value === null) return false;
    if (!Number.isSafeInteger(value) || value <= 0 || value > MAX_SATS) {
      report(`lightning.${field}`, 'Enter a whole number of satoshis above zero.');
      return false;
    }
    return true;
  });
  if (ok[1] && ok[2] && lightning.max_payout_sats! > lightning.daily_payout_sats!) {
    report('lightning.max_payout_sats', 'One payout cannot be above the daily Lightning payout cap.');
  }
}

export const LIMIT_TIER_KEYS = ['tier1', 'tier2'] as const;
type LimitTierKey = (typeof LIMIT_TIER_KEYS)[number];
export const LIMIT_PERIODS = ['day', 'week', 'month'] as const;

/** Each tier's limits: amounts above zero, and a longer window never allowing less than a shorter one. */
function checkLimits(limits: SettingsDraft['limits'], report: Report): void {
  if (!limits) return;
  for (const tier of LIMIT_TIER_KEYS) {
    const { day, week, month } = limits[tier];
    const ok = LIMIT_PERIODS.map((period) =>
      checkDollars(limits[tier][period], `limits.${tier}.${period}`, report, true),
    );
    if (ok[0] && ok[1] && day !== null && week !== null && day > week) {
      report(`limits.${tier}.day`, MESSAGES.dayAboveWeek);
    }
    if (ok[1] && ok[2] && week !== null && month !== null && week > month) {
      report(`limits.${tier}.week`, MESSAGES.weekAboveMonth);
    }
  }
}

/** 0 to 100 with at most 2 decimals (the settings store basis points). True when it passes. */
function checkPercent(value: number | null, path: string, report: Report): boolean {
  if (value === null) return false;
  try {
    basisPointsFromPercent(value);
    return true;
  } catch (error) {
    if (!(error instanceof MoneyParseError)) throw error;
    const message =
      error.reason === 'negative'
        ? MESSAGES.percentNegative
        : error.reason === 'too_many_decimals'
          ? MESSAGES.percentDecimals
          : error.reason === 'too_large'
            ? MESSAGES.percentAbove100
            : error.message;
    report(path, message);
    return false;
  }
}

/** US dollars with at most 2 decimals, never negative; above zero when `positive`. True when it passes. */
function checkDollars(value: number | null, path: string, report: Report, positive = false): boolean {
  if (value === null) return false;
  try {
    const cents = usdNumberToCents(value);
    if (positive && cents === 0n) {
      report(path, MESSAGES.amountZero);
      return false;
    }
    return true;
  } catch (error) {
    if (!(error instanceof MoneyParseError)) throw error;
    report(path, error.reason === 'negative' ? MESSAGES.amountNegative : error.message);
    return false;
  }
}

/** A whole number from `min` to `max`; `what` names it in the messages ('number of trades'). */
function checkWhole(
  value: number | null,
  path: string,
  report: Report,
  min: number,
  max: number,
  what: string,
) {
  if (value === null) return;
  if (value < 0) report(path, MESSAGES.wholeNegative);
  else if (!Number.isInteger(value)) report(path, `Enter the ${what} as a whole number.`);
  else if (value < min || value > max) report(path, `Enter ${min} to ${max.toLocaleString('en-US')}.`);
}

function checkLength(value: string, path: string, report: Report, max: number, label: string) {
  if (value.length > max) report(path, `The ${label} can be at most ${max} characters.`);
}

function checkRequired(value: string, path: string, report: Report, message: string) {
  if (!value) report(path, message);
}

/** Every rule of the settings, on trimmed text and read numbers. */
export function checkSettings(s: SettingsDraft, report: Report): void {
  checkPercent(s.order.platform_fees, 'order.platform_fees', report);
  const { min_order_size: min, max_order_size: max } = s.order;
  const minOk = checkDollars(min, 'order.min_order_size', report, true);
  const maxOk = checkDollars(max, 'order.max_order_size', report, true);
  if (minOk && maxOk && min !== null && max !== null && min >= max) {
    report('order.min_order_size', MESSAGES.minNotBelowMax);
  }
  checkWhole(
    s.order.order_session_timeout,
    'order.order_session_timeout',
    report,
    60,
    86_400,
    'quote lock in seconds',
  );
  if (s.order.four_eyes_usd !== undefined)
    checkDollars(s.order.four_eyes_usd, 'order.four_eyes_usd', report, true);
  if (s.order.proof_required_usd !== undefined)
    checkDollars(s.order.proof_required_usd, 'order.proof_required_usd', report);

  checkLength(s.zelle.payment_address, 'zelle.payment_address', report, 254, 'Zelle address');
  checkDollars(s.zelle.bank_charges, 'zelle.bank_charges', report);
  if (s.zelle.is_active) {
    checkRequired(
      s.zelle.payment_address,
      'zelle.payment_address',
      report,
      'Zelle needs the address customers pay to.',
    );
  }

  if (s.instant) {
    checkDollars(s.instant.bank_charges, 'instant.bank_charges', report);
    checkDollars(s.instant.max_payout, 'instant.max_payout', report, true);
  }
  checkLightning(s.lightning, report);

  // ACH and wire share their rules; each names its own code field (routing number, SWIFT code).
  for (const bank of [
    {
      key: 'ach',
      label: railLabel('ach'),
      details: s.ach,
      codeField: 'routing_number',
      code: s.ach.routing_number,
      pattern: ROUTING_NUMBER,
      codeMessage: MESSAGES.routingNumber,
      codeName: 'routing number',
    },
    {
      key: 'wire',
      label: railLabel('wire'),
      details: s.wire,
      codeField: 'swift_code',
      code: s.wire.swift_code,
      pattern: SWIFT_CODE,
      codeMessage: MESSAGES.swiftCode,
      codeName: 'SWIFT code',
    },
  ] as const) {
    const field = (name: string) => `${bank.key}.${name}`;
    checkLength(bank.details.account_holder, field('account_holder'), report, 100, 'account holder');
    checkLength(bank.details.account_number, field('account_number'), report, 34, 'account number');
    checkLength(bank.details.bank_address, field('bank_address'), report, 200, 'bank');
    checkDollars(bank.details.bank_charges, field('bank_charges'), report);
    // The shape of the code counts even while the method is off: it is kept for when it is on.
    if (bank.code && !bank.pattern.test(bank.code)) report(field(bank.codeField), bank.codeMessage);
    if (bank.details.is_active) {
      checkRequired(
        bank.details.account_holder,
        field('account_holder'),
        report,
        `${bank.label} needs the account holder.`,
      );
      checkRequired(
        bank.details.account_number,
        field('account_number'),
        report,
        `${bank.label} needs the account number.`,
      );
      checkRequired(bank.code, field(bank.codeField), report, `${bank.label} needs the ${bank.codeName}.`);
      checkRequired(
        bank.details.bank_address,
        field('bank_address'),
        report,
        `${bank.label} needs the bank’s name and address.`,
      );
    }
  }

  checkPercent(s.referral.reward, 'referral.reward', report);
  checkWhole(s.referral.trades_eligible, 'referral.trades_eligible', report, 0, 1000, 'number of trades');

  if (s.arrival) {
    for (const method of SETTINGS_RAILS) {
      const path = `arrival.${method}`;
      const text = s.arrival[method];
      checkRequired(text, path, report, `Say when an order paid by ${railLabelInSentence(method)} arrives.`);
      checkLength(text, path, report, ARRIVAL_MAX_LENGTH, 'arrival timing');
      // One line shown to customers: no line breaks or other control characters.
      if (CONTROL_CHARACTERS.test(text)) report(path, 'Use one line of plain text.');
    }
  }
  checkLimits(s.limits, report);
  checkScam(s.scam, report);
  checkRecurring(s.recurring, report);
}

const ARRIVAL_MAX_LENGTH = 160;
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;

/** A `Report` that adds each path's first message to the zod context; `count` tells whether any did. */
export function reporter(ctx: Pick<z.RefinementCtx, 'addIssue'>) {
  const reported = new Set<string>();
  const report: Report = (path, message) => {
    if (reported.has(path)) return;
    reported.add(path);
    ctx.addIssue({ code: 'custom', path: path.split('.'), message });
  };
  return { report, count: () => reported.size };
}
