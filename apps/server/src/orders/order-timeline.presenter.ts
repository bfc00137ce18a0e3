import type { OrderTimelineEntry, OrderTimelineResponse } from '@offzero/shared/api/orders';
import { centsToUsdNumber, satsToBtcNumber } from '@offzero/shared/money/money';
import { railLabelInSentence } from '@offzero/shared/rails/rails';
import type { OrderRow } from '../db/schema';

/** One row of `order_events`, as the timeline reads it. */
export interface OrderEvent {
  fromStatus: OrderRow['status'] | null;
  toStatus: OrderRow['status'];
  actor: string;
  details: Record<string, unknown> | null;
  createdAt: Date;
}

/**
 * Why a deposit re-priced a sell, in the customer's words. Keyed by the flag the deposit raised; a
 * re-pricing the customer asked for (a new quote at confirmation) has its own words.
 */
const REPRICING_WHY: Record<string, string> = {
  late_deposit:
    'Your bitcoin arrived after the 20-minute window, so it was priced at the price of that moment.',
  underpaid: 'You sent less bitcoin than the order asked for, so it was priced on what arrived.',
  overpaid:
    'You sent more bitcoin than the order asked for. The extra was priced at the lower of your locked price and the price when it arrived.',
  over_limit: 'What arrived is worth more than the largest order we take, so the order is held for review.',
  vanished_tx: 'A deposit transaction left the chain, so the order was priced on what is still there.',
};

/**
 * What a review is about, in the customer's words. Anything not listed (compliance holds among them)
 * reads as a plain review: the timeline never says more than the customer needs to know.
 */
const REVIEW_WHY: Record<string, string> = {
  late_deposit: 'Your bitcoin arrived after the deposit window closed. Our team checks it before paying out.',
  underpaid: 'Less bitcoin arrived than the order asked for. Our team checks it before paying out.',
  overpaid: 'More bitcoin arrived than the order asked for. Our team checks it before paying out.',
  over_limit: 'What arrived is worth more than the largest order we take. Our team will contact you.',
  extra_deposit:
    'More bitcoin arrived at this order’s deposit address after it was settled. Our team will contact you.',
  vanished_tx: 'Your deposit transaction left the chain (replaced or dropped). Our team is looking into it.',
  duplicate_reference:
    'The bank reference you gave is already on another order. Our team checks the payment by hand.',
  payment_reversed: 'Your PayPal payment was reversed or disputed. Our team will contact you.',
  capture_mismatch: 'PayPal did not confirm the full payment for this order. Our team will contact you.',
  deposit_reversed: 'Your deposit left the chain after we paid you. Our team will contact you.',
  payout_returned: 'Your bank did not accept the payout. Check your bank details; our team will contact you.',
};
const REVIEW_DEFAULT = 'Our team is reviewing this order and will contact you if anything is needed.';

const REVIEW_ENDED: Record<string, string> = {
  reviewed: 'Our team checked the order and released it.',
  refunded: 'Your bitcoin was returned to you.',
};

/**
 * The customer's timeline of one order (docs/design.md), from its audit trail: every status with its
 * time, each re-pricing with its figures before and after and why, when a review started and how it
 * ended, and the transactions and references that moved the money. It is written from the events'
 * structured fields only, never from the free-text reasons and notes staff and jobs write for the back
 * office (a staff cancellation's reason is the one exception: it is written for the customer).
 */
export function toOrderTimeline(
  order: OrderRow,
  events: readonly OrderEvent[],
  confirmationsRequired: number,
): OrderTimelineResponse {
  const timeline: OrderTimelineEntry[] = [];
  for (const event of events) {
    const at = event.createdAt.toISOString();
    const details = event.details ?? {};
    const status = statusStep(order, event, details);
    if (status) timeline.push({ at, kind: 'status', status: event.toStatus, repricing: null, ...status });
    const repricing = repricingOf(details);
    if (repricing) {
      const why = typeof details.why === 'string' ? details.why : null;
      timeline.push({
        at,
        kind: 'repriced',
        status: event.toStatus,
        title: 'Re-priced',
        detail: event.actor.startsWith('user:')
          ? 'A new quote at today’s price when you confirmed the order.'
          : ((why && REPRICING_WHY[why]) ?? 'Priced on all the bitcoin that arrived.'),
        repricing,
        reference: null,
      });
    }
    if (details.event === 'payout_fee_bumped' && typeof details.txid === 'string') {
      timeline.push({
        at,
        kind: 'payout_replaced',
        status: event.toStatus,
        title: 'Bitcoin re-sent with a higher network fee',
        detail: 'The same amount to the same address, in a transaction that replaces the first one.',
        repricing: null,
        reference: { kind: 'tx', value: details.txid, ...voutOf(details) },
      });
    }
    const sent = payoutSentOf(details) ?? refundSentOf(details);
    if (sent) timeline.push({ at, status: event.toStatus, repricing: null, ...sent });
    const bankCredit = bankCreditStep(details);
    if (bankCredit)
      timeline.push({ at, kind: 'bank_credit', status: event.toStatus, repricing: null, ...bankCredit });
    const flag = flagChangeOf(details);
    if (flag?.to) {
      timeline.push({
        at,
        kind: 'review_started',
        status: event.toStatus,
        title: 'Under review',
        detail: REVIEW_WHY[flag.to] ?? REVIEW_DEFAULT,
        repricing: null,
        reference: null,
      });
    } else if (flag) {
      const resolution = typeof details.resolution === 'string' ? details.resolution : '';
      timeline.push({
        at,
        kind: 'review_ended',
        status: event.toStatus,
        title: 'Review finished',
        detail: REVIEW_ENDED[resolution] ?? 'The review is over.',
        repricing: null,
        reference: null,
      });
    }
  }
  return {
    timeline,
    confirmations:
      order.type === 'sell' && order.txn
        ? { count: order.confirmations, required: confirmationsRequired }
        : null,
  };
}

