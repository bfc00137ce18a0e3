import { Link } from 'react-router';
import type { CustomerDetail } from '@offzero/shared/api/admin';
import { adminPaths } from '../admin-paths';
import { EmptyState, Panel } from '../components/blocks';
import { DataTable, type Column } from '../components/data-table';
import { formatDateTime, shortOrderId, usd } from '../format';

const REWARD_COLUMNS: Column<CustomerDetail['referralRewards'][number]>[] = [
  {
    key: 'order',
    header: 'Order',
    primary: true,
    cell: (r) => (
      <Link
        to={adminPaths.order(r.orderId)}
        className="font-mono text-xs font-semibold text-brand-700 hover:underline"
      >
        #{shortOrderId(r.orderId)}
      </Link>
    ),
  },
  {
    key: 'reward',
    header: 'Reward',
    primary: true,
    className: 'text-right',
    cell: (r) => <span className="font-semibold text-emerald-700 tabular-nums">{usd(r.reward)}</span>,
  },
  {
    key: 'trader',
    header: 'Referred customer',
    cell: (r) => (
      <Link
        to={adminPaths.customer(r.tradingUserId)}
        className="font-mono text-xs text-brand-700 hover:underline"
      >
        {r.tradingUserId.slice(0, 8)}
      </Link>
    ),
  },
  {
    key: 'fee',
    header: 'From fee',
    className: 'text-right',
    cell: (r) => <span className="tabular-nums">{usd(r.platformFee)}</span>,
  },
  {
    key: 'date',
    header: 'Date',
    cell: (r) => <span className="text-xs text-slate-600">{formatDateTime(r.createdAt)}</span>,
  },
];

/** The referral rewards the customer earned from the fees of the customers they referred. */
export function CustomerRewardsPanel({
  referralRewards,
  referralTotal,
}: {
  referralRewards: CustomerDetail['referralRewards'];
  referralTotal: CustomerDetail['referralTotal'];
}) {
  return (
    <Panel
      title={
        <span>
          Referral rewards earned{' '}
          <span className="font-normal text-slate-500">· total {usd(referralTotal)}</span>
        </span>
      }
      padded={false}
      testId="customer-rewards"
    >
      {referralRewards.length === 0 ? (
        <EmptyState title="No referral rewards yet." />
      ) : (
        <DataTable
          columns={REWARD_COLUMNS}
          rows={referralRewards}
          rowKey={(r) => r._id}
          label="Referral rewards"
        />
      )}
    </Panel>
  );
}
