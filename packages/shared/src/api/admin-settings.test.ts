import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { DEFAULT_ARRIVAL_TIMING, type FullGlobalSettings } from './global-settings';
import {
  formFromSettings,
  isFormChanged,
  settingsUpdateSchema,
  validateSettingsForm,
  type SettingsErrors,
  type SettingsForm,
} from './admin-settings';

const saved: FullGlobalSettings = {
  order: { platform_fees: 1.5, min_order_size: 20, max_order_size: 10_000, order_session_timeout: 900 },
  paypal: { is_active: true },
  zelle: { is_active: true, payment_address: 'payments@offzero.example', bank_charges: 0 },
  ach: {
    is_active: true,
    account_holder: 'OffZero LLC',
    account_number: '000123456789',
    bank_address: 'First Demo Bank, Cheyenne, WY',
    routing_number: '021000021',
    bank_charges: 1,
  },
  wire: {
    is_active: true,
    account_holder: 'OffZero LLC',
    account_number: '000123456789',
    bank_address: 'First Demo Bank, Cheyenne, WY',
    swift_code: 'FDBKUS33',
    bank_charges: 25,
  },
  instant: { is_active: true, bank_charges: 0.5, max_payout: 25_000 },
  lightning: {
    is_active: true,
    max_order_sats: 5_000_000,
    max_payout_sats: 5_000_000,
    daily_payout_sats: 50_000_000,
  },
  referral: { reward: 20, trades_eligible: 3 },
  arrival: { ...DEFAULT_ARRIVAL_TIMING },
};

function edit(change: (form: SettingsForm) => void): SettingsForm {
  const form = formFromSettings(saved);
  change(form);
  return form;
}

