import { LIMIT_WINDOW_WORDS, type LimitTier } from '@offzero/shared/api/limits';
import { formatCentsAsCurrency } from '@offzero/shared/currency/format-currency';
import type { Cents } from '@offzero/shared/money/money';
import type { Database, Transaction } from '../db/database';
import type { GlobalSettingsRow } from '../db/schema';
import { AppError } from '../http/errors';
import { findGlobalSettings } from '../settings/global-settings.repository';
import { findLimitTier, sumOrderValuesSince, type WindowUse } from './limits.repository';
import {
  limitWindowStates,
  overLimitRefusal,
  tierLimits,
  windowStarts,
  type LimitWindowState,
} from './trading-limits';

/**
 * Trading limits per KYC tier over rolling 24-hour, 7-day and 30-day windows (docs/design.md), over
 * the value of the customer's orders that are not expired or cancelled, buys and sells together.
 */

/** The customer's tier and each window's limit, use and what is left, as of `now`. */
export async function readCustomerLimits(
  db: Database | Transaction,
  userId: string,
  now: Date,
  exceptOrderId?: string,
  /** The tier when the caller has just read it (the saving transaction's customer lock answers it). */
  knownTier?: LimitTier,
): Promise<{ tier: LimitTier; windows: LimitWindowState[] }> {
  // One after another: inside a transaction they share one connection.
  const settings = await findGlobalSettings(db);
  const tier = knownTier ?? (await findLimitTier(db, userId));
  const used = await sumOrderValuesSince(db, userId, windowStarts(now), exceptOrderId);
  return { tier, windows: limitWindowStates(tierLimits(settings, tier), used) };
}

/**
 * Refuses (400, naming the window and what is left) an order of `valueCents` that would take the
 * customer over any window. Call it inside the saving transaction after the customer's row is locked
 * (`lockCustomerForSave`): two saves at once then count each other, so both cannot pass one limit.
 * `exceptOrderId`: the order being re-quoted, whose old value its new one replaces.
 */
export async function assertWithinTradingLimits(
  tx: Transaction,
  request: {
    userId: string;
    valueCents: Cents;
    now: Date;
    exceptOrderId?: string;
    tier?: LimitTier;
  },
): Promise<void> {
  const { windows } = await readCustomerLimits(
    tx,
    request.userId,
    request.now,
    request.exceptOrderId,
    request.tier,
  );
  const refusal = overLimitRefusal(windows, request.valueCents);
  if (refusal) throw new AppError('BAD_REQUEST', refusal);
}

/**
 * `assertWithinTradingLimits` for a save that has just read, under the customer's lock, the tier and
 * what the windows hold (`findTwinAndWindowUse`), with the settings it priced the order with.
 */
export function assertUseWithinTradingLimits(request: {
  settings: GlobalSettingsRow;
  tier: LimitTier;
  used: WindowUse;
  valueCents: Cents;
}): void {
  const windows = limitWindowStates(tierLimits(request.settings, request.tier), request.used);
  const refusal = overLimitRefusal(windows, request.valueCents);
  if (refusal) throw new AppError('BAD_REQUEST', refusal);
}

/**
 * Which of the customer's windows (as "24-hour limit of $X") an order of `valueCents` would cross,
 * or null: the deposit watcher holds an over-paid sell that would.
 */
export async function crossedTradingLimit(
  tx: Transaction,
  request: { userId: string; valueCents: Cents; now: Date; exceptOrderId: string },
): Promise<string | null> {
  const { windows } = await readCustomerLimits(tx, request.userId, request.now, request.exceptOrderId);
  const crossed = windows.find((state) => request.valueCents > state.remainingCents);
  return crossed
    ? `${LIMIT_WINDOW_WORDS[crossed.window].label} limit of ${formatCentsAsCurrency(crossed.limitCents)}`
    : null;
}

export function createLimitsService(deps: { db: Database; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return {
    forCustomer: (userId: string) => readCustomerLimits(deps.db, userId, now()),
  };
}

export type LimitsService = ReturnType<typeof createLimitsService>;
