import { mulDivCeil, mulDivFloor, SATS_PER_BTC, type Cents, type Sats } from '../money/money';
import { railArticle, railLabelInSentence, type SellPayoutRail } from '../rails/rails';

/**
 * Quote maths (docs/design.md), shared by the client, which shows the quote, and the server, which
 * recomputes it from its own price and settings before it accepts an order. Everything is integer
 * arithmetic on bigint cents and satoshis; prices are cents per BTC and the platform fee is in basis
 * points (150 = 1.5 %). Every rounding goes the platform's way: fees round up, delivered bitcoin and
 * paid-out dollars round down. So whatever a customer types, the operator never loses on a quote.
 */

/** A customer buys bitcoin: pays `valueCents`, receives `amountSats` at `priceCents` (our sell price). */
export interface BuyQuote {
  valueCents: Cents;
  platformFeeCents: Cents;
  networkFeeCents: Cents;
  amountSats: Sats;
  priceCents: Cents;
}

/** A customer sells bitcoin: sends `amountSats`, receives `valueCents` at `priceCents` (our buy price). */
export interface SellQuote {
  amountSats: Sats;
  grossCents: Cents;
  platformFeeCents: Cents;
  bankFeeCents: Cents;
  valueCents: Cents;
  priceCents: Cents;
}

export interface BuyFromUsdInput {
  valueCents: Cents;
  sellPriceCents: Cents;
  feeBps: number;
  networkFeeSats: Sats;
}

export interface BuyFromBtcInput {
  amountSats: Sats;
  sellPriceCents: Cents;
  feeBps: number;
  networkFeeSats: Sats;
}

export interface SellFromBtcInput {
  amountSats: Sats;
  buyPriceCents: Cents;
  feeBps: number;
  bankChargesCents: Cents;
}

export interface SellFromUsdInput {
  valueCents: Cents;
  buyPriceCents: Cents;
  feeBps: number;
  bankChargesCents: Cents;
}

/** Bought bitcoin is delivered in whole 100 satoshis: BTC is shown to 6 decimals. */
export const BUY_AMOUNT_STEP_SATS: Sats = 100n;

/** How far the client's figures may be from the server's own (docs/design.md). */
export const QUOTE_TOLERANCE = { cents: 1n, sats: 100n } as const;

/** The size of one buy payout (one P2WPKH input, a payout and a change output), in virtual bytes. */
export const DEFAULT_PAYOUT_VBYTES = 141;

/** The specification's own wording (section 5) for a fee rate or size that is not a usable number. */
export const INVALID_NETWORK_FEE_INPUT_MESSAGE =
  'Invalid input. Transaction size and fee rate must be numbers.';

const BPS_PER_WHOLE = 10_000n;

// Inputs are checked at run time too: the client is plain JavaScript once built, and a number slipping
// in here would mean floating point had crept into the money.
function amount(name: string, value: bigint): bigint {
  if (typeof value !== 'bigint') throw new TypeError(`${name} must be a bigint, not ${typeof value}.`);
  if (value < 0n) throw new RangeError(`${name} must not be negative.`);
  return value;
}

function price(name: string, value: bigint): bigint {
  if (typeof value !== 'bigint') throw new TypeError(`${name} must be a bigint, not ${typeof value}.`);
  if (value <= 0n) throw new RangeError(`${name} must be positive.`);
  return value;
}

function basisPoints(feeBps: number): bigint {
  if (!Number.isSafeInteger(feeBps) || feeBps < 0 || feeBps > 10_000) {
    throw new RangeError(`feeBps must be a whole number from 0 to 10000, not ${String(feeBps)}.`);
  }
  return BigInt(feeBps);
}

/** The platform fee never rounds in the customer's favour: ⌈value · bps / 10000⌉. */
function platformFee(valueCents: Cents, bps: bigint): Cents {
  return mulDivCeil(valueCents, bps, BPS_PER_WHOLE);
}

/** The payout's network fee priced in dollars, rounded up to the cent. */
function networkFeeCents(networkFeeSats: Sats, sellPriceCents: Cents): Cents {
  return mulDivCeil(networkFeeSats, sellPriceCents, SATS_PER_BTC);
}

/**
 * The smallest x ≥ 1 for which `satisfied` holds, given that it is monotone (false up to some point,
 * true from there on), that it is false at 0 and that some x satisfies it. The reverse quotes' estimate
 * is normally exact, which costs two evaluations; if it is not, galloping and bisection still find the
 * answer. Exported for its tests.
 */
