import { orderActionKinds, type OrderActionKind, type OrderActionOffer } from '@offzero/shared/api/admin';
import type { Database, Transaction } from '../db/database';
import type { OrderRow, PayoutRow } from '../db/schema';
import { findSeenDepositsIn } from '../rails/onchain/deposit.repository';
import { AppError } from '../http/errors';
import {
  checkPayoutDestination,
  payoutDestinationProblem,
  type PayoutDestination,
} from '../payout-addresses/payout-destination';
import { findBatchClaim } from '../payouts/batches/payout-batch.repository';
import { findBtcRefund } from '../payouts/btc-refund.repository';
import { findPayoutOfOrder } from '../payouts/payout.repository';

/**
 * The rules of the back office's order actions, in one place: each action's use-case refuses what they
 * refuse (409 with the reason), and the order page offers what they allow and says why the others that
 * concern the order at its stage are blocked.
 */

/** What the rules read besides the order row (inside the action's transaction, or for the order page). */
export interface OrderActionFacts {
  /** Confirmations a sell deposit needs before the dollars go out. */
  confirmationsRequired: number;
  /** The demo chain can send bitcoin by itself. */
  demoChain: boolean;
  /** The payout batch holding this buy: it pays the buy, never staff by hand (docs/design.md). */
  batch: { batchId: string } | null;
  /** The order's payout (one per order), started or sent. */
  payout: PayoutRow | null;
  /** A buy's dollar refund (claimed when the customer cancelled it as a scam), waiting or sent. */
  refund: PayoutRow | null;
  /** Where a buy's bitcoin goes and whether it may go yet; null for sells. */
  destination: PayoutDestination | null;
  /** A deposit of this sell is still on the chain. */
  holdsDeposit: boolean;
  /** The coins of this sell were sent back already. */
  btcReturned: boolean;
}

/**
 * An action is allowed, or blocked with the reason; `shown` says whether the order is at the stage
 * where staff look for the action (a payout waiting for its address), so the page names the reason.
 */
export type OrderActionVerdict = { allowed: true } | { allowed: false; reason: string; shown: boolean };

const ALLOWED: OrderActionVerdict = { allowed: true };
const blocked = (reason: string, shown = true): OrderActionVerdict => ({ allowed: false, reason, shown });
const hidden = (reason: string) => blocked(reason, false);

export const RESOLVE_FLAG_FIRST = 'Resolve the flag first.';

/** A payout that exists: one in flight may have sent money already, so nothing sends again. */
function payoutExists(order: OrderRow, payout: PayoutRow): OrderActionVerdict {
  if (payout.state === 'submitted') {
    return blocked(
      `A payout of this order is already in flight (started ${payout.createdAt.toISOString()}). ` +
        `Do not send again: check the chain for a transaction to ${payout.address ?? order.walletAddress ?? 'the customer'}, ` +
        'then record its txid with "Record bitcoin payout".',
    );
  }
  return hidden('This order was already paid out.');
}

function inBatch(batch: { batchId: string }): OrderActionVerdict {
  return blocked(
    `This order is in payout batch ${batch.batchId.slice(0, 8)}. Pay it through the batch, or abandon that batch first.`,
  );
}

/** Whether the buy's address may be paid now, at a known address. */
function destinationVerdict(destination: PayoutDestination | null): OrderActionVerdict {
  if (!destination) return blocked('This order has no payout address.');
  const problem = payoutDestinationProblem(destination);
  return problem ? blocked(problem) : ALLOWED;
}

const firstBlock = (...verdicts: (() => OrderActionVerdict)[]): OrderActionVerdict => {
  for (const verdict of verdicts) {
    const answer = verdict();
    if (!answer.allowed) return answer;
  }
  return ALLOWED;
};

