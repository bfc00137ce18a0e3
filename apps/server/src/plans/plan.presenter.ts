import { PLAN_MESSAGES, type AdminPlan, type Plan } from '@offzero/shared/api/plans';
import { centsToUsdNumber } from '@offzero/shared/money/money';
import type { PlanRow, PlanRunRow } from '../db/schema';

/** A plan as the customer reads it, with its latest runs (newest first). */
export function toPlanResponse(plan: PlanRow, runs: readonly PlanRunRow[]): Plan {
  return {
    id: plan.id,
    amountUsd: centsToUsdNumber(plan.amountCents),
    frequency: plan.frequency,
    nextRunOn: plan.nextRunOn,
    status: plan.status,
    statusNote: plan.status === 'paused' && plan.pausedByReturn ? PLAN_MESSAGES.pausedByReturn : null,
    payoutAddressId: plan.payoutAddressId,
    authorization: { text: plan.authorizationText, acceptedAt: plan.authorizedAt.toISOString() },
    runs: runs.map((run) => ({
      id: run.id,
      runOn: run.runOn,
      orderId: run.orderId,
      status: run.status,
      returnCode: run.returnCode,
      note: run.note,
    })),
  };
}

/** A plan as staff read it: its customer, the bank account's last digits, each debit's hold and return. */
export function toAdminPlanResponse(
  plan: PlanRow,
  email: string | null,
  runs: readonly PlanRunRow[],
): AdminPlan {
  const { runs: _customerRuns, ...view } = toPlanResponse(plan, []);
  const iso = (at: Date | null) => at?.toISOString() ?? null;
  return {
    ...view,
    customerEmail: email,
    bankAccountLast4: plan.bankAccountNumber.slice(-4),
    runs: runs.map((run) => ({
      id: run.id,
      runOn: run.runOn,
      orderId: run.orderId,
      status: run.status,
      returnCode: run.returnCode,
      note: run.note,
      amountUsd: centsToUsdNumber(run.amountCents),
      transferId: run.transferId,
      settledAt: iso(run.settledAt),
      releaseAt: iso(run.releaseAt),
      returnedAt: iso(run.returnedAt),
    })),
  };
}
