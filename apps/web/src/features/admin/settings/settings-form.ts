import type { FullGlobalSettings } from '@offzero/shared/api/global-settings';
import { centsToUsdNumber, MoneyParseError, parseUsd } from '@offzero/shared/money/money';

/**
 * The settings editor's form: every field as the text the operator typed, checked here with the same
 * rules the server applies (PUT /api/admin/settings) so mistakes show next to their field before
 * anything is sent. Field keys are the server's error paths ('order.min_order_size').
 */

export interface SettingsForm {
  order: {
    platform_fees: string;
    min_order_size: string;
    max_order_size: string;
    order_session_timeout: string;
  };
  paypal: { is_active: boolean };
  zelle: { is_active: boolean; payment_address: string; bank_charges: string };
  ach: {
    is_active: boolean;
    account_holder: string;
    account_number: string;
    bank_address: string;
    routing_number: string;
    bank_charges: string;
  };
  wire: {
    is_active: boolean;
    account_holder: string;
    account_number: string;
    bank_address: string;
    swift_code: string;
    bank_charges: string;
  };
  referral: { reward: string; trades_eligible: string };
}

export type SettingsErrors = Record<string, string>;

const usdText = (n: number) => n.toFixed(2).replace(/\.00$/, '');

export function formFromSettings(s: FullGlobalSettings): SettingsForm {
  return {
    order: {
      platform_fees: String(s.order.platform_fees),
      min_order_size: usdText(s.order.min_order_size),
      max_order_size: usdText(s.order.max_order_size),
      order_session_timeout: String(s.order.order_session_timeout),
    },
    paypal: { is_active: s.paypal.is_active },
    zelle: { ...s.zelle, bank_charges: usdText(s.zelle.bank_charges) },
    ach: { ...s.ach, bank_charges: usdText(s.ach.bank_charges) },
    wire: { ...s.wire, bank_charges: usdText(s.wire.bank_charges) },
    referral: { reward: String(s.referral.reward), trades_eligible: String(s.referral.trades_eligible) },
  };
}

const PERCENT = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/;

function percent(text: string, errors: SettingsErrors, key: string): number {
  const value = text.trim();
  if (value === '') return fail(errors, key, 'Enter a percentage.');
  if (value.startsWith('-')) return fail(errors, key, 'Percentages cannot be negative.');
  const match = PERCENT.exec(value);
  if (!match) return fail(errors, key, 'Enter a percentage as a plain number, like 1.5.');
  const decimals = match[2] ?? match[3] ?? '';
  if (decimals.length > 2) return fail(errors, key, 'Use at most 2 decimal places for a percentage.');
  const number = Number(value);
  if (number > 100) return fail(errors, key, 'A percentage cannot be above 100 %.');
  return number;
}

function dollars(text: string, errors: SettingsErrors, key: string, { positive = false } = {}): number {
  try {
    const cents = parseUsd(text);
    if (positive && cents === 0n) return fail(errors, key, 'Enter an amount above zero.');
    return centsToUsdNumber(cents);
  } catch (error) {
    if (error instanceof MoneyParseError) {
      return fail(errors, key, error.reason === 'negative' ? 'Amounts cannot be negative.' : error.message);
    }
    throw error;
  }
}

function whole(
  text: string,
  errors: SettingsErrors,
  key: string,
  min: number,
  max: number,
  what: string,
): number {
  const value = text.trim();
  if (value === '') return fail(errors, key, `Enter the ${what}.`);
  if (value.startsWith('-')) return fail(errors, key, 'This cannot be negative.');
  if (!/^\d+$/.test(value)) return fail(errors, key, `Enter the ${what} as a whole number.`);
  const number = Number(value);
  if (number < min || number > max)
    return fail(errors, key, `Enter ${min} to ${max.toLocaleString('en-US')}.`);
  return number;
}

function fail(errors: SettingsErrors, key: string, message: string): number {
  errors[key] ??= message;
  return Number.NaN;
}

function text(value: string, errors: SettingsErrors, key: string, max: number, label: string): string {
  const trimmed = value.trim();
  if (trimmed.length > max) errors[key] ??= `The ${label} can be at most ${max} characters.`;
  return trimmed;
}

function required(errors: SettingsErrors, key: string, value: string, message: string) {
  if (!value) errors[key] ??= message;
}

/**
 * Checks the whole form. Answers the settings to send, or the errors by field (and no settings) when
 * anything is wrong.
 */
