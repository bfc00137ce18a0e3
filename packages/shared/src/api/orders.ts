import { z } from 'zod';
import { bitcoinAddressProblem, type BitcoinNetwork } from '../bitcoin/address';
import { addressRefusal } from '../bitcoin/address-field';
import { lightningDestinationKind } from '../bitcoin/payout-destination';
import { MoneyParseError, parseTypedBtc, parseTypedUsd } from '../money/money';
import { byRail, PAYMENT_RAILS, SELL_PAYOUT_RAILS, SELL_PAYOUTS } from '../rails/rails';
import { scamCheckSchema } from '../places/scam-shield';
import { walletOwnershipSchema } from './limits';
import { orderLightningPayoutSchema, orderLightningSchema, sellDepositSchema } from './order-lightning';

/** Orders as the client builds, sends and lists them (docs/design.md). */

export const BUY_CHECK_MESSAGES = {
  accountRestricted: 'Your account is under review. Contact support.',
  emailNotVerified: 'Verify your email',
  phoneNotVerified: 'Verify your phone number',
  noBankAccount: 'Add a bank account',
  noKyc: 'Upload your KYC',
  kycNotApproved: 'Your KYC is under review',
  /** A rejected (RED) verification, with the reviewer's reason when there is one. */
  kycRejected: (reason: string | null | undefined) =>
    reason?.trim()
      ? `Your identity verification was not approved: ${reason.trim()}`
      : 'Your identity verification was not approved.',
  maximum: (max: string) => `Maximum limit is ${max}`,
  invalidAddress: 'Invalid Bitcoin Address',
} as const;

/** The payout-method checks' messages; each rail's own (its details missing) is in its registry entry. */
export const SELL_METHOD_MESSAGES = {
  noSettings: 'Settings are not available.',
  invalidMethod: 'Invalid payment method.',
  ...byRail(SELL_PAYOUT_RAILS, (id) => SELL_PAYOUTS[id].missingDetailsMessage),
};

export const ORDER_STATUSES = ['pending', 'processing', 'completed', 'expired', 'cancelled'] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatusValue = z.infer<typeof orderStatusSchema>;
export const ORDER_TYPES = ['buy', 'sell'] as const;
/**
 * Who started a buy other than the customer at checkout (docs/design.md, "Recurring buys"): a
 * recurring plan's run, or a deposit to the customer's own account number. Null is the customer's own.
 */
export const ORDER_ORIGINS = ['recurring', 'deposit'] as const;
export type OrderOrigin = (typeof ORDER_ORIGINS)[number];
/** The words receipts, statements, exports and the timeline use for a buy's origin. */
export const ORDER_ORIGIN_LABELS: Record<OrderOrigin, string> = {
  recurring: 'Recurring buy',
  deposit: 'Deposit buy',
};
/** A buy's origin in words, or null for the customer's own order. */
export function orderOriginLabel(origin: OrderOrigin | null): string | null {
  return origin ? ORDER_ORIGIN_LABELS[origin] : null;
}
/** An order's `payment_method`: the rail a buy is paid by, or a sell paid out by. */
export const PAYMENT_METHODS = PAYMENT_RAILS;
export const paymentMethodSchema = z.enum(PAYMENT_METHODS);
export type PaymentMethodValue = z.infer<typeof paymentMethodSchema>;
// A method that is not one of these gets the specification's own message (section 5).
export const sellMethodSchema = z.enum(SELL_PAYOUT_RAILS, {
  error: SELL_METHOD_MESSAGES.invalidMethod,
});

const money = z.number({ error: 'Enter an amount as a number.' }).finite();
const userId = z.string().max(100);

/** The sell order's payout choice: the method plus the customer's own details at the time. */
export const sellBankAccountSchema = z
  .object({
    method: sellMethodSchema,
    zelleEmail: z.string().max(254).optional(),
    bank_name: z.string().max(200).optional(),
    account_name: z.string().max(200).optional(),
    account_number: z.string().max(64).optional(),
    address: z.string().max(300).optional(),
    routing_number: z.string().max(32).optional(),
    swift: z.string().max(32).optional(),
  })
  .strip();

