import { Link } from 'react-router';
import type { AdminPlan } from '@offzero/shared/api/plans';
import { errorMessage } from '../../../lib/api-client';
import { PageLoadError } from '../../../components/ui/page';
import { useAdminPlans } from '../api/list-plans';
import { adminPaths } from '../admin-paths';
import { AdminPageHeader, EmptyState, TableSkeleton } from '../components/blocks';
import { formatDateTime } from '../format';

const FREQUENCY: Record<AdminPlan['frequency'], string> = {
  weekly: 'weekly',
  biweekly: 'every two weeks',
  monthly: 'monthly',
};

/** Recurring buys: each plan, and under it each run's debit, hold (until when) and return. */
export default function AdminPlansPage() {
  const plans = useAdminPlans();
  return (
    <div className="space-y-5">
      <title>Recurring buys — OffZero back office</title>
      <AdminPageHeader
        title="Recurring buys"
        description="Plans, their runs, the ACH debits on hold and the debits the banks returned."
      />
      {plans.isError ? (
        <PageLoadError message={errorMessage(plans.error)} onRetry={() => void plans.refetch()} />
      ) : plans.isPending ? (
        <TableSkeleton label="Loading plans" />
      ) : plans.data.plans.length === 0 ? (
        <EmptyState title="No recurring buys yet." />
      ) : (
        <ul className="space-y-4" data-testid="admin-plans">
          {plans.data.plans.map((plan) => (
            <PlanBlock key={plan.id} plan={plan} />
          ))}
        </ul>
      )}
    </div>
  );
}

function PlanBlock({ plan }: { plan: AdminPlan }) {
  return (
    <li className="overflow-hidden rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200/80 sm:p-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold text-ink-900">
          ${plan.amountUsd.toFixed(2)} {FREQUENCY[plan.frequency]} ·{' '}
          <span className="break-all font-normal text-slate-600">{plan.customerEmail ?? '—'}</span>
        </p>
        <p className="text-xs text-slate-600">
          {plan.statusNote ?? plan.status} · next {plan.nextRunOn} · bank ••{plan.bankAccountLast4}
        </p>
      </div>
      {plan.runs.length > 0 && (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-xs">
            <thead className="text-slate-500">
              <tr>
                <th className="py-1 pr-3 font-medium">Day</th>
                <th className="py-1 pr-3 font-medium">Run</th>
                <th className="py-1 pr-3 font-medium">Hold until</th>
                <th className="py-1 pr-3 font-medium">Return</th>
                <th className="py-1 font-medium">Order</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 text-slate-700">
              {plan.runs.map((run) => (
                <tr key={run.id}>
                  <td className="py-1.5 pr-3 whitespace-nowrap">{run.runOn}</td>
                  <td className="py-1.5 pr-3">{run.note ? `${run.status}: ${run.note}` : run.status}</td>
                  <td className="py-1.5 pr-3 whitespace-nowrap">
                    {run.releaseAt ? formatDateTime(run.releaseAt) : '—'}
                  </td>
                  <td className="py-1.5 pr-3">{run.returnCode ?? '—'}</td>
                  <td className="py-1.5">
                    {run.orderId ? (
                      <Link to={adminPaths.order(run.orderId)} className="text-brand-700 hover:underline">
                        #{run.orderId.slice(0, 8)}
                      </Link>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </li>
  );
}