export function smallestSatisfying(estimate: bigint, satisfied: (x: bigint) => boolean): bigint {
  let high = estimate < 1n ? 1n : estimate;
  let low = 0n; // largest value known to fail
  if (satisfied(high)) {
    for (let step = 1n; high - step > 0n; step *= 2n) {
      if (!satisfied(high - step)) {
        low = high - step;
        break;
      }
      high -= step;
    }
  } else {
    low = high;
    for (let step = 1n; ; step *= 2n) {
      if (satisfied(low + step)) {
        high = low + step;
        break;
      }
      low += step;
    }
  }
  // Invariant: satisfied(high) and !satisfied(low) (0 counts as failing).
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    if (satisfied(middle)) high = middle;
    else low = middle;
  }
  return high;
}

/**
 * The customer pays `valueCents` (fees included). Platform fee F = ⌈V·bps/10000⌉, network fee
 * N = ⌈networkFeeSats·price/10^8⌉ cents, and the bitcoin bought with what is left,
 * ⌊(V−F−N)·10^8/price⌋ satoshis, cut down to whole 100 satoshis. Null when that is no bitcoin at all.
 */
export function quoteBuyFromUsd(input: BuyFromUsdInput): BuyQuote | null {
  const valueCents = amount('valueCents', input.valueCents);
  const priceCents = price('sellPriceCents', input.sellPriceCents);
  const bps = basisPoints(input.feeBps);
  const feeSats = amount('networkFeeSats', input.networkFeeSats);

  const platformFeeCents = platformFee(valueCents, bps);
  const networkFee = networkFeeCents(feeSats, priceCents);
  const netCents = valueCents - platformFeeCents - networkFee;
  if (netCents <= 0n) return null;
  const exactSats = mulDivFloor(netCents, SATS_PER_BTC, priceCents);
  const amountSats = exactSats - (exactSats % BUY_AMOUNT_STEP_SATS);
  if (amountSats <= 0n) return null;
  return { valueCents, platformFeeCents, networkFeeCents: networkFee, amountSats, priceCents };
}

/**
 * The customer asks for `amountSats`, rounded up to whole 100 satoshis. Answers the buy quote for the
 * smallest payment V that delivers at least that much; it is exactly `quoteBuyFromUsd` at V, so a
 * quote made from either field is the same quote. Null when no payment can (a 100 % fee, or nothing
 * asked for).
 */
export function quoteBuyFromBtc(input: BuyFromBtcInput): BuyQuote | null {
  const requested = amount('amountSats', input.amountSats);
  const priceCents = price('sellPriceCents', input.sellPriceCents);
  const bps = basisPoints(input.feeBps);
  const feeSats = amount('networkFeeSats', input.networkFeeSats);
  const wantedSats = mulDivCeil(requested, 1n, BUY_AMOUNT_STEP_SATS) * BUY_AMOUNT_STEP_SATS;
  if (wantedSats === 0n || bps === BPS_PER_WHOLE) return null;

  const quoteFor = (valueCents: Cents) =>
    quoteBuyFromUsd({
      valueCents,
      sellPriceCents: priceCents,
      feeBps: input.feeBps,
      networkFeeSats: feeSats,
    });
  // What is left after fees must buy the coins: V−F−N ≥ ⌈wanted·price/10^8⌉. V−F equals
  // ⌊V·(10000−bps)/10000⌋, so V ≥ ⌈(that + N)·10000/(10000−bps)⌉. Checked below rather than trusted.
  const netNeeded = mulDivCeil(wantedSats, priceCents, SATS_PER_BTC) + networkFeeCents(feeSats, priceCents);
  const estimate = mulDivCeil(netNeeded, BPS_PER_WHOLE, BPS_PER_WHOLE - bps);
  const valueCents = smallestSatisfying(estimate, (v) => (quoteFor(v)?.amountSats ?? 0n) >= wantedSats);
  return quoteFor(valueCents);
}

/**
 * The customer sends `amountSats`. Gross G = ⌊A·price/10^8⌋ cents, platform fee F = ⌈G·bps/10000⌉,
 * the chosen payment method's bank charges B; the customer receives G−F−B. Null when that is nothing.
 */
