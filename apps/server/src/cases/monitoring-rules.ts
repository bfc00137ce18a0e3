import { createHash } from 'node:crypto';
import type { CaseRule } from '@offzero/shared/api/cases';
import { centsToUsdNumber } from '@offzero/shared/money/money';
import { SELL_PAYOUT_RAILS, SELL_PAYOUTS } from '@offzero/shared/rails/rails';
import { namesMatch, normaliseName } from './name-similarity';

/**
 * The monitoring rules of docs/design.md as plain functions of what the database says about one order
 * and its customer (gathered by `use-cases/monitor-order.ts`). Each finding names the event that
 * completed the pattern (`triggerKey`), so the same event never opens a second case.
 *
 * Every order the customer saved counts, whatever became of it: structuring and velocity are about
 * attempts, and an order left to expire was still an attempt.
 */

/** The Travel Rule amount that structuring stays under: $3,000. */
export const STRUCTURING_LIMIT_CENTS = 300_000n;
/** Orders from 80 % of it ($2,400, included) up to it ($3,000, excluded: that order is recorded). */
export const STRUCTURING_FLOOR_CENTS = (STRUCTURING_LIMIT_CENTS * 80n) / 100n;
export const STRUCTURING_MIN_ORDERS = 3;
/** More than this many orders in the window is velocity. */
export const VELOCITY_MAX_ORDERS = 5;
export const WINDOW_MS = 24 * 3_600_000;
export const LARGE_FIRST_TRADE_CENTS = 500_000n;
export const LARGE_FIRST_TRADE_DAYS = 7;

export interface MonitoredOrder {
  id: string;
  userId: string;
  type: 'buy' | 'sell';
  status: string;
  valueCents: bigint;
  createdAt: Date;
  walletAddress: string | null;
  paymentMethod: string | null;
  receivingDetails: Record<string, string> | null;
  flag: string | null;
  flagNote: string | null;
}

export interface OrderFacts {
  order: MonitoredOrder;
  /** The customer's orders created in the 24 hours up to and including this one (this one among them). */
  window: MonitoredOrder[];
  /**
   * The customer's orders before this one that became trades (not cancelled, not expired); null when
   * not counted because the order cannot be a large first trade (`mayBeLargeFirstTrade`).
   */
  earlierTrades: number | null;
  /** When the customer's identity was approved, if it is. */
  kycApprovedAt: Date | null;
  /** The verified name (the KYC record's, else the account's). */
  kycName: string | null;
  /** Other customers' orders paying the same bitcoin address (buys) or bank account (sells). */
  sharedDestination: { userId: string; orderId: string; at: Date }[];
}

export interface Finding {
  rule: CaseRule;
  triggerKey: string;
  evidence: Record<string, unknown>;
}

/** The rails that pay a sell into the customer's bank account number (a destination customers may share). */
export const BANK_ACCOUNT_PAYOUT_RAILS: readonly string[] = SELL_PAYOUT_RAILS.filter((id) =>
  SELL_PAYOUTS[id].lines.some((line) => line.key === 'account_number'),
);
const BANK_METHODS = new Set(BANK_ACCOUNT_PAYOUT_RAILS);

/** Only the last four digits of a bank account number are ever shown. */
export function maskAccountNumber(accountNumber: string): string {
  const digits = accountNumber.replace(/\s+/g, '');
  return `****${digits.slice(-4)}`;
}

/** The destination two customers may share: a buy's payout address, a sell's bank account number. */
export function destinationOf(
  order: MonitoredOrder,
): { kind: 'address' | 'bank_account'; value: string } | null {
  if (order.type === 'buy' && order.walletAddress) {
    return { kind: 'address', value: order.walletAddress.toLowerCase() };
  }
  const account = order.receivingDetails?.account_number?.replace(/\s+/g, '');
  if (order.type === 'sell' && order.paymentMethod && BANK_METHODS.has(order.paymentMethod) && account) {
    return { kind: 'bank_account', value: account };
  }
  return null;
}

const summary = (order: MonitoredOrder) => ({
  orderId: order.id,
  type: order.type,
  valueUsd: centsToUsdNumber(order.valueCents),
  createdAt: order.createdAt.toISOString(),
});

export function inStructuringBand(valueCents: bigint): boolean {
  return valueCents >= STRUCTURING_FLOOR_CENTS && valueCents < STRUCTURING_LIMIT_CENTS;
}

