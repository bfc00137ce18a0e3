import { PLAN_MESSAGES } from '@offzero/shared/api/plans';
import type { BankTransfer } from '../../bank/bank-provider';
import type { PlanRunRow } from '../../db/schema';
import { openCase } from '../../cases/cases.repository';
import { recordFlagChange } from '../../orders/order-state';
import { writeOutbox } from '../../outbox/outbox.repository';
import { findGlobalSettings } from '../../settings/global-settings.repository';
import { restrictCustomer } from '../../users/customer-restriction.repository';
import { addBusinessDays } from '../plan-schedule';
import {
  findPlanCustomer,
  findRunByTransfer,
  findRunsIn,
  confirmRunPayment,
  flagReversedOrder,
  setPlanStatus,
  updateRun,
} from '../plans.repository';
import type { PlanDeps } from './plan-deps';
import { cancelRunOrder, executeRun } from './run-plan';

/** What a bank event about a transfer did to the recurring buys. */
export type TransferUpdateOutcome = 'unknown' | 'unchanged' | 'settled' | 'returned' | 'reversed';

/**
 * Applies what the bank says of a run's ACH debit (docs/design.md, "Recurring buys"), from its
 * `transfer_updated` webhook or the run job reading it back: settled → the hold starts; returned (or
 * rejected) before the payout → the run's buy is cancelled and the plan paused with an e-mail; returned
 * after the payout (R10, unauthorized) → the buy is flagged `payment_reversed`, the customer restricted
 * and a case opened. Every change is conditional on the run's state, so a replayed event applies once;
 * a transfer no run knows is `unknown` (the caller logs and counts it) and changes nothing.
 */
export async function applyTransferUpdate(
  deps: PlanDeps,
  transfer: BankTransfer,
): Promise<TransferUpdateOutcome> {
  const run = await findRunByTransfer(deps.db, transfer.id);
  if (!run) return 'unknown';
  if (transfer.status === 'settled') return settleRun(deps, run, transfer);
  if (transfer.status === 'returned' || transfer.status === 'rejected') {
    const code = transfer.returnCode ?? transfer.status;
    if (run.status === 'debiting' || run.status === 'holding') return returnRun(deps, run, code);
    if (run.status === 'paid') return reverseRun(deps, run, code);
  }
  return 'unchanged';
}

async function settleRun(
  deps: PlanDeps,
  run: PlanRunRow,
  transfer: BankTransfer,
): Promise<TransferUpdateOutcome> {
  if (run.status !== 'debiting') return 'unchanged';
  const settings = await findGlobalSettings(deps.db);
  const settledAt = transfer.settledAt ?? deps.now();
  const updated = await updateRun(deps.db, run.id, ['debiting'], {
    status: 'holding',
    settledAt,
    releaseAt: addBusinessDays(settledAt, settings.recurringHoldDays),
  });
  if (!updated) return 'unchanged';
  // With no hold (the demo's 0 days) the bitcoin is released at once.
  await releaseHeldRuns(deps, [updated], transfer);
  return 'settled';
}

async function returnRun(deps: PlanDeps, run: PlanRunRow, code: string): Promise<TransferUpdateOutcome> {
  const customer = await findPlanCustomer(deps.db, run.userId);
  const returned = await deps.db.transaction(async (tx) => {
    const updated = await updateRun(tx, run.id, ['debiting', 'holding'], {
      status: 'returned',
      returnCode: code,
      returnedAt: deps.now(),
    });
    if (!updated) return null;
    await setPlanStatus(tx, run.planId, { to: 'paused', from: ['active'], pausedByReturn: true });
    if (customer)
      await writeOutbox(tx, [
        {
          eventKey: `plan-run:${run.id}:returned`,
          channel: 'email',
          recipient: customer.email,
          userId: customer.id,
          payload: {
            subject: 'Your recurring buy is paused',
            text:
              `${PLAN_MESSAGES.pausedByReturn} (${code}), so the buy of ${run.runOn} was cancelled and no ` +
              'bitcoin was sent. Check your bank account, then resume the plan in Settings.',
          },
        },
      ]);
    return updated;
  });
  if (!returned) return 'unchanged';
  await cancelRunOrder(deps, run.orderId, `Recurring buy cancelled: the bank returned the debit (${code}).`);
  await deps.notify({ userId: run.userId });
  return 'returned';
}