export function quoteSellFromBtc(input: SellFromBtcInput): SellQuote | null {
  const amountSats = amount('amountSats', input.amountSats);
  const priceCents = price('buyPriceCents', input.buyPriceCents);
  const bps = basisPoints(input.feeBps);
  const bankFeeCents = amount('bankChargesCents', input.bankChargesCents);

  const grossCents = mulDivFloor(amountSats, priceCents, SATS_PER_BTC);
  const platformFeeCents = platformFee(grossCents, bps);
  const valueCents = grossCents - platformFeeCents - bankFeeCents;
  if (valueCents <= 0n) return null;
  return { amountSats, grossCents, platformFeeCents, bankFeeCents, valueCents, priceCents };
}

/**
 * The customer asks to receive `valueCents`. Answers the sell quote for the smallest whole number of
 * satoshis that pays at least that much; it is exactly `quoteSellFromBtc` at that amount. Null when no
 * amount can (a 100 % fee, or nothing asked for).
 */
export function quoteSellFromUsd(input: SellFromUsdInput): SellQuote | null {
  const wantedCents = amount('valueCents', input.valueCents);
  const priceCents = price('buyPriceCents', input.buyPriceCents);
  const bps = basisPoints(input.feeBps);
  const bankCharges = amount('bankChargesCents', input.bankChargesCents);
  if (wantedCents === 0n || bps === BPS_PER_WHOLE) return null;

  const quoteFor = (amountSats: Sats) =>
    quoteSellFromBtc({
      amountSats,
      buyPriceCents: priceCents,
      feeBps: input.feeBps,
      bankChargesCents: bankCharges,
    });
  // G−F = ⌊G·(10000−bps)/10000⌋ must reach wanted + B, so G ≥ ⌈(wanted+B)·10000/(10000−bps)⌉ and
  // A ≥ ⌈G·10^8/price⌉. Checked below rather than trusted.
  const grossNeeded = mulDivCeil(wantedCents + bankCharges, BPS_PER_WHOLE, BPS_PER_WHOLE - bps);
  const estimate = mulDivCeil(grossNeeded, SATS_PER_BTC, priceCents);
  const amountSats = smallestSatisfying(estimate, (a) => (quoteFor(a)?.valueCents ?? 0n) >= wantedCents);
  return quoteFor(amountSats);
}

/** A number as the decimal it prints as (its shortest round-trip text), as digits and a scale. */
function exactDecimal(n: number): { digits: bigint; scale: bigint } | null {
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return null;
  const match = /^([0-9]+)(?:\.([0-9]+))?(?:e([+-][0-9]+))?$/.exec(String(n));
  if (!match) return null;
  const [, whole = '', fraction = '', exponent = '0'] = match;
  const scale = BigInt(fraction.length) - BigInt(exponent);
  const digits = BigInt(whole + fraction);
  return scale < 0n ? { digits: digits * 10n ** -scale, scale: 0n } : { digits, scale };
}

/**
 * The network fee of one payout in satoshis: ⌈fee rate (sat/vB) × size (vB)⌉. Both are read as the
 * decimals they print as, so 1.1 sat/vB × 100 vB is exactly 110 sats, not the float 110.00000000000001
 * rounded up to 111. NaN, infinities, negatives and non-numbers are refused with the specification's
 * message.
 */
export function networkFeeSatsFor(
  feeRateSatPerVb: number,
  payoutVbytes: number = DEFAULT_PAYOUT_VBYTES,
): Sats {
  const rate = exactDecimal(feeRateSatPerVb);
  const size = exactDecimal(payoutVbytes);
  if (!rate || !size) throw new Error(INVALID_NETWORK_FEE_INPUT_MESSAGE);
  return mulDivCeil(rate.digits, size.digits, 10n ** (rate.scale + size.scale));
}

function within(a: bigint, b: bigint, tolerance: bigint): boolean {
  return a - b <= tolerance && b - a <= tolerance;
}

function isSellQuote(quote: BuyQuote | SellQuote): quote is SellQuote {
  return 'grossCents' in quote;
}

/**
 * Whether two quotes of the same kind agree: every dollar figure (price included) within 1 cent and
 * the bitcoin amount within 100 satoshis. A buy quote never matches a sell quote.
 */
