import { centsToUsdNumber, satsToBtcNumber } from '@offzero/shared/money/money';
import { TRAVEL_RULE_THRESHOLD_CENTS } from '@offzero/shared/api/limits';
import type { OrderOrigin } from '@offzero/shared/api/orders';
import type { ScamCheck } from '@offzero/shared/places/scam-shield';
import type { PlanRunRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { moveOrder } from '../../orders/order-state';
import { bankDay, daysBetween, nextRunAfter } from '../plan-schedule';
import {
  findPlan,
  findPlanCustomer,
  findQuoteOrderId,
  findRunOrder,
  findRunQuote,
  insertRun,
  lockPlan,
  recordRunStep,
  setNextRunOn,
  updateRun,
} from '../plans.repository';
import type { PlanDeps } from './plan-deps';

/** What a skipped run says to the customer. */
export const SKIPPED_NOTE = 'Missed by more than a day, so this buy was skipped.';

/**
 * Claims a plan's due run under the plan's row lock (docs/design.md, "Recurring buys"): runs missed by
 * more than a day are recorded as skipped, then the run of the plan's next day is made (unique per plan
 * and day) and `nextRunOn` moves on. Two workers at once make one run; a clock that jumps back finds
 * the next day in the future, one that jumps ahead skips what it jumped over. `force` (the demo's "run
 * now") makes the next scheduled run whatever the day.
 */
export async function claimDueRun(
  deps: Pick<PlanDeps, 'db' | 'now'>,
  planId: string,
  options: { force?: boolean } = {},
): Promise<PlanRunRow | null> {
  return deps.db.transaction(async (tx) => {
    const plan = await lockPlan(tx, planId);
    if (plan?.status !== 'active') return null;
    const today = bankDay(deps.now());
    let runOn = plan.nextRunOn;
    if (!options.force) {
      while (daysBetween(runOn, today) > 1) {
        await insertRun(tx, { ...runOf(plan), runOn, status: 'skipped', note: SKIPPED_NOTE });
        runOn = nextRunAfter(runOn, plan.frequency, plan.anchorOn);
      }
      if (daysBetween(runOn, today) < 0) {
        if (runOn !== plan.nextRunOn) await setNextRunOn(tx, plan.id, runOn);
        return null;
      }
    }
    const run = await insertRun(tx, { ...runOf(plan), runOn, status: 'claimed' });
    await setNextRunOn(tx, plan.id, nextRunAfter(runOn, plan.frequency, plan.anchorOn));
    return run;
  });
}

const runOf = (plan: { id: string; userId: string; amountCents: bigint }) => ({
  planId: plan.id,
  userId: plan.userId,
  amountCents: plan.amountCents,
});

/**
 * Carries a claimed run through: its buy, priced now through the customer's own quote and save (every
 * buy check and limit applies), on the ACH rail; then the ACH debit (SEC `WEB`, the run id as the
 * idempotency key). Each step is recorded before the next, and each is safe to repeat, so a worker that
 * dies half-way leaves a run the run job finishes: the quote is kept first, its order found by it, and
 * the bank answers the same transfer to the same key. A buy check that refuses ends the run `failed`,
 * with nothing debited.
 */
export async function executeRun(deps: PlanDeps, claimed: PlanRunRow): Promise<PlanRunRow> {
  let run = claimed;
  try {
    const plan = await findPlan(deps.db, run.planId);
    const user = await findPlanCustomer(deps.db, run.userId);
    if (!plan || !user) throw new Error(`plan run ${run.id} lost its plan or customer`);
    if (!run.quoteId) {
      const { quote } = await deps.orders.lockQuote(user, {
        type: 'buy',
        value: centsToUsdNumber(run.amountCents),
      });
      run = (await recordRunStep(deps.db, run.id, { quoteId: quote.id })) ?? run;
    }
    const quoteId = run.quoteId!;
    let orderId = run.orderId ?? (await findQuoteOrderId(deps.db, quoteId));
    if (!orderId) {
      const order = await saveRunOrder(deps, user, {
        ...plan,
        quoteId,
        amountCents: run.amountCents,
        origin: 'recurring',
      });
      orderId = order.id;
    }
    if (!run.orderId) run = (await recordRunStep(deps.db, run.id, { orderId })) ?? run;
    await markDebitSubmitted(deps, orderId, run.id);
    const transfer = await deps.bank.createTransfer({
      kind: 'ach_debit',
      amountCents: run.amountCents,
      idempotencyKey: run.id,
      secCode: 'WEB',
      counterparty: {
        accountNumber: plan.bankAccountNumber,
        routingNumber: plan.bankRoutingNumber,
        name: plan.bankAccountName,
      },
      description: 'OffZero BTC',
    });
    return (
      (await updateRun(deps.db, run.id, ['claimed'], { status: 'debiting', transferId: transfer.id })) ?? run
    );
  } catch (error) {
    // A bank that did not answer, or prices not available now: the run stays claimed and the run
    // job tries it again (every step is safe to repeat).
    if (!(error instanceof AppError) || error.code === 'UNAVAILABLE') throw error;
    // A buy check refused the run (limits, KYC, a restriction, the address): nothing was debited.
    await cancelRunOrder(deps, run.orderId, `Recurring buy not made: ${error.message}`);
    return (await updateRun(deps.db, run.id, ['claimed'], { status: 'failed', note: error.message })) ?? run;
  }
}

/**
 * Saves the buy of a plan's run, or of a deposit (docs/design.md, "Recurring buys"), against its locked
 * quote, through the customer's own order save: every buy check applies, and the scam answer kept
 * with the plan or setting is passed as the checkout would pass it.
 */
export async function saveRunOrder(
  deps: Pick<PlanDeps, 'db' | 'orders'>,
  user: NonNullable<Awaited<ReturnType<typeof findPlanCustomer>>>,
  run: {
    payoutAddressId: string;
    quoteId: string;
    amountCents: bigint;
    scamCheck: ScamCheck | null;
    origin: OrderOrigin;
  },
) {
  const { payoutAddressId, quoteId, amountCents } = run;
  const quote = await findRunQuote(deps.db, quoteId);
  if (!quote) throw new Error(`quote ${quoteId} of a plan run is gone`);
  return deps.orders.save(
    user,
    {
      userId: user.id,
      pair: 'BTC-USD',
      type: 'buy',
      amount: satsToBtcNumber(quote.amountSats),
      value: centsToUsdNumber(quote.valueCents),
      price: centsToUsdNumber(quote.priceCents),
      platformFee: centsToUsdNumber(quote.platformFeeCents),
      networkFee: centsToUsdNumber(quote.networkFeeCents),
      quoteId,
      payoutAddressId,
      // The plan pays one of the customer's own address-book entries (the Travel Rule's answer).
      ...(amountCents >= TRAVEL_RULE_THRESHOLD_CENTS ? { walletOwnership: { own: true as const } } : {}),
      ...(run.scamCheck ? { scamCheck: run.scamCheck } : {}),
    },
    run.origin,
  );
}

/** The run's buy is paid by the ACH debit now on its way: pending → processing, once. */
async function markDebitSubmitted(deps: PlanDeps, orderId: string, runId: string): Promise<void> {
  const moved = await deps.db.transaction(async (tx) => {
    const order = await findRunOrder(tx, orderId);
    if (order?.status !== 'pending') return null;
    return moveOrder(tx, {
      orderId,
      from: ['pending'],
      to: 'processing',
      actor: 'system:recurring',
      reason: 'recurring buy: bank debit requested',
      patch: { paymentMethod: 'ach', paymentSubmittedAt: deps.now() },
      details: { planRunId: runId },
    });
  });
  if (moved) await deps.notify(moved);
}

/** Cancels a run's buy that will not be paid (a refused check, a returned debit), if it is still open. */
export async function cancelRunOrder(deps: PlanDeps, orderId: string | null, reason: string): Promise<void> {
  if (!orderId) return;
  const cancelled = await deps.db.transaction(async (tx) => {
    const order = await findRunOrder(tx, orderId);
    if (!order || (order.status !== 'pending' && order.status !== 'processing')) return null;
    return moveOrder(tx, {
      orderId,
      from: ['pending', 'processing'],
      to: 'cancelled',
      actor: 'system:recurring',
      reason,
      patch: { cancelReason: reason },
    });
  });
  if (cancelled) await deps.notify(cancelled);
}