export const saveOrderSchema = z.strictObject({
  userId,
  pair: z.literal('BTC-USD', { error: 'Only BTC-USD is traded.' }),
  type: z.enum(ORDER_TYPES),
  amount: money,
  value: money,
  price: money,
  platformFee: money,
  networkFee: money.optional(),
  bankFee: money.optional(),
  /** The client's idea of the quote lock; the server sets its own. */
  expired: z.union([z.number(), z.string(), z.boolean(), z.null()]).optional(),
  /** A buy's destination: a bitcoin address, a BOLT11 invoice or a Lightning address (up to 2,000 characters). */
  walletAddress: z.string().max(2000).optional(),
  /**
   * A buy may name an entry of the customer's payout address book instead of (or with) an address:
   * an xpub entry pays a fresh address of it (docs/design.md).
   */
  payoutAddressId: z.string().max(100).optional(),
  bankAccount: sellBankAccountSchema.optional(),
  /**
   * The locked quote the customer confirmed (`POST /api/quotes`): the figures above must then be that
   * quote's, and the order keeps them (docs/design.md).
   */
  quoteId: z.string().max(100).optional(),
  /** Whose wallet this is: required from $3,000 (the Travel Rule record, docs/design.md). */
  walletOwnership: walletOwnershipSchema.optional(),
  /** A new customer's answer before their first buy (docs/design.md, "Places and the scam shield"). */
  scamCheck: scamCheckSchema.optional(),
  /** A sell's deposit: `onchain` (the default), or `lightning` for an invoice beside the address. */
  deposit: sellDepositSchema.optional(),
});
export type SaveOrderRequest = z.infer<typeof saveOrderSchema>;

/**
 * The trade widget's quote form: the amount the customer typed and the field it is in
 * ('usd' or 'btc'); the other field is the quote computed from it. The account checks, the maximum and
 * the minimum run after this, in the spec's order, because each has its own message.
 */
export const quoteFormSchema = z
  .object({
    source: z.enum(['usd', 'btc']),
    // As typed ('$1,000.50'). What cannot be read as one amount is refused here; an empty field, too
    // many decimals or too large an amount get their own messages from the checks that follow.
    text: z.string(),
  })
  .superRefine(({ source, text }, context) => {
    try {
      if (source === 'usd') parseTypedUsd(text);
      else parseTypedBtc(text);
    } catch (error) {
      if (!(error instanceof MoneyParseError)) throw error;
      if (['unclear', 'not_a_number', 'negative'].includes(error.reason)) {
        context.addIssue({ code: 'custom', path: ['text'], message: error.message });
      }
    }
  });
export type QuoteForm = z.infer<typeof quoteFormSchema>;

/**
 * Buy confirmation: where the bitcoin is sent, a payable address of this network's, or a Lightning
 * invoice or Lightning address (docs/design.md, "Lightning"; the server reads those in full).
 */
export function buyConfirmationFormSchema(network: BitcoinNetwork) {
  return z.object({
    walletAddress: z
      .string()
      .trim()
      .max(2000, BUY_CHECK_MESSAGES.invalidAddress)
      .superRefine((text, context) => {
        if (lightningDestinationKind(text)) return;
        const problem = bitcoinAddressProblem(text, network);
        if (problem) {
          context.addIssue({
            code: 'custom',
            message: addressRefusal(BUY_CHECK_MESSAGES.invalidAddress, problem),
          });
        }
      }),
  });
}

/** The sell flow's payout method, chosen at its own step and confirmed with the order. */
export const sellMethodFormSchema = z.object({ method: sellMethodSchema });

const manualPaymentSchema = z
  .object({
    method: paymentMethodSchema,
    amount: money.optional(),
    create_time: z.string().max(40).optional(),
    receiving_in: z.unknown().optional(),
  })
  .strip();