describe('validateSettingsForm', () => {
  it('turns the saved settings into the form and back without change', () => {
    const form = formFromSettings(saved);
    expect(form.order.min_order_size).toBe('20');
    expect(form.wire.bank_charges).toBe('25');
    const result = validateSettingsForm(form);
    expect(result.errors).toEqual({});
    expect(result.settings).toEqual(saved);
    expect(isFormChanged(form, saved)).toBe(false);
    expect(
      isFormChanged(
        edit((f) => (f.paypal.is_active = false)),
        saved,
      ),
    ).toBe(true);
  });

  it('sends numbers parsed from text, trimmed, with cents and percent decimals', () => {
    const result = validateSettingsForm(
      edit((f) => {
        f.order.platform_fees = ' 2.25 ';
        f.order.min_order_size = '19.99';
        f.ach.bank_charges = '1.5';
        f.wire.swift_code = 'fdbkus33xxx';
      }),
    );
    expect(result.errors).toEqual({});
    expect(result.settings?.order.platform_fees).toBe(2.25);
    expect(result.settings?.order.min_order_size).toBe(19.99);
    expect(result.settings?.ach.bank_charges).toBe(1.5);
    expect(result.settings?.wire.swift_code).toBe('FDBKUS33XXX');
  });

  it('refuses negative numbers everywhere', () => {
    const { settings, errors } = validateSettingsForm(
      edit((f) => {
        f.order.platform_fees = '-1';
        f.order.min_order_size = '-5';
        f.zelle.bank_charges = '-0.5';
        f.referral.reward = '-2';
        f.referral.trades_eligible = '-1';
      }),
    );
    expect(settings).toBeNull();
    expect(errors).toMatchObject({
      'order.platform_fees': 'Percentages cannot be negative.',
      'order.min_order_size': 'Amounts cannot be negative.',
      'zelle.bank_charges': 'Amounts cannot be negative.',
      'referral.reward': 'Percentages cannot be negative.',
      'referral.trades_eligible': 'This cannot be negative.',
    });
  });

  it('keeps percentages at most 100 with 2 decimals', () => {
    expect(
      validateSettingsForm(edit((f) => (f.order.platform_fees = '100.01'))).errors['order.platform_fees'],
    ).toBe('A percentage cannot be above 100 %.');
    expect(validateSettingsForm(edit((f) => (f.referral.reward = '1.255'))).errors['referral.reward']).toBe(
      'Use at most 2 decimal places for a percentage.',
    );
    expect(validateSettingsForm(edit((f) => (f.order.platform_fees = '100'))).errors).toEqual({});
    expect(
      validateSettingsForm(edit((f) => (f.order.platform_fees = 'abc'))).errors['order.platform_fees'],
    ).toMatch(/plain number/);
  });

  it('needs the minimum order below the maximum, and above zero', () => {
    expect(
      validateSettingsForm(
        edit((f) => {
          f.order.min_order_size = '500';
          f.order.max_order_size = '500';
        }),
      ).errors,
    ).toEqual({ 'order.min_order_size': 'The minimum order must be below the maximum.' });
    expect(
      validateSettingsForm(edit((f) => (f.order.min_order_size = '0'))).errors['order.min_order_size'],
    ).toBe('Enter an amount above zero.');
    expect(
      validateSettingsForm(edit((f) => (f.order.max_order_size = ''))).errors['order.max_order_size'],
    ).toBe('Enter an amount.');
    expect(
      validateSettingsForm(edit((f) => (f.order.max_order_size = '10.001'))).errors['order.max_order_size'],
    ).toBe('Use at most 2 decimal places for US dollars.');
  });

  it('reads the trading limits of each tier as dollars above zero, a longer window never below a shorter', () => {
    const withLimits: FullGlobalSettings = {
      ...saved,
      limits: {
        tier1: { day: 10_000, week: 20_000, month: 50_000 },
        tier2: { day: 50_000, week: 100_000, month: 250_000 },
      },
    };
    const form = formFromSettings(withLimits);
    expect(form.limits?.tier2).toEqual({ day: '50000', week: '100000', month: '250000' });
    expect(validateSettingsForm(form).settings?.limits).toEqual(withLimits.limits);
    form.limits!.tier1.day = ' 7500.25 ';
    expect(validateSettingsForm(form).settings?.limits?.tier1.day).toBe(7500.25);
    for (const [period, text, message] of [
      ['day', '0', 'Enter an amount above zero.'],
      ['day', '-1', 'Amounts cannot be negative.'],
      ['day', 'lots', 'Enter an amount as a plain number, like 25.50.'],
      ['day', '25000', 'The 24-hour limit cannot be above the 7-day limit.'],
      ['week', '60000', 'The 7-day limit cannot be above the 30-day limit.'],
    ] as const) {
      const edited = formFromSettings(withLimits);
      edited.limits!.tier1[period] = text;
      const errors = validateSettingsForm(edited).errors;
      expect(errors[`limits.tier1.${period}`], `${period} ${text}`).toBe(message);
    }
    // Left out (an older editor): the server keeps the saved limits.
    expect(formFromSettings(saved).limits).toBeUndefined();
    expect(settingsUpdateSchema.safeParse(saved).success).toBe(true);
  });

  it('reads the four-eyes threshold as dollars above zero', () => {
    const withThreshold = { ...saved, order: { ...saved.order, four_eyes_usd: 3000 } };
    expect(formFromSettings(withThreshold).order.four_eyes_usd).toBe('3000');
    const form = formFromSettings(withThreshold);
    form.order.four_eyes_usd = ' 2500.50 ';
    expect(validateSettingsForm(form).settings?.order.four_eyes_usd).toBe(2500.5);
    for (const [text, message] of [
      ['0', 'Enter an amount above zero.'],
      ['-5', 'Amounts cannot be negative.'],
    ] as const) {
      form.order.four_eyes_usd = text;
      expect(validateSettingsForm(form).errors['order.four_eyes_usd']).toBe(message);
    }
    // Left out (an older editor): the server keeps the saved threshold.
    expect(settingsUpdateSchema.safeParse(saved).success).toBe(true);
    expect(
      settingsUpdateSchema.safeParse({ ...saved, order: { ...saved.order, four_eyes_usd: -1 } }).success,
    ).toBe(false);
  });

  it('keeps the quote lock and eligible trades whole numbers in range', () => {
    expect(validateSettingsForm(edit((f) => (f.order.order_session_timeout = '59'))).errors).toEqual({
      'order.order_session_timeout': 'Enter 60 to 86,400.',
    });
    expect(
      validateSettingsForm(edit((f) => (f.order.order_session_timeout = '90.5'))).errors[
        'order.order_session_timeout'
      ],
    ).toMatch(/whole number/);
    expect(
      validateSettingsForm(edit((f) => (f.referral.trades_eligible = '1001'))).errors[
        'referral.trades_eligible'
      ],
    ).toBe('Enter 0 to 1,000.');
    expect(validateSettingsForm(edit((f) => (f.referral.trades_eligible = '0'))).errors).toEqual({});
  });

  it('needs the receiving details of every active method, and not of inactive ones', () => {
    const { errors } = validateSettingsForm(
      edit((f) => {
        f.zelle.payment_address = ' ';
        f.ach.account_number = '';
        f.ach.routing_number = '';
        f.wire.swift_code = '';
        f.wire.bank_address = '';
      }),
    );
    expect(errors).toEqual({
      'zelle.payment_address': 'Zelle needs the address customers pay to.',
      'ach.account_number': 'ACH needs the account number.',
      'ach.routing_number': 'ACH needs the routing number.',
      'wire.swift_code': 'Wire needs the SWIFT code.',
      'wire.bank_address': 'Wire needs the bank’s name and address.',
    });
    const inactive = validateSettingsForm(
      edit((f) => {
        f.zelle.is_active = false;
        f.zelle.payment_address = '';
        f.ach.is_active = false;
        f.ach.account_number = '';
        f.ach.routing_number = '';
      }),
    );
    expect(inactive.errors).toEqual({});
    expect(inactive.settings?.zelle).toEqual({ is_active: false, payment_address: '', bank_charges: 0 });
  });

  it('checks the shape of a routing number and a SWIFT code even when the method is off', () => {
    const { errors } = validateSettingsForm(
      edit((f) => {
        f.ach.is_active = false;
        f.ach.routing_number = '12345';
        f.wire.is_active = false;
        f.wire.swift_code = 'ABC';
      }),
    );
    expect(errors).toEqual({
      'ach.routing_number': 'A routing number has 9 digits.',
      'wire.swift_code': 'A SWIFT code has 8 or 11 characters.',
    });
  });
});

