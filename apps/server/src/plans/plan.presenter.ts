import { PLAN_MESSAGES, type Plan } from '@offzero/shared/api/plans';
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