const ORIGIN_PLACED: Record<string, string> = {
  recurring: 'Recurring buy: your plan bought at the price of its day, paid by a debit from your bank.',
  deposit: 'Deposit buy: a deposit to your account number bought at the price when it arrived.',
};

type StatusStep = Pick<OrderTimelineEntry, 'title' | 'detail' | 'reference'>;

const BANK_CREDIT_RAIL: Record<string, string> = { ach: 'ACH', wire: 'wire', instant: 'instant' };

/** The money of a buy arrived at our bank and was matched to it (docs/design.md, "Bank provider"). */
function bankCreditStep(details: Record<string, unknown>): StatusStep | null {
  if (details.event !== 'bank_credit' || typeof details.traceNumber !== 'string') return null;
  const rail = typeof details.rail === 'string' ? (BANK_CREDIT_RAIL[details.rail] ?? 'bank') : 'bank';
  const amount =
    typeof details.amountCents === 'string'
      ? ` of $${centsToUsdNumber(BigInt(details.amountCents)).toFixed(2)}`
      : '';
  // A deposit buy's step names who sent the money (docs/design.md, "Recurring buys").
  const from = typeof details.originatorName === 'string' ? ` from ${details.originatorName}` : '';
  return {
    title: 'Bank transfer received',
    detail: from
      ? `A deposit${amount}${from} arrived at your account number and bought this bitcoin. We send it next.`
      : `Your ${rail} transfer${amount} arrived at our bank. We send your bitcoin next.`,
    reference: { kind: 'bank', value: details.traceNumber },
  };
}

/** The words for a change of status (or the creation), or null when the status stayed as it was. */
function statusStep(order: OrderRow, event: OrderEvent, details: Record<string, unknown>): StatusStep | null {
  const isBuy = order.type === 'buy';
  const method = order.paymentMethod ? railLabelInSentence(order.paymentMethod) : null;
  const txid = typeof details.txid === 'string' ? details.txid : null;
  if (event.fromStatus === null) {
    // A plan's run or a deposit placed it, at the price then (docs/design.md, "Recurring buys").
    const origin = ORIGIN_PLACED[order.origin ?? ''];
    return {
      title: 'Order placed',
      detail:
        origin ??
        (isBuy
          ? 'Your price is locked while you pay.'
          : 'A deposit address was issued for your bitcoin (20 minutes to send).'),
      reference: null,
    };
  }
  if (event.fromStatus === event.toStatus) return null;
  switch (event.toStatus) {
    case 'processing':
      if (isBuy) {
        return method === 'PayPal'
          ? { title: 'PayPal payment received', detail: 'We send your bitcoin next.', reference: null }
          : {
              title: 'Payment submitted',
              detail: `You paid by ${method ?? 'bank transfer'}. We send your bitcoin once the money arrives.`,
              reference: null,
            };
      }
      if (details.rail === 'lightning' && typeof details.paymentHash === 'string') {
        return {
          title: 'Paid by Lightning',
          detail: 'Your Lightning payment arrived. We pay you next.',
          reference: lightningReference(details.paymentHash, order.lightningPreimage),
        };
      }
      return {
        title: event.fromStatus === 'expired' ? 'Bitcoin arrived late' : 'Bitcoin received',
        detail:
          event.fromStatus === 'expired'
            ? 'Your deposit arrived after the 20-minute window closed. It is still yours and is being paid.'
            : 'Your deposit is on the chain. We pay you once it has enough confirmations.',
        reference: txid ? { kind: 'tx', value: txid } : null,
      };
    case 'completed':
      if (isBuy) {
        // The payout's own transaction and output (a batch pays many orders in one transaction); a later
        // fee bump has its own step.
        const paid = txid ?? order.txn;
        if (typeof details.paymentHash === 'string') {
          return {
            title: 'Bitcoin sent by Lightning',
            detail: 'Paid to your Lightning wallet. The preimage is the proof of payment.',
            reference: lightningReference(details.paymentHash, order.lightningPreimage),
          };
        }
        return {
          title: 'Bitcoin sent',
          detail: 'The bitcoin is on its way to your address.',
          reference: paid ? { kind: 'tx', value: paid, ...voutOf(details) } : null,
        };
      }
      // An instant payout completes when the customer's bank has it (its "Dollars sent" step is earlier).
      if (order.paymentMethod === 'instant') {
        return {
          title: 'Dollars arrived',
          detail: 'Your bank received the instant transfer.',
          reference: order.bankTxn ? { kind: 'bank', value: order.bankTxn } : null,
        };
      }
      return {
        title: 'Dollars sent',
        detail: `Paid to you by ${method ?? 'bank transfer'}.`,
        reference: order.bankTxn ? { kind: 'bank', value: order.bankTxn } : null,
      };
    case 'expired':
      return isBuy
        ? { title: 'Expired', detail: 'The quote ran out before a payment was made.', reference: null }
        : { title: 'Expired', detail: 'No bitcoin arrived within the 20-minute window.', reference: null };
    case 'cancelled':
      return {
        title: event.actor.startsWith('user:') ? 'You cancelled the order' : 'Cancelled by OffZero',
        detail: order.cancelReason,
        reference: null,
      };
    case 'pending':
      return {
        title: 'Waiting for your bitcoin again',
        detail:
          'Your deposit transaction left the chain (replaced or dropped), so the order waits for it again.',
        reference: null,
      };
  }
}

