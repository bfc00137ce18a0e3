import { DEPOSIT_BUY_MESSAGES } from '@offzero/shared/api/deposit-buys';
import { centsToUsdNumber } from '@offzero/shared/money/money';
import type { Transaction } from '../../db/database';
import type { DepositBuyRow } from '../../db/schema';
import { findFundingAccount, findVerifiedName } from '../../bank/bank-credits.repository';
import { fundingDetails } from '../../bank/inbound-matching';
import type { InboundCredit } from '../../bank/bank-provider';
import { namesMatch } from '../../cases/name-similarity';
import { AppError } from '../../http/errors';
import { moveOrder } from '../../orders/order-state';
import { checkPlaceForMoneyRoute, recordingShieldRefusals } from '../../places/place-check';
import { findGlobalSettings } from '../../settings/global-settings.repository';
import { addBusinessDays } from '../plan-schedule';
import { confirmRunPayment, findPlanCustomer, findQuoteOrderId, findRunOrder } from '../plans.repository';
import type { PlanDeps } from '../use-cases/plan-deps';
import { cancelRunOrder, saveRunOrder } from '../use-cases/run-plan';
import {
  findCredit,
  findDepositBuy,
  findDepositBuySetting,
  findStoredCredit,
  insertDepositBuy,
  lockCredit,
  markCreditBought,
  recordDepositEvent,
  setDepositBuyQuote,
  setUnmatchedReason,
  updateDepositBuy,
} from './deposit-buys.repository';

/**
 * "Buy bitcoin with every deposit" (docs/design.md, "Recurring buys"). Inside the inbox transaction
 * that stored an inbound credit, after inbound matching: an ACH credit to a customer's own account
 * number that paid no waiting buy, received while the customer had the setting on, is claimed for a
 * buy (one per credit, so the same trace twice buys once). Answers the claim, to be made after commit.
 */
export async function claimDepositBuy(tx: Transaction, credit: InboundCredit): Promise<DepositBuyRow | null> {
  const stored = await findStoredCredit(tx, credit);
  if (stored?.status !== 'unmatched' || !stored.userId || stored.rail !== 'ach') return null;
  const setting = await findDepositBuySetting(tx, stored.userId);
  // A credit that arrived before the customer turned it on stays as it was.
  if (!setting?.enabled || stored.receivedAt < setting.updatedAt) return null;
  const claimed = await insertDepositBuy(tx, {
    creditId: stored.id,
    userId: stored.userId,
    amountCents: stored.amountCents,
  });
  if (claimed) await setUnmatchedReason(tx, stored.id, DEPOSIT_BUY_MESSAGES.becomingBuy);
  return claimed;
}

/**
 * Makes a claimed deposit buy, each step recorded and safe to repeat (a worker that stops half-way
 * leaves it to the run job): the sender's name against the customer's verified name, the place's
 * `inbound-credit-buy` route, then a quote at the price now and the customer's own order save (every
 * buy check, limit and the scam shield, with the answer kept with the setting), to the setting's
 * address-book entry. The credit then pays the buy: the order is processing with the trace as its bank
 * reference and the credit is matched to it; its payment is confirmed, and it joins the payout batch,
 * once `recurring_hold_days` business days have passed. A check that refuses leaves the credit in
 * "Unmatched bank credits" with the refusal as its reason; a bank or price outage leaves it claimed.
 */
export async function makeDepositBuy(deps: PlanDeps, claimed: DepositBuyRow): Promise<DepositBuyRow> {
  let buy = claimed;
  try {
    const credit = await findCredit(deps.db, buy.creditId);
    const user = await findPlanCustomer(deps.db, buy.userId);
    if (!credit || !user) throw new Error(`deposit buy ${buy.id} lost its credit or customer`);
    const setting = await findDepositBuySetting(deps.db, user.id);
    if (!setting?.enabled || !setting.payoutAddressId)
      throw new AppError('BAD_REQUEST', 'The customer turned deposit buys off.');
    const kycName = await findVerifiedName(deps.db, user.id);
    if (!kycName || !namesMatch(kycName, credit.originatorName))
      throw new AppError(
        'BAD_REQUEST',
        `The sender "${credit.originatorName}" is not the customer's verified name.`,
      );
    await recordingShieldRefusals(deps.db, user.id, 'inbound-credit-buy', () =>
      checkPlaceForMoneyRoute(deps.db, {
        userId: user.id,
        side: 'buy',
        route: 'inbound-credit-buy',
        valueCents: buy.amountCents,
      }),
    );
    if (!buy.quoteId) {
      const { quote } = await deps.orders.lockQuote(user, {
        type: 'buy',
        value: centsToUsdNumber(buy.amountCents),
      });
      // Another worker's quote, if it kept one first, is the buy's quote.
      buy =
        (await setDepositBuyQuote(deps.db, buy.id, quote.id)) ??
        (await findDepositBuy(deps.db, buy.id)) ??
        buy;
    }
    if (buy.status !== 'claimed' || !buy.quoteId) throw new Error(`deposit buy ${buy.id} moved on meanwhile`);
    const quoteId = buy.quoteId;
    const orderId =
      buy.orderId ??
      (await findQuoteOrderId(deps.db, quoteId)) ??
      (
        await saveRunOrder(deps, user, {
          payoutAddressId: setting.payoutAddressId,
          quoteId,
          amountCents: buy.amountCents,
          scamCheck: setting.scamCheck,
          origin: 'deposit',
        })
      ).id;
    if (!buy.orderId) buy = (await updateDepositBuy(deps.db, buy.id, ['claimed'], { orderId })) ?? buy;
    return await payWithCredit(deps, buy, orderId);
  } catch (error) {
    if (!(error instanceof AppError) || error.code === 'UNAVAILABLE') throw error;
    // Its quote already made an order (another worker saved it meanwhile): carried on later, not refused.
    if (error.code === 'CONFLICT' && buy.quoteId && (await findQuoteOrderId(deps.db, buy.quoteId)))
      throw error;
    return refuseDepositBuy(deps, buy, error.message);
  }
}