/** The three shapes of `POST /api/order/update`. */
export const updateOrderSchema = z.union([
  // Add the customer's bank reference to a processing buy (blank is ignored).
  z.strictObject({ _id: z.string().max(100), bankTxn: z.string().max(200) }),
  // Submit a manual payment (Zelle, ACH, wire): the order moves to processing.
  z.strictObject({
    _id: z.string().max(100),
    payment: manualPaymentSchema,
    status: z.literal('processing').optional(),
    bankTxn: z.string().max(200).optional(),
  }),
  // Re-quote a pending order at confirmation: the full order again.
  saveOrderSchema.extend({ _id: z.string().max(100) }),
]);
export type UpdateOrderRequest = z.infer<typeof updateOrderSchema>;

export const receivingInSchema = z.object({
  account_holder: z.string().optional(),
  account_number: z.string().optional(),
  bank_address: z.string().optional(),
  routing_number: z.string().optional(),
  swift: z.string().optional(),
  payment_address: z.string().optional(),
  bank_name: z.string().optional(),
});

export const orderSchema = z.object({
  _id: z.string(),
  userId: z.string(),
  pair: z.string(),
  type: z.enum(ORDER_TYPES),
  amount: z.number(),
  price: z.number(),
  value: z.number(),
  platformFee: z.number(),
  networkFee: z.number(),
  bankFee: z.number(),
  status: orderStatusSchema,
  createdAt: z.string(),
  /** When the confirmed quote stops being valid (pending orders). */
  expiresAt: z.string(),
  txn: z.string().nullable(),
  bankTxn: z.string().nullable(),
  walletAddress: z.union([z.string(), z.object({ address: z.string(), amount: z.number() })]).nullable(),
  confirmations: z.number(),
  flag: z.string().nullable(),
  /**
   * Why an unsettled buy's bitcoin cannot be sent yet because of its payout address (not confirmed,
   * in its cooldown, removed, proof required), in words for the customer; absent when nothing waits.
   */
  payoutHold: z.string().optional(),
  /** Why a cancelled order was cancelled, by the customer or by staff (absent otherwise). */
  cancelReason: z.string().optional(),
  /**
   * A buy to a destination never paid and not proven waits until then (the scam shield's cooling-off);
   * while `scamCancel` is true the customer may still cancel it as a scam.
   */
  coolingUntil: z.string().optional(),
  scamCancel: z.boolean().optional(),
  /** A buy a recurring plan's run or a deposit placed (docs/design.md, "Recurring buys"); absent otherwise. */
  origin: z.enum(ORDER_ORIGINS).optional(),
  /** A sell paid by Lightning: its invoice (absent for an on-chain-only sell and for buys). */
  lightning: orderLightningSchema.optional(),
  /** A buy paid out by Lightning: its payout (absent for on-chain buys and for sells). */
  lightningPayout: orderLightningPayoutSchema.optional(),
  payment: z
    .object({
      method: paymentMethodSchema,
      status: z.string(),
      amount: z.number(),
      create_time: z.string().nullable(),
      receiving_in: receivingInSchema,
      /** PayPal's capture id, on a PayPal-paid order (null until PayPal captured it). */
      captureId: z.string().nullable().optional(),
    })
    .nullable(),
});
export type Order = z.infer<typeof orderSchema>;

export const orderResponseSchema = z.object({ message: z.string(), order: orderSchema });

/** `GET /api/order/list`: the customer's own id (checked against the session) and an optional limit. */
export const orderListQuerySchema = z.strictObject({
  userId,
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
export const orderListResponseSchema = z.object({ result: z.object({ orders: z.array(orderSchema) }) });

/** PayPal, created and captured by the server for one of the customer's orders (docs/design.md). */
export const paypalPaymentBodySchema = z.strictObject({ orderId: z.string().max(100) });
export const paypalOrderParamsSchema = z.object({
  paypalOrderId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9-]+$/),
});
/** PayPal's own order id, for the PayPal button to approve. */
export const paypalOrderCreatedSchema = z.object({ id: z.string() });

export const priceResponseSchema = z.object({
  buyPrice: z.number(),
  sellPrice: z.number(),
  networkFee: z.number(),
  updatedAt: z.string(),
  source: z.string(),
  stale: z.boolean(),
});
export type PriceResponse = z.infer<typeof priceResponseSchema>;