export function validateSettingsForm(form: SettingsForm): {
  settings: FullGlobalSettings | null;
  errors: SettingsErrors;
} {
  const errors: SettingsErrors = {};

  const platformFees = percent(form.order.platform_fees, errors, 'order.platform_fees');
  const min = dollars(form.order.min_order_size, errors, 'order.min_order_size', { positive: true });
  const max = dollars(form.order.max_order_size, errors, 'order.max_order_size', { positive: true });
  if (!Number.isNaN(min) && !Number.isNaN(max) && min >= max) {
    errors['order.min_order_size'] ??= 'The minimum order must be below the maximum.';
  }
  const timeout = whole(
    form.order.order_session_timeout,
    errors,
    'order.order_session_timeout',
    60,
    86_400,
    'quote lock in seconds',
  );

  const zelle = {
    is_active: form.zelle.is_active,
    payment_address: text(form.zelle.payment_address, errors, 'zelle.payment_address', 254, 'Zelle address'),
    bank_charges: dollars(form.zelle.bank_charges, errors, 'zelle.bank_charges'),
  };
  if (zelle.is_active)
    required(
      errors,
      'zelle.payment_address',
      zelle.payment_address,
      'Zelle needs the address customers pay to.',
    );

  const ach = {
    is_active: form.ach.is_active,
    account_holder: text(form.ach.account_holder, errors, 'ach.account_holder', 100, 'account holder'),
    account_number: text(form.ach.account_number, errors, 'ach.account_number', 34, 'account number'),
    bank_address: text(form.ach.bank_address, errors, 'ach.bank_address', 200, 'bank'),
    routing_number: form.ach.routing_number.trim(),
    bank_charges: dollars(form.ach.bank_charges, errors, 'ach.bank_charges'),
  };
  if (ach.routing_number && !/^\d{9}$/.test(ach.routing_number)) {
    errors['ach.routing_number'] ??= 'A routing number has 9 digits.';
  }
  if (ach.is_active) {
    required(errors, 'ach.account_holder', ach.account_holder, 'ACH needs the account holder.');
    required(errors, 'ach.account_number', ach.account_number, 'ACH needs the account number.');
    required(errors, 'ach.routing_number', ach.routing_number, 'ACH needs the routing number.');
    required(errors, 'ach.bank_address', ach.bank_address, 'ACH needs the bank’s name and address.');
  }

  const wire = {
    is_active: form.wire.is_active,
    account_holder: text(form.wire.account_holder, errors, 'wire.account_holder', 100, 'account holder'),
    account_number: text(form.wire.account_number, errors, 'wire.account_number', 34, 'account number'),
    bank_address: text(form.wire.bank_address, errors, 'wire.bank_address', 200, 'bank'),
    swift_code: form.wire.swift_code.trim().toUpperCase(),
    bank_charges: dollars(form.wire.bank_charges, errors, 'wire.bank_charges'),
  };
  if (wire.swift_code && !/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(wire.swift_code)) {
    errors['wire.swift_code'] ??= 'A SWIFT code has 8 or 11 characters.';
  }
  if (wire.is_active) {
    required(errors, 'wire.account_holder', wire.account_holder, 'Wire needs the account holder.');
    required(errors, 'wire.account_number', wire.account_number, 'Wire needs the account number.');
    required(errors, 'wire.swift_code', wire.swift_code, 'Wire needs the SWIFT code.');
    required(errors, 'wire.bank_address', wire.bank_address, 'Wire needs the bank’s name and address.');
  }

  const reward = percent(form.referral.reward, errors, 'referral.reward');
  const tradesEligible = whole(
    form.referral.trades_eligible,
    errors,
    'referral.trades_eligible',
    0,
    1000,
    'number of trades',
  );

  if (Object.keys(errors).length > 0) return { settings: null, errors };
  return {
    errors,
    settings: {
      order: {
        platform_fees: platformFees,
        min_order_size: min,
        max_order_size: max,
        order_session_timeout: timeout,
      },
      paypal: { is_active: form.paypal.is_active },
      zelle,
      ach,
      wire,
      referral: { reward, trades_eligible: tradesEligible },
    },
  };
}

/** True when the form differs from the saved settings. */
export function isFormChanged(form: SettingsForm, saved: FullGlobalSettings): boolean {
  return JSON.stringify(form) !== JSON.stringify(formFromSettings(saved));
}