interface StoredFigures {
  amountSats?: unknown;
  valueCents?: unknown;
  priceCents?: unknown;
}

/** The before and after of a re-pricing (a customer's new quote, or a deposit priced on what arrived). */
function repricingOf(details: Record<string, unknown>): OrderTimelineEntry['repricing'] {
  const change =
    details.event === 'requoted'
      ? { before: details.before, after: details.after }
      : (details.repriced as { before?: unknown; after?: unknown } | undefined);
  if (!change) return null;
  const before = figuresOf(change.before);
  const after = figuresOf(change.after);
  if (!before || !after) return null;
  const same = before.amount === after.amount && before.value === after.value && before.price === after.price;
  return same ? null : { before, after };
}

function figuresOf(stored: unknown): { amount: number; value: number; price: number } | null {
  if (typeof stored !== 'object' || stored === null) return null;
  const { amountSats, valueCents, priceCents } = stored as StoredFigures;
  if (typeof amountSats !== 'string' || typeof valueCents !== 'string' || typeof priceCents !== 'string') {
    return null;
  }
  return {
    amount: satsToBtcNumber(BigInt(amountSats)),
    value: centsToUsdNumber(BigInt(valueCents)),
    price: centsToUsdNumber(BigInt(priceCents)),
  };
}

/** The output index a payout event recorded, as a spread into a reference. */
/** A Lightning payment's reference: its payment hash, with the preimage once known. */
function lightningReference(paymentHash: string, preimage: string | null): StatusStep['reference'] {
  return { kind: 'lightning', value: paymentHash, ...(preimage ? { preimage } : {}) };
}

function voutOf(details: Record<string, unknown>): { vout?: number } {
  return typeof details.vout === 'number' && Number.isInteger(details.vout) && details.vout >= 0
    ? { vout: details.vout }
    : {};
}

function flagChangeOf(details: Record<string, unknown>): { from: string | null; to: string | null } | null {
  const flag = details.flag as { from?: unknown; to?: unknown } | undefined;
  if (typeof flag !== 'object' || flag === null) return null;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return { from: text(flag.from), to: text(flag.to) };
}

type SentStep = Pick<OrderTimelineEntry, 'kind' | 'title' | 'detail' | 'reference'>;

/** A sell's dollars handed to the bank: sent instantly, or in the day's ACH file. */
function payoutSentOf(details: Record<string, unknown>): SentStep | null {
  if (details.event !== 'payout_sent') return null;
  if (details.rail === 'instant') {
    return {
      kind: 'payout_sent',
      title: 'Dollars sent',
      detail: 'Sent to your bank instantly; it arrives in seconds.',
      reference: null,
    };
  }
  if (details.rail === 'ach') {
    return {
      kind: 'payout_sent',
      title: 'Dollars sent by ACH',
      detail: 'Sent to your bank by ACH; it usually arrives in 1–2 business days.',
      reference: null,
    };
  }
  return null;
}

/** A cancelled buy's dollars sent back the way they came (a scam cancel's refund), with its reference. */
function refundSentOf(details: Record<string, unknown>): SentStep | null {
  if (details.event !== 'refund_sent' || typeof details.reference !== 'string') return null;
  const rail = typeof details.rail === 'string' ? railLabelInSentence(details.rail) : 'bank transfer';
  const amount =
    typeof details.amountCents === 'string'
      ? `$${centsToUsdNumber(BigInt(details.amountCents)).toFixed(2)}`
      : 'Your payment';
  return {
    kind: 'payout_sent',
    title: 'Dollars refunded',
    detail: `${amount} went back to you by ${rail}, the way you paid.`,
    reference: { kind: 'bank', value: details.reference },
  };
}
