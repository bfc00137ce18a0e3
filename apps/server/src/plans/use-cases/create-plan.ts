import {
  debitAuthorizationText,
  PLAN_MESSAGES,
  type CreatePlanRequest,
  type PlanFrequency,
} from '@offzero/shared/api/plans';
import { LIMIT_WINDOW_WORDS, type LimitWindow } from '@offzero/shared/api/limits';
import { formatCentsAsCurrency } from '@offzero/shared/currency/format-currency';
import { centsToUsdNumber, MoneyParseError, parseTypedUsd, type Cents } from '@offzero/shared/money/money';
import type { Database } from '../../db/database';
import type { PlanRow, UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { findLimitTier } from '../../limits/limits.repository';
import { checkPlaceForMoneyRoute, recordingShieldRefusals } from '../../places/place-check';
import { tierLimits } from '../../limits/trading-limits';
import { findCustomerSettings } from '../../orders/customer.repository';
import { findGlobalSettings } from '../../settings/global-settings.repository';
import { bankDay, daysBetween, isCalendarDay, runsWithin } from '../plan-schedule';
import { findOwnAddressEntry, insertPlan } from '../plans.repository';
import type { PlanDeps } from './plan-deps';
import { keepFirstBuyAnswer } from '../first-buy-answer';

/**
 * A new plan (docs/design.md, "Recurring buys"): the amount read into cents, a first run that is a real
 * day not in the past, an address-book entry of the customer's that is confirmed and not removed, the
 * debit authorization accepted, a new customer's answer to the scam question (kept for the runs), and
 * every buy check the customer must pass now: KYC approved, a bank
 * account to debit, the order size limits, and the trading limits over what the plan alone would buy
 * in each window. The authorization is kept with its text, time, IP and bank account.
 */
export async function createPlan(
  deps: PlanDeps,
  user: UserRow,
  body: CreatePlanRequest,
  ip: string,
): Promise<PlanRow> {
  const amountCents = readPlanAmount(body.amountUsd);
  const today = bankDay(deps.now());
  if (!isCalendarDay(body.firstRunOn)) throw new AppError('BAD_REQUEST', PLAN_MESSAGES.notADate);
  if (daysBetween(today, body.firstRunOn) < 0) throw new AppError('BAD_REQUEST', PLAN_MESSAGES.inThePast);
  await deps.orders.assertMayBuy(user, amountCents);
  const scamCheck = await keepFirstBuyAnswer(deps, {
    userId: user.id,
    route: 'plan-create',
    scamCheck: body.scamCheck,
    valueUsd: centsToUsdNumber(amountCents),
  });
  // A place closed for buying starts no plan (docs/design.md, "Places and the scam shield"); each run
  // is checked again when its quote is locked.
  await recordingShieldRefusals(deps.db, user.id, 'plan-create', () =>
    checkPlaceForMoneyRoute(deps.db, {
      userId: user.id,
      side: 'buy',
      route: 'plan-create',
      valueCents: amountCents,
    }),
  );
  const settings = await findGlobalSettings(deps.db);
  const limits = tierLimits(settings, await findLimitTier(deps.db, user.id));
  assertPlanWithinLimits(amountCents, body.frequency, {
    '24h': limits.day,
    '7d': limits.week,
    '30d': limits.month,
  });

  const entry = await ownConfirmedEntry(deps.db, user.id, body.payoutAddressId);

  const bank = await findCustomerSettings(deps.db, user.id);
  if (!bank?.accountNumber || !bank.routingNumber || !bank.accountName)
    throw new AppError('BAD_REQUEST', PLAN_MESSAGES.noBankAccount);
  const text = debitAuthorizationText({
    amountUsd: centsToUsdNumber(amountCents).toFixed(2),
    frequency: body.frequency,
    accountName: bank.accountName,
    accountLast4: bank.accountNumber.slice(-4),
  });
  return insertPlan(deps.db, {
    userId: user.id,
    amountCents,
    frequency: body.frequency,
    nextRunOn: body.firstRunOn,
    anchorOn: body.firstRunOn,
    status: 'active',
    payoutAddressId: entry.id,
    authorizationText: text,
    authorizedAt: deps.now(),
    authorizedIp: ip,
    bankAccountName: bank.accountName,
    bankAccountNumber: bank.accountNumber,
    bankRoutingNumber: bank.routingNumber,
    scamCheck,
  });
}

/** An address-book entry of the customer's (else 404), confirmed and not removed (else 400). */
export async function ownConfirmedEntry(db: Database, userId: string, payoutAddressId: string) {
  const entry = await findOwnAddressEntry(db, userId, payoutAddressId);
  if (!entry) throw new AppError('NOT_FOUND', PLAN_MESSAGES.addressNotFound);
  if (entry.removedAt) throw new AppError('BAD_REQUEST', PLAN_MESSAGES.addressRemoved);
  if (!entry.confirmedAt) throw new AppError('BAD_REQUEST', PLAN_MESSAGES.addressUnconfirmed);
  return entry;
}

/** Dollars as a number or as typed, into cents: more than two decimals, zero or less are refused. */
export function readPlanAmount(amountUsd: number | string): Cents {
  let cents: Cents;
  try {
    cents = parseTypedUsd(typeof amountUsd === 'number' ? String(amountUsd) : amountUsd);
  } catch (error) {
    if (error instanceof MoneyParseError) throw new AppError('BAD_REQUEST', error.message);
    throw error;
  }
  if (cents <= 0n) throw new AppError('BAD_REQUEST', 'The amount must be more than $0.');
  return cents;
}

/** Refuses a plan whose own runs in a window (a weekly plan: up to 5 in 30 days) would cross its limit. */
function assertPlanWithinLimits(
  amountCents: Cents,
  frequency: PlanFrequency,
  limits: Record<LimitWindow, Cents>,
): void {
  const days: Record<LimitWindow, 1 | 7 | 30> = { '24h': 1, '7d': 7, '30d': 30 };
  for (const window of ['24h', '7d', '30d'] as const) {
    const runs = runsWithin(frequency, days[window]);
    const total = amountCents * BigInt(runs);
    if (total > limits[window]) {
      const buys = runs === 1 ? 'one buy' : `${runs} buys`;
      throw new AppError(
        'BAD_REQUEST',
        `This plan is over your ${LIMIT_WINDOW_WORDS[window].label} limit of ` +
          `${formatCentsAsCurrency(limits[window])}: ${buys} of ${formatCentsAsCurrency(amountCents)} ` +
          `would come to ${formatCentsAsCurrency(total)}.`,
      );
    }
  }
}
