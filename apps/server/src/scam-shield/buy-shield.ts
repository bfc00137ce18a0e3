import { NEW_CUSTOMER_HOURS, SCAM_MESSAGES, type ScamCheck } from '@offzero/shared/places/scam-shield';
import { formatCentsAsCurrency } from '@offzero/shared/currency/format-currency';
import type { Cents } from '@offzero/shared/money/money';
import type { Transaction } from '../db/database';
import type { GlobalSettingsRow } from '../db/schema';
import { ShieldRefusal, type PlaceCheck } from '../places/place-check';
import { findResidence, recordShieldDecision } from '../places/places.repository';
import { hasEarlierBuy, isKnownDestination, sumBuysSince } from './scam-shield.repository';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A customer whose identity was approved less than 72 hours ago (docs/design.md). */
export function isNewCustomer(kyc: { status: string; decidedAt: Date | null } | null, now: Date): boolean {
  if (kyc?.status !== 'GREEN' || !kyc.decidedAt) return false;
  return now.getTime() - kyc.decidedAt.getTime() < NEW_CUSTOMER_HOURS * HOUR_MS;
}

/** What the shield settles for a buy it lets through, kept on the order. */
export interface BuyShield {
  newCustomer: boolean;
  /** The answer of a first buy, kept with it. */
  scamCheck: ScamCheck | null;
  /** When the payout may start: a new destination of a new customer waits `scam.cooling_hours`. */
  coolingUntil: Date | null;
}

/**
 * The scam shield's checks of a buy, under the customer's save lock (so two buys at once are counted
 * one after the other, as the trading limits are): a new customer's first buy needs the scam answer,
 * their buys of the last 24 hours stay within the new-customer cap (the place's, when stricter), and a
 * destination never paid and not proven waits before payout. Refusals are ShieldRefusals (recorded by
 * the caller once rolled back).
 */
export async function checkBuyShield(
  tx: Transaction,
  request: {
    userId: string;
    settings: GlobalSettingsRow;
    place: PlaceCheck;
    valueCents: Cents;
    scamCheck: ScamCheck | undefined;
    walletAddress: string | null;
    payoutAddressId: string | null;
    now: Date;
    /** A re-quote replaces its own order's value. */
    exceptOrderId?: string;
  },
): Promise<BuyShield> {
  const kyc = await findResidence(tx, request.userId);
  const newCustomer = isNewCustomer(kyc, request.now);
  if (!newCustomer) return { newCustomer, scamCheck: null, coolingUntil: null };

  let scamCheck: ScamCheck | null = null;
  if (!(await hasEarlierBuy(tx, request.userId, request.exceptOrderId))) {
    if (!request.scamCheck) {
      throw new ShieldRefusal(
        'SCAM_CHECK_REQUIRED',
        SCAM_MESSAGES.questionMissing,
        'scam_question_missing',
        {},
      );
    }
    if (!request.scamCheck.ownWallet) {
      throw new ShieldRefusal('BAD_REQUEST', SCAM_MESSAGES.notOwnWallet, 'scam_question_missing', {
        ownWallet: false,
      });
    }
    scamCheck = request.scamCheck;
  }

  const placeCap = request.place.rule?.newCustomerDailyCents ?? null;
  const globalCap = request.settings.scamNewCustomerDailyCents;
  const cap = placeCap !== null && placeCap < globalCap ? placeCap : globalCap;
  const used = await sumBuysSince(
    tx,
    request.userId,
    new Date(request.now.getTime() - DAY_MS),
    request.exceptOrderId,
  );
  if (used + request.valueCents > cap) {
    const left = cap > used ? cap - used : 0n;
    throw new ShieldRefusal(
      'BAD_REQUEST',
      SCAM_MESSAGES.newCustomerCap(formatCentsAsCurrency(left)),
      'new_customer_cap',
      {
        capCents: cap.toString(),
        usedCents: used.toString(),
        valueCents: request.valueCents.toString(),
        placeCap: placeCap !== null && placeCap < globalCap,
      },
    );
  }

  const hours = request.settings.scamCoolingHours;
  const known =
    hours <= 0 ||
    (await isKnownDestination(tx, {
      userId: request.userId,
      walletAddress: request.walletAddress,
      payoutAddressId: request.payoutAddressId,
    }));
  return {
    newCustomer,
    scamCheck,
    coolingUntil: known ? null : new Date(request.now.getTime() + hours * HOUR_MS),
  };
}

/** Keeps, with the saved buy, what the shield decided about it (its audit trail, in the order's transaction). */
export async function recordBuyShield(
  tx: Transaction,
  request: { userId: string; orderId: string; route: string; shield: BuyShield },
): Promise<void> {
  const { shield } = request;
  const base = { userId: request.userId, orderId: request.orderId, route: request.route };
  if (shield.scamCheck) {
    await recordShieldDecision(tx, { ...base, decision: 'scam_answer_ok', detail: { ...shield.scamCheck } });
  }
  if (shield.coolingUntil) {
    await recordShieldDecision(tx, {
      ...base,
      decision: 'cooling_off',
      detail: { coolingUntil: shield.coolingUntil.toISOString() },
    });
  }
}
