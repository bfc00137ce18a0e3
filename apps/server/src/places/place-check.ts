import {
  PLACE_MESSAGES,
  placeCodeFrom,
  type PlaceCode,
  type PlaceTerms,
} from '@offzero/shared/places/places';
import { formatCentsAsCurrency } from '@offzero/shared/currency/format-currency';
import type { Cents } from '@offzero/shared/money/money';
import type { Database, Transaction } from '../db/database';
import type { JurisdictionRuleRow, ShieldDecision } from '../db/schema';
import { AppError, type AppErrorCode } from '../http/errors';
import { findPlaceRule, findResidence, findRulesVersion, recordShieldDecision } from './places.repository';

/**
 * Every way money moves for a customer, as the places rules name it (docs/design.md, "Places and the
 * scam shield"). Each asks `checkPlaceForMoneyRoute` before any money moves: the KYC start, quotes,
 * order saves and re-quotes, payouts, and the recurring plan runs and inbound-credit buys (they pass
 * their own route name and the customer's id; nothing else is needed).
 */
export type MoneyRoute =
  'kyc' | 'quote' | 'order-save' | 'requote' | 'payout' | 'plan-create' | 'plan-run' | 'inbound-credit-buy';

/** What a money route learns of the customer's place: its code, its rules and the version checked. */
export interface PlaceCheck {
  /** Null for a KYC record from before places were asked: only the global rules apply to it. */
  code: PlaceCode | null;
  rule: JurisdictionRuleRow | null;
  version: number;
}

/**
 * A refusal by the places rules or the scam shield: an AppError that also names the decision, so that
 * `recordingShieldRefusals` keeps it in the shield's audit trail once the refused work rolled back.
 */
export class ShieldRefusal extends AppError {
  constructor(
    code: AppErrorCode,
    message: string,
    readonly decision: ShieldDecision,
    readonly detail: Record<string, unknown>,
  ) {
    super(code, message);
  }
}

/**
 * The one check of a place for a money route: the customer's residence (from their KYC record) against
 * the rules in force. A place closed for the side (`buy` or `sell`) answers 403 with the contract's words
 * ("OffZero is not available in New York yet."); an order above the place's `orderMaxUsd` answers 400.
 * Reads only, so it may run inside the caller's transaction; a refusal is recorded by the caller's
 * `recordingShieldRefusals`, outside it.
 */
export async function checkPlaceForMoneyRoute(
  db: Database | Transaction,
  request: { userId: string; side: 'buy' | 'sell'; route: MoneyRoute; valueCents?: Cents | undefined },
): Promise<PlaceCheck> {
  const residence = await findResidence(db, request.userId);
  const code = placeCodeFrom(residence?.residenceState);
  return checkPlaceCode(db, code, request);
}

/** `checkPlaceForMoneyRoute` for a place already known (the KYC form's, before any record exists). */
export async function checkPlaceCode(
  db: Database | Transaction,
  code: PlaceCode | null,
  request: {
    userId: string;
    side: 'buy' | 'sell' | 'any';
    route: MoneyRoute;
    valueCents?: Cents | undefined;
  },
): Promise<PlaceCheck> {
  const version = await findRulesVersion(db);
  if (!code) return { code: null, rule: null, version };
  const rule = (await findPlaceRule(db, code)) ?? null;
  if (!rule) return { code, rule: null, version };
  const detail = { code, side: request.side, route: request.route, version };
  const open = request.side === 'any' ? rule.buy || rule.sell : rule[request.side];
  if (!open)
    throw new ShieldRefusal('PLACE_CLOSED', PLACE_MESSAGES.closed(rule.name), 'place_refused', detail);
  const { valueCents } = request;
  if (valueCents !== undefined && rule.orderMaxCents !== null && valueCents > rule.orderMaxCents) {
    throw new ShieldRefusal(
      'BAD_REQUEST',
      PLACE_MESSAGES.orderMax(rule.name, formatCentsAsCurrency(rule.orderMaxCents)),
      'place_refused',
      { ...detail, valueCents: valueCents.toString(), orderMaxCents: rule.orderMaxCents.toString() },
    );
  }
  return { code, rule, version };
}

/** The licence line and disclosures a quote or receipt carries, when the customer's place has rules. */
export function placeTerms(check: PlaceCheck): PlaceTerms | null {
  if (!check.code || !check.rule) return null;
  return {
    code: check.code,
    licence: check.rule.licence,
    disclosures: check.rule.disclosures,
    version: check.version,
  };
}

/** The terms an order was checked against (its place and rules version), for its receipt. */
export async function orderPlaceTerms(
  db: Database,
  order: { jurisdictionCode: string | null; jurisdictionVersion: number | null },
): Promise<PlaceTerms | null> {
  if (!order.jurisdictionCode || order.jurisdictionVersion === null) return null;
  const rule = await findPlaceRule(db, order.jurisdictionCode, order.jurisdictionVersion);
  if (!rule) return null;
  return {
    code: rule.code,
    licence: rule.licence,
    disclosures: rule.disclosures,
    version: order.jurisdictionVersion,
  };
}

/**
 * Runs a customer's money request and, when the places rules or the scam shield refuse it, records the
 * decision (after the request's own transaction rolled back, so the record stays) before answering.
 * Call it outside any transaction.
 */
export async function recordingShieldRefusals<T>(
  db: Database,
  userId: string,
  route: MoneyRoute,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ShieldRefusal) {
      await recordShieldDecision(db, { userId, decision: error.decision, route, detail: error.detail });
    }
    throw error;
  }
}