const RULES: Record<OrderActionKind, (order: OrderRow, facts: OrderActionFacts) => OrderActionVerdict> = {
  // A person checked the bank or Zelle account: the buy's money arrived.
  'mark-paid': (order) => {
    if (order.type === 'buy' && order.status === 'pending')
      return blocked('Waiting for the customer to pay.');
    if (order.type !== 'buy' || order.status !== 'processing') {
      return hidden(
        `Only a processing buy can be marked paid; this order is a ${order.status} ${order.type}.`,
      );
    }
    if (order.paymentConfirmedAt) return hidden('This payment is already marked as received.');
    // The flag may say the same transfer is claimed for another order too.
    if (order.flag) return blocked(RESOLVE_FLAG_FIRST);
    return ALLOWED;
  },

  // Staff sent the bitcoin themselves and record the transaction; it also settles a payout in flight.
  'payout-btc': (order, facts) => {
    if (order.type !== 'buy') return hidden('A bitcoin payout completes buy orders only.');
    if (order.status !== 'processing') {
      return facts.payout
        ? hidden('This order was already paid out.')
        : hidden(`This order is ${order.status}, so it cannot be paid out.`);
    }
    if (!order.paymentConfirmedAt) {
      return hidden('Mark the payment as received before sending the bitcoin.');
    }
    if (order.flag) return blocked(RESOLVE_FLAG_FIRST);
    if (facts.batch) return inBatch(facts.batch);
    // A payout in flight already passed the address check when it started.
    if (facts.payout?.state === 'submitted') return ALLOWED;
    if (facts.payout) return payoutExists(order, facts.payout);
    return destinationVerdict(facts.destination);
  },

  // Demo: the simulated chain sends the bitcoin and the transaction is recorded.
  'send-btc': (order, facts) => {
    if (!facts.demoChain) return hidden('Only the demo chain sends bitcoin by itself.');
    if (order.type !== 'buy' || order.status !== 'processing' || !order.paymentConfirmedAt) {
      return hidden('Only a processing buy whose payment was marked received can be paid out.');
    }
    return firstBlock(
      () => (order.flag ? blocked(RESOLVE_FLAG_FIRST) : ALLOWED),
      () => (facts.payout ? payoutExists(order, facts.payout) : ALLOWED),
      () => destinationVerdict(facts.destination),
      () => (facts.batch ? inBatch(facts.batch) : ALLOWED),
    );
  },

  // Staff paid a confirmed sell's dollars and record the reference.
  'payout-usd': (order, facts) => {
    if (order.type !== 'sell') return hidden('A dollar payout completes sell orders only.');
    if (order.status === 'pending') return blocked('Waiting for the customer’s bitcoin deposit.');
    if (order.status !== 'processing') {
      return facts.payout
        ? hidden('This order was already paid out.')
        : hidden(`This order is ${order.status}, so it cannot be paid out.`);
    }
    if (order.confirmations < facts.confirmationsRequired) {
      return blocked(
        `Waiting for confirmations: ${order.confirmations} of ${facts.confirmationsRequired}. ` +
          'The dollar payout unlocks after that.',
      );
    }
    if (order.flag) return blocked(RESOLVE_FLAG_FIRST);
    // Sent in the day's ACH file: staff record the bank's confirmation, which settles it.
    if (facts.payout?.state === 'submitted' && facts.payout.sender === 'nacha-file') return ALLOWED;
    if (facts.payout) return payoutExists(order, facts.payout);
    return ALLOWED;
  },

  cancel: (order) =>
    order.status === 'pending' || order.status === 'processing' || order.status === 'expired'
      ? ALLOWED
      : hidden(`This order is ${order.status}, so it cannot be cancelled.`),

  // Coins of a sell we will not pay for, sent back to the customer.
  'refund-btc': (order, facts) => {
    if (order.type !== 'sell') return hidden('Only a sell order holds bitcoin of the customer’s to return.');
    if (facts.btcReturned) return hidden('The bitcoin of this order was already returned.');
    if (!facts.holdsDeposit) {
      return hidden('No deposit of this order is on the chain: there is nothing to return.');
    }
    const flagged = order.flag !== null && order.flag !== 'deposit_reversed';
    if (!flagged && order.status !== 'cancelled' && order.status !== 'expired') {
      return hidden(
        'This order’s bitcoin is due to be paid for. Only a flagged, cancelled or expired order’s coins can be returned.',
      );
    }
    return ALLOWED;
  },

  // A buy's dollars going back the way they came (claimed by a scam cancel): staff send them and
  // record the reference, which settles the refund payout.
  'refund-usd': (_order, facts) => {
    if (!facts.refund) return hidden('This order has no dollar refund to send.');
    if (facts.refund.state === 'requested') return ALLOWED;
    return hidden(
      facts.refund.state === 'settled'
        ? 'The refund of this order was already sent.'
        : `The refund of this order is ${facts.refund.state}.`,
    );
  },

  'resolve-flag': (order) => (order.flag ? ALLOWED : hidden('This order has no flag to resolve.')),
};

export function judgeOrderAction(
  kind: OrderActionKind,
  order: OrderRow,
  facts: OrderActionFacts,
): OrderActionVerdict {
  return RULES[kind](order, facts);
}

/** Inside the action's transaction (order row locked): 409 with the reason unless the rules allow it. */
export function assertOrderAction(kind: OrderActionKind, order: OrderRow, facts: OrderActionFacts): void {
  const verdict = judgeOrderAction(kind, order, facts);
  if (!verdict.allowed) throw new AppError('CONFLICT', verdict.reason);
}

/**
 * The actions the order page offers, in the order it shows them: each one the rules allow, and each
 * blocked one that concerns the order at its stage, with the reason.
 */
export function offeredOrderActions(order: OrderRow, facts: OrderActionFacts): OrderActionOffer[] {
  return orderActionKinds.flatMap((kind): OrderActionOffer[] => {
    const verdict = judgeOrderAction(kind, order, facts);
    if (verdict.allowed) return [{ kind, allowed: true, reason: null }];
    return verdict.shown ? [{ kind, allowed: false, reason: verdict.reason }] : [];
  });
}

/** Reads the facts the rules need about `order` (in the caller's transaction when `db` is one). */
export async function readOrderActionFacts(
  db: Database | Transaction,
  order: OrderRow,
  context: { confirmationsRequired: number; demoChain: boolean; now?: Date },
): Promise<OrderActionFacts> {
  // One query after the other: inside a transaction they share one connection.
  const payout = (await findPayoutOfOrder(db, order.id)) ?? null;
  const facts = {
    confirmationsRequired: context.confirmationsRequired,
    demoChain: context.demoChain,
    payout,
  };
  if (order.type === 'buy') {
    return {
      ...facts,
      refund: (await findPayoutOfOrder(db, order.id, 'refund')) ?? null,
      batch: (await findBatchClaim(db, order.id)) ?? null,
      destination: await checkPayoutDestination(db, order, context.now ?? new Date()),
      holdsDeposit: false,
      btcReturned: false,
    };
  }
  return {
    ...facts,
    refund: null,
    batch: null,
    destination: null,
    holdsDeposit: (await findSeenDepositsIn(db, order.id)).length > 0,
    btcReturned: (await findBtcRefund(db, order.id)) !== undefined,
  };
}