export const CANCEL_REASON_MESSAGES = {
  short: 'Tell us in a few words why you cancel (at least 3 characters).',
  long: 'Keep the reason under 500 characters.',
} as const;

/** `POST /api/order/cancel`: the customer cancels their own pending order and says why. */
export const cancelOrderSchema = z.strictObject({
  _id: z.string().max(100),
  reason: z
    .string({ error: CANCEL_REASON_MESSAGES.short })
    .trim()
    .min(3, { error: CANCEL_REASON_MESSAGES.short })
    .max(500, { error: CANCEL_REASON_MESSAGES.long }),
});
export type CancelOrderRequest = z.infer<typeof cancelOrderSchema>;

/** An order's figures at one moment, as a re-pricing shows them before and after. */
export const orderFiguresSchema = z.object({
  amount: z.number(),
  value: z.number(),
  price: z.number(),
});

/**
 * One line of the customer's order timeline (docs/design.md), written by the server in plain words from
 * the order's audit trail. Staff notes and monitoring never reach it.
 */
export const orderTimelineEntrySchema = z.object({
  at: z.string(),
  /**
   * `payout_replaced`: a bought bitcoin payout re-sent with a higher network fee (same amount and address);
   * `payout_sent`: a sell's dollars handed to the bank (an instant transfer, or the day's ACH file), or a
   * cancelled buy's dollars refunded (its reference is the bank's or Zelle's);
   * `bank_credit`: the buy's bank transfer arrived at our bank (its trace number is the reference).
   */
  kind: z.enum([
    'status',
    'repriced',
    'review_started',
    'review_ended',
    'payout_replaced',
    'payout_sent',
    'bank_credit',
  ]),
  /** The order's status after this step. */
  status: orderStatusSchema,
  title: z.string(),
  detail: z.string().nullable(),
  /** A re-pricing's figures before and after. */
  repricing: z.object({ before: orderFiguresSchema, after: orderFiguresSchema }).nullable(),
  /**
   * A transaction (bitcoin), a bank reference (dollars) or a Lightning payment (its payment hash) this
   * step made or saw.
   */
  reference: z
    .object({
      kind: z.enum(['tx', 'bank', 'lightning']),
      value: z.string(),
      /** For a buy's payout: the output of the transaction that pays this order. */
      vout: z.number().int().nonnegative().optional(),
      /** For a Lightning payment: the preimage of its payment hash, the proof it was paid. */
      preimage: z.string().optional(),
    })
    .nullable(),
});
export type OrderTimelineEntry = z.infer<typeof orderTimelineEntrySchema>;

/** `GET /api/order/:id/timeline`: the steps, oldest first, and a sell's confirmations so far. */
export const orderTimelineResponseSchema = z.object({
  timeline: z.array(orderTimelineEntrySchema),
  /** A sell's deposit confirmations: `count` of the `required` before the dollars are sent. */
  confirmations: z.object({ count: z.number().int(), required: z.number().int() }).nullable(),
});
export type OrderTimelineResponse = z.infer<typeof orderTimelineResponseSchema>;

export const orderIdParamsSchema = z.object({ id: z.string().max(100) });

/** Order statuses in words, for every screen (customers' and staff's alike): never the raw value. */
export const ORDER_STATUS_LABEL: Record<OrderStatusValue, string> = {
  pending: 'Pending',
  processing: 'Processing',
  completed: 'Completed',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

/** The payment's state as the order answer gives it (`payment.status`), in words. */
export const PAYMENT_STATUS_LABEL: Record<string, string> = {
  CREATED: 'PayPal order created',
  PENDING: 'Held by PayPal',
  COMPLETED: 'Completed',
  REVERSED: 'Reversed',
  SUBMITTED: 'Reference given',
  AWAITING_TRANSFER: 'Awaiting transfer',
};

/** Any code in words: the known label, else `some_code` written as 'Some code'. */
export function inWords(code: string, labels: Record<string, string> = {}): string {
  const known = labels[code];
  if (known) return known;
  const text = code
    .replace(/[._-]+/g, ' ')
    .trim()
    .toLowerCase();
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : code;
}