/**
 * Whether the order is large enough and close enough after the identity approval to be a large first
 * trade; only then do its earlier trades need counting.
 */
export function mayBeLargeFirstTrade(order: MonitoredOrder, kycApprovedAt: Date | null): boolean {
  return (
    order.valueCents >= LARGE_FIRST_TRADE_CENTS &&
    kycApprovedAt !== null &&
    order.createdAt.getTime() >= kycApprovedAt.getTime() &&
    order.createdAt.getTime() - kycApprovedAt.getTime() <= LARGE_FIRST_TRADE_DAYS * 86_400_000
  );
}

export function evaluateRules(facts: OrderFacts): Finding[] {
  const { order, window } = facts;
  const findings: Finding[] = [];
  const byTime = [...window].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());

  const banded = byTime.filter((o) => inStructuringBand(o.valueCents));
  if (inStructuringBand(order.valueCents) && banded.length >= STRUCTURING_MIN_ORDERS) {
    findings.push({
      rule: 'structuring',
      triggerKey: `order:${order.id}`,
      evidence: {
        description: `${banded.length} orders in 24 hours, each from $2,400 to just under $3,000`,
        windowEndsAt: order.createdAt.toISOString(),
        orders: banded.map(summary),
      },
    });
  }

  if (byTime.length > VELOCITY_MAX_ORDERS) {
    findings.push({
      rule: 'velocity',
      triggerKey: `order:${order.id}`,
      evidence: {
        description: `${byTime.length} orders in 24 hours (more than ${VELOCITY_MAX_ORDERS})`,
        windowEndsAt: order.createdAt.toISOString(),
        orders: byTime.map(summary),
      },
    });
  }

  const approvedAt = facts.kycApprovedAt;
  if (approvedAt && mayBeLargeFirstTrade(order, approvedAt) && facts.earlierTrades === 0) {
    findings.push({
      rule: 'large_first_trade',
      triggerKey: `order:${order.id}`,
      evidence: {
        description: `First trade of at least $5,000 within ${LARGE_FIRST_TRADE_DAYS} days of identity approval`,
        kycApprovedAt: approvedAt.toISOString(),
        orders: [summary(order)],
      },
    });
  }

  const holder = order.receivingDetails?.account_holder?.trim();
  if (
    order.type === 'sell' &&
    order.paymentMethod &&
    BANK_METHODS.has(order.paymentMethod) &&
    holder &&
    facts.kycName &&
    !namesMatch(facts.kycName, holder)
  ) {
    const account = order.receivingDetails?.account_number;
    findings.push({
      rule: 'name_mismatch',
      // The same holder name, once reviewed, does not open another case.
      triggerKey: `holder:${normaliseName(holder)}`,
      evidence: {
        description: 'The bank account holder is not the verified customer',
        holderName: holder,
        kycName: facts.kycName,
        accountNumber: account ? maskAccountNumber(account) : null,
        orders: [summary(order)],
      },
    });
  }

  const destination = destinationOf(order);
  if (destination && facts.sharedDestination.length > 0) {
    const shown = destination.kind === 'address' ? destination.value : maskAccountNumber(destination.value);
    // The key names the destination without storing a full account number.
    const key = createHash('sha256').update(destination.value).digest('hex').slice(0, 32);
    findings.push({
      rule: 'shared_destination',
      triggerKey: `${destination.kind}:${key}`,
      evidence: {
        description:
          destination.kind === 'address'
            ? 'The payout address is used by another customer'
            : 'The bank account number is used by another customer',
        kind: destination.kind,
        destination: shown,
        orders: [summary(order)],
        otherCustomers: facts.sharedDestination.map((other) => ({
          userId: other.userId,
          orderId: other.orderId,
          createdAt: other.at.toISOString(),
        })),
      },
    });
  }

  if (order.flag === 'sanctions_hit') {
    findings.push({
      rule: 'sanctions_hit',
      triggerKey: `order:${order.id}`,
      evidence: {
        description: 'The order was flagged: a sanctioned address',
        flagNote: order.flagNote,
        orders: [summary(order)],
      },
    });
  }

  if (order.flag === 'payout_returned') {
    findings.push({
      rule: 'payout_returned',
      triggerKey: `order:${order.id}:payout_returned`,
      evidence: {
        description: 'The bank refused or returned the payout of this sell',
        flagNote: order.flagNote,
        orders: [summary(order)],
      },
    });
  }

  return findings;
}