export function quotesMatch(a: BuyQuote, b: BuyQuote): boolean;
export function quotesMatch(a: SellQuote, b: SellQuote): boolean;
export function quotesMatch(a: BuyQuote | SellQuote, b: BuyQuote | SellQuote): boolean {
  const { cents, sats } = QUOTE_TOLERANCE;
  const common =
    within(a.valueCents, b.valueCents, cents) &&
    within(a.platformFeeCents, b.platformFeeCents, cents) &&
    within(a.priceCents, b.priceCents, cents) &&
    within(a.amountSats, b.amountSats, sats);
  if (isSellQuote(a) && isSellQuote(b)) {
    return (
      common && within(a.grossCents, b.grossCents, cents) && within(a.bankFeeCents, b.bankFeeCents, cents)
    );
  }
  if (!isSellQuote(a) && !isSellQuote(b)) {
    return common && within(a.networkFeeCents, b.networkFeeCents, cents);
  }
  return false;
}

// ASCII digits only: \d would be the same here, but the intent is plainer this way.
const AMOUNT_INPUT_TEXT = /^[0-9]*\.?[0-9]*$/;

/**
 * What an amount field lets the customer type: digits with at most one
 * point, an empty field or a lone point. No sign, exponent, spaces or grouping commas.
 */
export function isAmountInputText(text: string): boolean {
  return typeof text === 'string' && AMOUNT_INPUT_TEXT.test(text);
}

/** Below the minimum order size the other amount field is left empty rather than quoted. */
export function isBelowMinimum(valueCents: Cents, minOrderCents: Cents): boolean {
  return valueCents < minOrderCents;
}

export interface SmallestSellInput {
  buyPriceCents: Cents;
  feeBps: number;
  /** The payout method's bank charges (Zelle, ACH or wire: each has its own in the settings). */
  bankChargesCents: Cents;
  /** `min_order_size`: a sell must also pay out at least this much. */
  minOrderCents?: Cents;
}

/**
 * The smallest sell, in satoshis, that leaves the customer at least one cent to receive after the
 * platform fee and the method's bank charges (and at least `minOrderCents`, when given). Below it the
 * sell is a dead end, and the customer is told this amount rather than shown no figures at all. Null
 * when no amount can (a 100 % fee).
 */
export function smallestSellSats(input: SmallestSellInput): Sats | null {
  const minOrder = amount('minOrderCents', input.minOrderCents ?? 0n);
  return (
    quoteSellFromUsd({
      valueCents: minOrder > 1n ? minOrder : 1n,
      buyPriceCents: input.buyPriceCents,
      feeBps: input.feeBps,
      bankChargesCents: input.bankChargesCents,
    })?.amountSats ?? null
  );
}

/** Satoshis as BTC to 6 decimals, rounded up so the amount named is always enough. */
export function satsAsBtcRoundedUp(sats: Sats): string {
  const micro = mulDivCeil(amount('sats', sats), 1n, 100n);
  return `${micro / 1_000_000n}.${(micro % 1_000_000n).toString().padStart(6, '0')}`;
}

/** What a customer reads when a sell of theirs would leave nothing to receive by that method. */
export function sellDeadEndMessage(method: SellPayoutRail, smallestSats: Sats): string {
  const name = railLabelInSentence(method);
  return (
    `For ${railArticle(method)} ${name} payout, sell at least ${satsAsBtcRoundedUp(smallestSats)} BTC: ` +
    'the bank charges and fee would leave nothing to receive.'
  );
}

/**
 * The spread a quote carries against the mid-market price, in cents: how much more a buyer pays (or
 * less a seller receives) for `amountSats` than at the midpoint of our two prices. The midpoint is
 * (sell + buy) / 2, so the spread is amount × (sell − buy) / 2, rounded up: never understated.
 */
export function spreadAgainstMidCents(input: {
  amountSats: Sats;
  sellPriceCents: Cents;
  buyPriceCents: Cents;
}): Cents {
  const amountSats = amount('amountSats', input.amountSats);
  const sell = price('sellPriceCents', input.sellPriceCents);
  const buy = price('buyPriceCents', input.buyPriceCents);
  const gap = sell > buy ? sell - buy : buy - sell;
  return mulDivCeil(amountSats, gap, 2n * SATS_PER_BTC);
}

/** The mid-market price: halfway between the price we sell at and the price we buy at, in cents. */
export function midMarketPriceCents(sellPriceCents: Cents, buyPriceCents: Cents): Cents {
  return (price('sellPriceCents', sellPriceCents) + price('buyPriceCents', buyPriceCents)) / 2n;
}
