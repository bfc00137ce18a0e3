/**
 * Money as integers: satoshis for bitcoin, cents for US dollars. Amounts become integers at the edge
 * (user input, JSON, price feeds) and only turn back into decimal text on the way out, so arithmetic
 * never meets a binary float.
 */

export type Sats = bigint;
export type Cents = bigint;

export const SATS_PER_BTC = 100_000_000n;
export const CENTS_PER_USD = 100n;

/** Every bitcoin there will ever be; anything above is a typo or an attack. */
export const MAX_SATS: Sats = 21_000_000n * SATS_PER_BTC;
/** One trillion dollars: far beyond any order, yet small enough that a JSON number holds every cent. */
export const MAX_CENTS: Cents = 1_000_000_000_000n * CENTS_PER_USD;

export type MoneyParseFailure =
  'empty' | 'not_a_number' | 'negative' | 'too_many_decimals' | 'too_large' | 'unclear';

/** Bad amount text or number. `message` is meant for the person who typed or sent it. */
export class MoneyParseError extends Error {
  override readonly name = 'MoneyParseError';
  readonly reason: MoneyParseFailure;

  constructor(reason: MoneyParseFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

interface DecimalUnit {
  decimals: number;
  /** The largest accepted value, in the unit's smallest step. */
  max: bigint;
  messages: Record<MoneyParseFailure, string>;
}

/** Commas or points that could be read as more than one amount. */
export const UNCLEAR_AMOUNT_MESSAGE =
  'Write the amount with a point for decimals and commas only between thousands, like 1,000.50.';

const AMOUNT_MESSAGES = {
  empty: 'Enter an amount.',
  negative: 'Enter the amount without a minus sign.',
  unclear: UNCLEAR_AMOUNT_MESSAGE,
};

const BTC_UNIT: DecimalUnit = {
  decimals: 8,
  max: MAX_SATS,
  messages: {
    ...AMOUNT_MESSAGES,
    not_a_number: 'Enter an amount as a plain number, like 0.015.',
    too_many_decimals: 'Use at most 8 decimal places for bitcoin.',
    too_large: 'Enter at most 21,000,000 BTC.',
  },
};

const USD_UNIT: DecimalUnit = {
  decimals: 2,
  max: MAX_CENTS,
  messages: {
    ...AMOUNT_MESSAGES,
    not_a_number: 'Enter an amount as a plain number, like 25.50.',
    too_many_decimals: 'Use at most 2 decimal places for US dollars.',
    too_large: 'Enter at most 1,000,000,000,000 US dollars.',
  },
};

/** Percentages are held as basis points (hundredths of a percent). */
const PERCENT_UNIT: DecimalUnit = {
  decimals: 2,
  // A fee or reward of more than the whole amount cannot be meant.
  max: 10_000n,
  messages: {
    empty: 'Enter a percentage.',
    negative: 'Enter the percentage without a minus sign.',
    not_a_number: 'Enter a percentage as a plain number, like 1.5.',
    too_many_decimals: 'Use at most 2 decimal places for a percentage.',
    too_large: 'Enter a percentage of at most 100.',
    unclear: 'Enter a percentage as a plain number, like 1.5.',
  },
};

// Digits with an optional point; both halves may be empty here, the lone '.' is refused afterwards.
const PLAIN_DECIMAL = /^([0-9]*)(?:\.([0-9]*))?$/;

function fail(unit: DecimalUnit, reason: MoneyParseFailure): never {
  throw new MoneyParseError(reason, unit.messages[reason]);
}

function parseScaled(text: string, unit: DecimalUnit): bigint {
  // The type says string, but values from JSON or forms can be anything at run time.
  if (typeof text !== 'string') fail(unit, 'not_a_number');
  const trimmed = text.trim();
  if (trimmed === '') fail(unit, 'empty');

  // Only call it negative when the rest is a number, so '-abc' gets the more useful message.
  const unsigned = trimmed.startsWith('-') ? trimmed.slice(1) : trimmed;
  const match = PLAIN_DECIMAL.exec(unsigned);
  const whole = match?.[1] ?? '';
  const fraction = match?.[2] ?? '';
  if (!match || (whole === '' && fraction === '')) fail(unit, 'not_a_number');
  if (unsigned !== trimmed) fail(unit, 'negative');
  if (fraction.length > unit.decimals) fail(unit, 'too_many_decimals');

  // Refuse absurdly long digit strings before BigInt has to chew through them.
  const significantWhole = whole.replace(/^0+/, '');
  const maxWholeDigits = (unit.max / 10n ** BigInt(unit.decimals)).toString().length;
  if (significantWhole.length > maxWholeDigits) fail(unit, 'too_large');

  const value = BigInt(significantWhole + fraction.padEnd(unit.decimals, '0') || '0');
  if (value > unit.max) fail(unit, 'too_large');
  return value;
}

/**
 * Plain decimal text for bitcoin ('1', '0.5', '.5', '1.', '0012.30'), at most 8 decimals, up to
 * 21,000,000 BTC. Surrounding whitespace is ignored. Signs, exponents, hex, grouping commas, NaN and
 * Infinity are refused with a `MoneyParseError`.
 */
export function parseBtc(text: string): Sats {
  return parseScaled(text, BTC_UNIT);
}

/** Like `parseBtc`, for US dollars: at most 2 decimals, up to 1,000,000,000,000 USD. */
export function parseUsd(text: string): Cents {
  return parseScaled(text, USD_UNIT);
}

/**
 * What a customer typed into an amount field, read the way a US customer writes money: commas (or
 * spaces) between groups of three digits, one point for decimals and, for dollars, a leading `$`.
 * Spellings that other readings would give another size are `unclear` rather than guessed at: a comma
 * not followed by three digits (`1,00`, `0,5`), a comma after the point (`1.000,50`), several points,
 * and for dollars a point followed by exactly three digits (`1.000`: one dollar, or a thousand?).
 * `incomplete` marks text that may still become clear as the customer goes on typing (`25,0`).
 *
 * An `amount` is plain decimal text (digits, at most one point) for `parseBtc` / `parseUsd`, which still
 * check decimals and size; anything other than digits, separators and the sign is left in it for them
 * to refuse.
 */
export type TypedAmount =
  | { kind: 'empty' }
  | { kind: 'amount'; text: string }
  | { kind: 'unclear'; message: string; incomplete: boolean };

// Spaces between thousands may be the no-break kinds a pasted figure carries.
const GROUP_SPACES = /[\u00a0\u202f]/g;
const GROUPED_WHOLE = /^[1-9][0-9]{0,2}(?:(,)[0-9]{3}(?:,[0-9]{3})*|( )[0-9]{3}(?: [0-9]{3})*)$/;
// A grouped whole whose last group is still being typed: '25,', '1,000,0'.
const GROUPING_UNDER_WAY = /^[1-9][0-9]{0,2}(?:(?:,[0-9]{3})*,[0-9]{0,2}|(?: [0-9]{3})* [0-9]{0,2})$/;
// Dollars have two decimals: one to three digits, a point and exactly three more read like a thousand.
const DOLLARS_OR_THOUSANDS = /^[1-9][0-9]{0,2}\.[0-9]{3}$/;

export function readTypedAmount(text: string, currency: 'usd' | 'btc'): TypedAmount {
  if (typeof text !== 'string') return { kind: 'amount', text: '' };
  let rest = text.replace(GROUP_SPACES, ' ').trim();
  if (currency === 'usd' && rest.startsWith('$')) rest = rest.slice(1).trimStart();
  if (rest === '') return { kind: 'empty' };
  // A minus sign is read past, so that '-1,000' is refused for its sign rather than its comma.
  if (rest.startsWith('-')) {
    const unsigned = readTypedAmount(rest.slice(1), 'btc');
    return unsigned.kind === 'amount' ? { kind: 'amount', text: `-${unsigned.text}` } : unsigned;
  }
  const unclear = (incomplete = false): TypedAmount => ({
    kind: 'unclear',
    message: UNCLEAR_AMOUNT_MESSAGE,
    incomplete,
  });

  const [whole = '', fraction, ...morePoints] = rest.split('.');
  if (morePoints.length > 0) return unclear();
  if (fraction !== undefined && /[, ]/.test(fraction)) return unclear();
  if (!/[, ]/.test(whole)) {
    if (currency === 'usd' && DOLLARS_OR_THOUSANDS.test(rest)) {
      return {
        kind: 'unclear',
        message: `Dollars have 2 decimal places: write ${whole},${fraction ?? ''} or ${whole}.${fraction?.slice(0, 2) ?? ''}.`,
        incomplete: false,
      };
    }
    return { kind: 'amount', text: rest };
  }
  if (!GROUPED_WHOLE.test(whole)) return unclear(fraction === undefined && GROUPING_UNDER_WAY.test(whole));
  const digits = whole.replace(/[, ]/g, '');
  return { kind: 'amount', text: fraction === undefined ? digits : `${digits}.${fraction}` };
}

function parseTyped(text: string, currency: 'usd' | 'btc'): bigint {
  const unit = currency === 'usd' ? USD_UNIT : BTC_UNIT;
  const typed = readTypedAmount(text, currency);
  if (typed.kind === 'empty') fail(unit, 'empty');
  if (typed.kind === 'unclear') throw new MoneyParseError('unclear', typed.message);
  return parseScaled(typed.text, unit);
}

/** `parseUsd` for what a customer typed (see `readTypedAmount`): '$1,000.50' is 100050 cents. */
export function parseTypedUsd(text: string): Cents {
  return parseTyped(text, 'usd');
}

/** `parseBtc` for what a customer typed (see `readTypedAmount`): '1,000.5' is 1,000.5 BTC. */
export function parseTypedBtc(text: string): Sats {
  return parseTyped(text, 'btc');
}

function formatScaled(value: bigint, decimals: number): string {
  const sign = value < 0n ? '-' : '';
  const digits = (value < 0n ? -value : value).toString().padStart(decimals + 1, '0');
  if (decimals === 0) return sign + digits;
  return `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/**
 * Bitcoin as fixed-decimal text: formatBtc(10_000n) === '0.00010000'.
 *
 * With fewer than 8 decimals the hidden digits are cut off, never rounded up, so a customer is never
 * shown more bitcoin than there is: formatBtc(199n, 6) === '0.000001'. Negative amounts are cut toward
 * zero the same way, and one that shows as zero loses its sign.
 */
export function formatBtc(sats: Sats, decimals = 8): string {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 8) {
    throw new RangeError(`formatBtc shows 0 to 8 decimals, not ${decimals}.`);
  }
  // BigInt division truncates toward zero, which is exactly the cut described above.
  return formatScaled(sats / 10n ** BigInt(8 - decimals), decimals);
}

/** Dollars as '1234.50': exactly two decimals, no grouping, '-' for negatives. */
export function formatUsd(cents: Cents): string {
  return formatScaled(cents, 2);
}

/**
 * The shortest decimal text that reads back as this number, without exponent notation.
 * String(5e-7) is '5e-7'; spelling it out keeps such numbers as exact as the rest while typed
 * exponents stay refused.
 */
function plainTextOfNumber(n: number, unit: DecimalUnit): string {
  if (typeof n !== 'number' || !Number.isFinite(n)) fail(unit, 'not_a_number');
  const text = String(n);
  const match = /^(-?)([0-9]+)(?:\.([0-9]+))?e([+-][0-9]+)$/.exec(text);
  if (!match) return text;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const digits = whole + fraction;
  const pointAt = whole.length + Number(exponent);
  if (pointAt <= 0) return `${sign}0.${'0'.repeat(-pointAt)}${digits}`;
  if (pointAt >= digits.length) return sign + digits + '0'.repeat(pointAt - digits.length);
  return `${sign}${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
}

/**
 * A BTC amount that arrived as a JSON number. It is read through its shortest decimal text, so a float
 * artefact with more than 8 decimals is refused instead of being rounded into a different amount.
 */
export function btcNumberToSats(n: number): Sats {
  return parseBtc(plainTextOfNumber(n, BTC_UNIT));
}

/** Like `btcNumberToSats` for USD: usdNumberToCents(19.99) === 1999n; 0.1 + 0.2 is refused. */
export function usdNumberToCents(n: number): Cents {
  return parseUsd(plainTextOfNumber(n, USD_UNIT));
}

/**
 * The JSON number for a satoshi amount. Up to 21,000,000 BTC every amount survives the trip through a
 * double and back through `btcNumberToSats`; larger ones would not, so they are refused.
 */
export function satsToBtcNumber(sats: Sats): number {
  if (sats > MAX_SATS || sats < -MAX_SATS) {
    throw new RangeError('This bitcoin amount is too large to send as an exact JSON number.');
  }
  return Number(formatBtc(sats));
}

/** The JSON number for a cent amount; refused above 1,000,000,000,000 USD for the same reason. */
export function centsToUsdNumber(cents: Cents): number {
  if (cents > MAX_CENTS || cents < -MAX_CENTS) {
    throw new RangeError('This dollar amount is too large to send as an exact JSON number.');
  }
  return Number(formatUsd(cents));
}

/**
 * Percent (as the settings store it) to basis points: 1.5 → 150. At most 2 decimals, 0 to 100;
 * anything else throws a `MoneyParseError`.
 */
export function basisPointsFromPercent(percent: number): number {
  return Number(parseScaled(plainTextOfNumber(percent, PERCENT_UNIT), PERCENT_UNIT));
}

/** 150 → 1.5. IEEE division is correctly rounded, so the result is the very number '1.5' parses to. */
export function percentFromBasisPoints(basisPoints: number): number {
  if (!Number.isSafeInteger(basisPoints) || basisPoints < 0) {
    throw new RangeError(`Basis points must be a whole number of at least 0, not ${basisPoints}.`);
  }
  return basisPoints / 100;
}

function checkMulDivOperands(a: bigint, b: bigint, c: bigint): void {
  // BigInt division truncates toward zero: with a negative product, "floor" would silently round up.
  if (a < 0n || b < 0n) throw new RangeError('mulDiv takes non-negative amounts.');
  if (c <= 0n) throw new RangeError('mulDiv needs a positive divisor.');
}

/** ⌊a·b / c⌋ with no intermediate rounding, e.g. satoshis bought = ⌊cents · 10^8 / price⌋. */
export function mulDivFloor(a: bigint, b: bigint, c: bigint): bigint {
  checkMulDivOperands(a, b, c);
  return (a * b) / c;
}

/** ⌈a·b / c⌉ with no intermediate rounding, e.g. a platform fee that never rounds in the customer's favour. */
export function mulDivCeil(a: bigint, b: bigint, c: bigint): bigint {
  checkMulDivOperands(a, b, c);
  return (a * b + c - 1n) / c;
}