async function reverseRun(deps: PlanDeps, run: PlanRunRow, code: string): Promise<TransferUpdateOutcome> {
  const now = deps.now();
  const reversed = await deps.db.transaction(async (tx) => {
    const updated = await updateRun(tx, run.id, ['paid'], {
      status: 'reversed',
      returnCode: code,
      returnedAt: now,
    });
    if (!updated) return null;
    if (run.orderId) {
      const flagged = await flagReversedOrder(tx, run.orderId, `bank returned the recurring debit (${code})`);
      if (flagged) await recordFlagChange(tx, { ...flagged, actor: 'system:recurring' });
    }
    await restrictCustomer(tx, run.userId, `payment reversed: recurring debit returned (${code})`);
    await setPlanStatus(tx, run.planId, { to: 'paused', from: ['active'], pausedByReturn: true });
    return updated;
  });
  if (!reversed) return 'unchanged';
  await openCase(deps.db, {
    userId: run.userId,
    rule: 'payment_reversed',
    triggerKey: `plan-run:${run.id}`,
    evidence: { planRunId: run.id, orderId: run.orderId, transferId: run.transferId, returnCode: code },
    now,
  });
  return 'reversed';
}

/** Releases held runs whose hold is over and whose debit was not returned meanwhile. */
async function releaseHeldRuns(
  deps: PlanDeps,
  runs: readonly PlanRunRow[],
  known?: BankTransfer,
): Promise<number> {
  let released = 0;
  for (const run of runs) {
    if (!run.releaseAt || run.releaseAt.getTime() > deps.now().getTime() || !run.transferId) continue;
    const transfer = known?.id === run.transferId ? known : await deps.bank.getTransfer(run.transferId);
    if (transfer.status !== 'settled') {
      await applyTransferUpdate(deps, transfer);
      continue;
    }
    const paid = await deps.db.transaction(async (tx) => {
      const updated = await updateRun(tx, run.id, ['holding'], { status: 'paid', paidAt: deps.now() });
      if (!updated || !run.orderId) return updated;
      await confirmRunPayment(tx, run.orderId, {
        traceNumber: transfer.traceNumber,
        reason: 'recurring buy: bank debit settled and its hold passed',
        now: deps.now(),
      });
      return updated;
    });
    if (paid) released += 1;
  }
  return released;
}

/** How long a claimed run may sit before the run job takes it as left by a worker that died. */
const CLAIM_LEASE_MS = 60_000;

/**
 * The run job's second half: finishes claimed runs a dead worker left, reads back debits still on their
 * way (a lost webhook changes nothing), and releases runs whose hold is over.
 */
export async function progressRuns(
  deps: PlanDeps,
): Promise<{ resumed: number; read: number; released: number }> {
  const now = deps.now();
  const stale = await findRunsIn(deps.db, ['claimed'], new Date(now.getTime() - CLAIM_LEASE_MS));
  // One run the bank cannot serve now must not hold up the others: it is tried again next time.
  const each = async (run: PlanRunRow, work: () => Promise<unknown>) =>
    work().catch((error: unknown) =>
      deps.log.warn({ err: error, planRunId: run.id }, 'plan run step failed'),
    );
  for (const run of stale) await each(run, () => executeRun(deps, run));
  const debiting = await findRunsIn(deps.db, ['debiting'], now);
  for (const run of debiting) {
    const transferId = run.transferId;
    if (transferId)
      await each(run, async () => applyTransferUpdate(deps, await deps.bank.getTransfer(transferId)));
  }
  const released = await releaseHeldRuns(deps, await findRunsIn(deps.db, ['holding'], now));
  return { resumed: stale.length, read: debiting.length, released };
}