/** A refused check: no buy (its order, if saved, cancelled); the credit waits for an operator. */
async function refuseDepositBuy(deps: PlanDeps, buy: DepositBuyRow, reason: string): Promise<DepositBuyRow> {
  await cancelRunOrder(deps, buy.orderId, `Deposit buy not made: ${reason}`);
  const refused = await updateDepositBuy(deps.db, buy.id, ['claimed'], { status: 'refused', note: reason });
  await setUnmatchedReason(deps.db, buy.creditId, `Deposit buy not made: ${reason}`);
  return refused ?? buy;
}

/**
 * The credit pays the deposit's buy, in one transaction under the credit's lock: pending → processing
 * with the customer's own account number as the receiving details and the trace as the bank reference,
 * the deposit's step (with its originator) in the timeline, the credit matched, the hold started.
 */
async function payWithCredit(deps: PlanDeps, buy: DepositBuyRow, orderId: string): Promise<DepositBuyRow> {
  const settings = await findGlobalSettings(deps.db);
  const result = await deps.db.transaction(async (tx) => {
    const credit = await lockCredit(tx, buy.creditId);
    const order = await findRunOrder(tx, orderId);
    if (!credit || !order) throw new Error(`deposit buy ${buy.id} lost its credit or order`);
    // An operator matched or returned the credit meanwhile: this buy is not paid by it.
    if (credit.status !== 'unmatched')
      throw new AppError('CONFLICT', 'An operator resolved this credit first.');
    const account = await findFundingAccount(tx, { userId: buy.userId });
    if (!account) throw new Error(`deposit buy ${buy.id}: the customer has no account number`);
    const moved = await moveOrder(tx, {
      orderId,
      from: ['pending'],
      to: 'processing',
      actor: 'bank',
      reason: `deposit ${credit.traceNumber} received`,
      patch: {
        paymentMethod: 'ach',
        receivingDetails: fundingDetails(account),
        paymentSubmittedAt: credit.receivedAt,
        bankTxn: credit.traceNumber,
      },
      details: { depositBuyId: buy.id },
    });
    await recordDepositEvent(tx, moved, credit);
    await markCreditBought(tx, credit.id, orderId, deps.now());
    const releaseAt = addBusinessDays(credit.receivedAt, settings.recurringHoldDays);
    const held = await updateDepositBuy(tx, buy.id, ['claimed'], { status: 'holding', releaseAt });
    // No hold left (none set, or the credit waited for a retry that long): released at once.
    if (!held || releaseAt > deps.now()) return { updated: held, order: moved };
    return (await releaseInTransaction(deps, tx, held)) ?? { updated: held, order: moved };
  });
  await deps.notify(result.order);
  return result.updated ?? buy;
}

async function releaseInTransaction(deps: PlanDeps, tx: Transaction, buy: DepositBuyRow) {
  const credit = await findCredit(tx, buy.creditId);
  const updated = await updateDepositBuy(tx, buy.id, ['holding'], { status: 'paid', paidAt: deps.now() });
  if (!updated || !buy.orderId) return null;
  const order = await confirmRunPayment(tx, buy.orderId, {
    traceNumber: credit?.traceNumber ?? null,
    reason: 'deposit buy: hold passed, payment confirmed',
    now: deps.now(),
  });
  return order ? { updated, order } : null;
}

/** The hold is over: the buy's payment is confirmed and it joins the next payout batch. */
export async function releaseDepositBuy(deps: PlanDeps, buy: DepositBuyRow): Promise<DepositBuyRow> {
  const released = await deps.db.transaction((tx) => releaseInTransaction(deps, tx, buy));
  if (released) await deps.notify(released.order);
  return released?.updated ?? buy;
}
