import { z } from 'zod';
import { placeTermsSchema } from '../places/places';
import { sellMethodSchema } from './orders';
import { sellDepositSchema } from './order-lightning';

/**
 * Locked quotes (docs/design.md): `POST /api/quotes` fixes a quote's figures on the server for the
 * `order_session_timeout` setting; `order/save` with its `quoteId` must then carry exactly those
 * figures. The customer sees them, and the all-in price, before anything is paid.
 */

export const QUOTE_MESSAGES = {
  expired: 'This quote has expired. Get a new quote to continue.',
  used: 'This quote was already used for an order. Get a new quote to continue.',
  notFound: 'Quote not found. Get a new quote to continue.',
  figuresDiffer: 'The order does not match its quote. Get a new quote to continue.',
  typeDiffers: 'This quote is for a different kind of order. Get a new quote to continue.',
  methodDiffers: 'This quote is for another payout method. Get a new quote to continue.',
} as const;

const money = z.number({ error: 'Enter an amount as a number.' }).finite();

/** A buy names the dollars it pays; a sell the bitcoin it sends and the method that pays it out. */
export const createQuoteSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('buy'), value: money }),
    z.strictObject({
      type: z.literal('sell'),
      amount: money,
      method: sellMethodSchema,
      deposit: sellDepositSchema.optional(),
    }),
  ],
  { error: 'Choose buy or sell.' },
);
export type CreateQuoteRequest = z.infer<typeof createQuoteSchema>;

export const quoteSchema = z.object({
  id: z.string(),
  type: z.enum(['buy', 'sell']),
  /** The rate, USD per BTC: the price we sell at for a buy, the price we buy at for a sell. */
  price: z.number(),
  /** BTC: what a buyer receives, what a seller sends. */
  amount: z.number(),
  /** USD: what a buyer pays, what a seller receives. */
  value: z.number(),
  platformFee: z.number(),
  /** A buy's payout network fee, USD. */
  networkFee: z.number().optional(),
  /**
   * A buy's routing-fee budget if it is paid out by Lightning, in satoshis: the most the operator's node
   * may spend routing the payout (the operator's cost; the customer receives `amount` in full). Absent
   * when this buy cannot be paid out by Lightning (the rail off, no node, or above the payout cap).
   */
  lightningFeeBudgetSats: z.number().int().optional(),
  /** A sell's bank charges of its payout method, USD. */
  bankFee: z.number().optional(),
  /** A sell's payout method. */
  method: sellMethodSchema.optional(),
  /** Halfway between the price we sell at and the price we buy at, USD per BTC. */
  midMarketPrice: z.number(),
  /** What the rate costs against the mid-market price on this amount, USD. */
  spread: z.number(),
  expiresAt: z.string(),
  /** The licence line and disclosures of the customer's place, when it has rules. */
  place: placeTermsSchema.optional(),
});
export type LockedQuote = z.infer<typeof quoteSchema>;

export const quoteResponseSchema = z.object({ quote: quoteSchema });