/** What the server's body schema says about a JSON body: the settings, or the messages by field. */
function checkBody(body: unknown): {
  settings: z.infer<typeof settingsUpdateSchema> | null;
  errors: SettingsErrors;
} {
  const result = settingsUpdateSchema.safeParse(body);
  if (result.success) return { settings: result.data, errors: {} };
  const errors: SettingsErrors = {};
  for (const issue of result.error.issues) errors[issue.path.join('.')] ??= issue.message;
  return { settings: null, errors };
}

function editBody(change: (body: FullGlobalSettings) => void): FullGlobalSettings {
  const body = JSON.parse(JSON.stringify(saved)) as FullGlobalSettings;
  change(body);
  return body;
}

describe('settingsUpdateSchema (the server’s body)', () => {
  it('accepts the saved settings as they are, trimming text and writing the SWIFT code in capitals', () => {
    expect(checkBody(saved)).toEqual({ settings: saved, errors: {} });
    const { settings } = checkBody(
      editBody((b) => {
        b.zelle.payment_address = '  payments@offzero.example ';
        b.wire.swift_code = ' fdbkus33xxx ';
      }),
    );
    expect(settings?.zelle.payment_address).toBe('payments@offzero.example');
    expect(settings?.wire.swift_code).toBe('FDBKUS33XXX');
  });

  it('gives the same messages as the editor, on the same fields', () => {
    const body = editBody((b) => {
      b.order.platform_fees = -1;
      b.order.min_order_size = 20_000;
      b.zelle.bank_charges = -2;
      b.zelle.payment_address = '';
      b.ach.routing_number = '12345';
      b.wire.swift_code = '';
      b.referral.reward = 1.555;
      b.referral.trades_eligible = 1001;
    });
    const form = edit((f) => {
      f.order.platform_fees = '-1';
      f.order.min_order_size = '20000';
      f.zelle.bank_charges = '-2';
      f.zelle.payment_address = '';
      f.ach.routing_number = '12345';
      f.wire.swift_code = '';
      f.referral.reward = '1.555';
      f.referral.trades_eligible = '1001';
    });
    const expected = {
      'order.platform_fees': 'Percentages cannot be negative.',
      'order.min_order_size': 'The minimum order must be below the maximum.',
      'zelle.bank_charges': 'Amounts cannot be negative.',
      'zelle.payment_address': 'Zelle needs the address customers pay to.',
      'ach.routing_number': 'A routing number has 9 digits.',
      'wire.swift_code': 'Wire needs the SWIFT code.',
      'referral.reward': 'Use at most 2 decimal places for a percentage.',
      'referral.trades_eligible': 'Enter 0 to 1,000.',
    };
    expect(checkBody(body)).toEqual({ settings: null, errors: expected });
    expect(validateSettingsForm(form)).toEqual({ settings: null, errors: expected });
  });

  it('refuses a fee above 100 %, cents below a cent, a short quote lock and fractional trades', () => {
    expect(checkBody(editBody((b) => (b.order.platform_fees = 100.5))).errors).toEqual({
      'order.platform_fees': 'A percentage cannot be above 100 %.',
    });
    expect(checkBody(editBody((b) => (b.ach.bank_charges = 0.001))).errors).toEqual({
      'ach.bank_charges': 'Use at most 2 decimal places for US dollars.',
    });
    expect(checkBody(editBody((b) => (b.order.min_order_size = 0))).errors).toEqual({
      'order.min_order_size': 'Enter an amount above zero.',
    });
    expect(checkBody(editBody((b) => (b.order.order_session_timeout = 59))).errors).toEqual({
      'order.order_session_timeout': 'Enter 60 to 86,400.',
    });
    expect(checkBody(editBody((b) => (b.referral.trades_eligible = 2.5))).errors).toEqual({
      'referral.trades_eligible': 'Enter the number of trades as a whole number.',
    });
  });

  it('refuses unknown fields and values of the wrong type', () => {
    expect(checkBody({ ...saved, role: 'admin' }).settings).toBeNull();
    expect(checkBody(editBody((b) => ((b.order as Record<string, unknown>).extra = 1))).settings).toBeNull();
    expect(
      checkBody({ ...saved, order: { ...saved.order, platform_fees: '1.5' } }).errors['order.platform_fees'],
    ).toBeDefined();
    expect(checkBody({ ...saved, paypal: {} }).settings).toBeNull();
  });
});

describe('arrival timing', () => {
  it('is required for each method, one line, at most 160 characters', () => {
    const { errors } = validateSettingsForm(
      edit((f) => {
        f.arrival.paypal = '   ';
        f.arrival.zelle = 'Within hours\nof receipt.';
        f.arrival.ach = 'x'.repeat(161);
      }),
    );
    expect(errors).toEqual({
      'arrival.paypal': 'Say when an order paid by PayPal arrives.',
      'arrival.zelle': 'Use one line of plain text.',
      'arrival.ach': 'The arrival timing can be at most 160 characters.',
    });
  });

  it('is trimmed, and may be left out of a JSON body (left as it is)', () => {
    const edited = validateSettingsForm(edit((f) => (f.arrival.wire = '  Next business day. ')));
    expect(edited.settings?.arrival.wire).toBe('Next business day.');
    const { arrival: _arrival, ...withoutArrival } = saved;
    expect(checkBody(withoutArrival).settings?.arrival).toBeUndefined();
    expect(checkBody({ ...saved, arrival: { ...saved.arrival, ach: '' } }).errors).toEqual({
      'arrival.ach': 'Say when an order paid by ACH arrives.',
    });
  });
});
