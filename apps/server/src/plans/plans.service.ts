import { PLAN_MESSAGES, type AdminPlan, type CreatePlanRequest, type Plan } from '@offzero/shared/api/plans';
import type { BankWebhooks } from '../bank/bank-webhooks';
import type { BankTransfer } from '../bank/bank-provider';
import type { UserRow } from '../db/schema';
import { AppError } from '../http/errors';
import { bankDay, daysBetween, nextRunAfter } from './plan-schedule';
import { toAdminPlanResponse, toPlanResponse } from './plan.presenter';
import {
  findAllPlans,
  findDuePlanIds,
  findOwnPlan,
  findPlansOf,
  findRunsOf,
  setPlanStatus,
} from './plans.repository';
import { createDepositBuysService } from './deposit-buys/deposit-buys.service';
import { createPlan } from './use-cases/create-plan';
import type { PlanDeps } from './use-cases/plan-deps';
import { claimDueRun, executeRun } from './use-cases/run-plan';
import { applyTransferUpdate, progressRuns, type TransferUpdateOutcome } from './use-cases/settle-runs';

/** The run job's name: due runs made and carried through, once per period across all processes. */
export const RUN_PLANS_JOB = 'run-plans';
export const RUN_PLANS_EVERY_MS = 5_000;

/**
 * Recurring buys (docs/design.md, "Recurring buys"): the customer's plans and the run job. Every plan
 * id a customer sends must be one of their own (another customer's answers 404). Each route that
 * changes a plan goes through `change`, the one place a confirmation step can guard them all.
 */
export function createPlansService(deps: PlanDeps) {
  let unknownTransfers = 0;
  const depositBuys = createDepositBuysService(deps);

  async function present(userId: string, planId: string): Promise<Plan> {
    const plan = await findOwnPlan(deps.db, userId, planId);
    if (!plan) throw new AppError('NOT_FOUND', PLAN_MESSAGES.planNotFound);
    return toPlanResponse(plan, await findRunsOf(deps.db, [plan.id]));
  }

  async function ownPlan(user: UserRow, planId: string) {
    const plan = await findOwnPlan(deps.db, user.id, planId);
    if (!plan) throw new AppError('NOT_FOUND', PLAN_MESSAGES.planNotFound);
    return plan;
  }

  async function change(user: UserRow, planId: string, action: 'pause' | 'resume' | 'cancel'): Promise<Plan> {
    const plan = await ownPlan(user, planId);
    if (plan.status === 'cancelled') throw new AppError('CONFLICT', 'This plan is cancelled.');
    if (action === 'pause') {
      await setPlanStatus(deps.db, plan.id, {
        to: 'paused',
        from: ['active', 'paused'],
        pausedByReturn: false,
      });
    } else if (action === 'cancel') {
      await setPlanStatus(deps.db, plan.id, {
        to: 'cancelled',
        from: ['active', 'paused'],
        pausedByReturn: false,
      });
    } else {
      // A resumed plan's next run is its next scheduled day from today: missed days are not made up.
      const today = bankDay(deps.now());
      let next = plan.nextRunOn;
      while (daysBetween(next, today) > 0) next = nextRunAfter(next, plan.frequency, plan.anchorOn);
      await setPlanStatus(deps.db, plan.id, {
        to: 'active',
        from: ['paused'],
        pausedByReturn: false,
        nextRunOn: next,
      });
    }
    return present(user.id, plan.id);
  }

  return {
    async create(user: UserRow, body: CreatePlanRequest, ip: string): Promise<Plan> {
      const plan = await createPlan(deps, user, body, ip);
      return toPlanResponse(plan, []);
    },
    async list(user: UserRow): Promise<Plan[]> {
      const rows = await findPlansOf(deps.db, user.id);
      const runs = await findRunsOf(
        deps.db,
        rows.map((row) => row.id),
      );
      return rows.map((row) =>
        toPlanResponse(
          row,
          runs.filter((run) => run.planId === row.id),
        ),
      );
    },
    change,
    /** The back office's list: the newest plans, their runs, holds and returns. */
    async listAll(): Promise<AdminPlan[]> {
      const rows = await findAllPlans(deps.db);
      const runs = await findRunsOf(
        deps.db,
        rows.map((row) => row.plan.id),
      );
      return rows.map(({ plan, email }) =>
        toAdminPlanResponse(
          plan,
          email,
          runs.filter((run) => run.planId === plan.id),
        ),
      );
    },
    /** The demo's "run now": the plan's next scheduled run, made and debited at once. */
    async runNow(planId: string): Promise<Plan> {
      const run = await claimDueRun(deps, planId, { force: true });
      if (!run) throw new AppError('CONFLICT', 'This plan is not active.');
      const done = await executeRun(deps, run);
      return present(done.userId, done.planId);
    },
    /** The run job: due runs made and debited, runs and deposit buys on their way carried on. */
    async runDue(): Promise<{ made: number }> {
      let made = 0;
      for (const planId of await findDuePlanIds(deps.db, bankDay(deps.now()))) {
        const run = await claimDueRun(deps, planId);
        if (!run) continue;
        made += 1;
        // A run the bank or the prices could not serve now stays claimed; the job finishes it later.
        await executeRun(deps, run).catch((error: unknown) =>
          deps.log.warn({ err: error, planRunId: run.id }, 'plan run waits for a retry'),
        );
      }
      await progressRuns(deps);
      await depositBuys.carryOn();
      return { made };
    },
    /** What the bank says of a transfer (its webhook); a transfer no run knows is logged and counted. */
    async applyTransferUpdate(transfer: BankTransfer): Promise<TransferUpdateOutcome> {
      const outcome = await applyTransferUpdate(deps, transfer);
      if (outcome === 'unknown') {
        unknownTransfers += 1;
        deps.log.info(
          { transferId: transfer.id, status: transfer.status },
          'bank transfer update for no plan run',
        );
      }
      return outcome;
    },
    depositBuys, // "Buy bitcoin with every deposit": the setting and the deposits made into buys
    /** How many transfer updates named no run since this process started. */
    unknownTransferUpdates: () => unknownTransfers,
  };
}

export type PlansService = ReturnType<typeof createPlansService>;

/**
 * Plans hear the bank: a run's debit settled or returned (the run job reads debits back too, so a lost
 * webhook changes nothing), and, after inbound matching, a credit that paid no waiting buy, which may
 * become a deposit buy. Subscribe after the bank funding service (docs/design.md, "Recurring buys").
 */
export function subscribePlansToBank(
  plans: PlansService,
  webhooks: Pick<BankWebhooks, 'onInboundCredit' | 'onTransferUpdated'>,
): void {
  webhooks.onTransferUpdated(async (_tx, transfer) => async () => {
    await plans.applyTransferUpdate(transfer);
  });
  plans.depositBuys.subscribe(webhooks);
}
