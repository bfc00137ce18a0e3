import { formatUsd } from '../money/money';

/**
 * Shown instead of an amount that is not a number. A dash rather than '$0.00', because showing
 * a customer a zero balance or price that is really missing data would be a false statement about money.
 */
export const AMOUNT_UNAVAILABLE = '—';

const DEFAULT_CURRENCY = 'USD';

// Intl accepts any three letters ('XYZ' prints as 'XYZ 1.00'); only codes it actually knows count.
const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

// A JS-style numeric string would also be accepted by Intl ('1e3', '0x10', 'Infinity'); amounts are
// plain decimals only.
const PLAIN_SIGNED_DECIMAL = /^-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)$/;

const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(currency: string, exactCents: boolean): Intl.NumberFormat {
  // A stored preference can come back as null or junk; it must not break every amount on the page.
  const code = typeof currency === 'string' ? currency.toUpperCase() : DEFAULT_CURRENCY;
  const knownCode = KNOWN_CURRENCIES.has(code) ? code : DEFAULT_CURRENCY;
  const key = `${knownCode}:${exactCents}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: knownCode,
      ...(exactCents
        ? // Cents are cents: two decimals even for a currency such as JPY whose display has none.
          { minimumFractionDigits: 2, maximumFractionDigits: 2 }
        : // '-$0.00' for -0 or -0.001 would suggest a debt that is not there.
          { signDisplay: 'negative' as const }),
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * '$1,234.50' for 1234.5, in en-US style with the given currency's symbol. An unknown or malformed
 * currency code falls back to USD. The amount is rounded half away from zero to the currency's usual
 * decimals, using its shortest decimal text (so 1.005 shows as '$1.01'), and an amount that rounds to
 * zero shows no minus sign. A non-finite number, or a string that is not a plain decimal, gives
 * `AMOUNT_UNAVAILABLE`.
 *
 * For amounts held as cents, `formatCentsAsCurrency` is exact and never rounds.
 */
export function formatCurrency(amount: number | string, currency = DEFAULT_CURRENCY): string {
  if (typeof amount === 'number') {
    return Number.isFinite(amount) ? formatterFor(currency, false).format(amount) : AMOUNT_UNAVAILABLE;
  }
  if (typeof amount !== 'string') return AMOUNT_UNAVAILABLE;
  const trimmed = amount.trim();
  if (!PLAIN_SIGNED_DECIMAL.test(trimmed)) return AMOUNT_UNAVAILABLE;
  // Intl reads a numeric string as an exact decimal, with no detour through a float.
  return formatterFor(currency, false).format(trimmed as Intl.StringNumericLiteral);
}

/**
 * 123456789012n → '$1,234,567,890.12', exact at any size: Intl formats only the whole units (a bigint,
 * which it handles exactly), and the cents are put in as digits.
 */
export function formatCentsAsCurrency(cents: bigint, currency = DEFAULT_CURRENCY): string {
  const negative = cents < 0n;
  const [wholeText = '0', centsText = '00'] = formatUsd(negative ? -cents : cents).split('.');
  // Dollars, nearly every amount shown, are spelled out by hand exactly as Intl would: a browser's
  // first currency formatter costs about 20 ms of the main thread, in the middle of the first render.
  if (typeof currency !== 'string' || currency.toUpperCase() === DEFAULT_CURRENCY) {
    return `${negative ? '-' : ''}$${groupThousands(wholeText)}.${centsText}`;
  }
  const whole = BigInt(wholeText);
  // A bigint has no negative zero; the number -0 keeps the sign of something like -5 cents.
  const signedWhole = negative ? (whole === 0n ? -0 : -whole) : whole;
  return formatterFor(currency, true)
    .formatToParts(signedWhole)
    .map((part) => (part.type === 'fraction' ? centsText : part.value))
    .join('');
}

/** '1234567' → '1,234,567', as en-US groups whole units. */
function groupThousands(digits: string): string {
  const firstGroup = digits.length % 3 || 3;
  let grouped = digits.slice(0, firstGroup);
  for (let index = firstGroup; index < digits.length; index += 3)
    grouped += `,${digits.slice(index, index + 3)}`;
  return grouped;
}
