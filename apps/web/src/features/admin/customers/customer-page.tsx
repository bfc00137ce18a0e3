import { useState } from 'react';
import { useParams } from 'react-router';
import type { CustomerDetail } from '@offzero/shared/api/admin';
import { errorMessage } from '../../../lib/api-client';
import { displayName, useCurrentUser } from '../../../lib/current-user';
import { Button, ButtonLink } from '../../../components/ui/button';
import { ArrowLeftIcon } from '../../../components/ui/icons';
import { PageLoadError, PageSkeleton } from '../../../components/ui/page';
import { useCustomer } from '../api/get-customer';
import { adminPaths } from '../admin-paths';
import { AdminPageHeader, IdWithCopy } from '../components/blocks';
import { Pill } from '../components/badges';
import { formatDate, formatDateTime } from '../format';
import { CustomerAccountPanel } from './customer-account-panel';
import { AccessDialog, TierDialog, type AccessAction } from './customer-dialogs';
import { CustomerIdentityPanel } from './customer-identity-panel';
import { CustomerOrdersPanel } from './customer-orders-panel';
import { CustomerRewardsPanel } from './customer-rewards-panel';
import { CustomerSettingsPanel } from './customer-settings-panel';

/** One customer: account, verification, payout settings, orders and referral rewards. */
export default function CustomerPage() {
  const { userId = '' } = useParams();
  const customer = useCustomer(userId);
  return (
    <div className="space-y-5">
      <title>Customer — OffZero back office</title>
      <ButtonLink to={adminPaths.customers} variant="ghost" size="sm" className="-ml-3">
        <ArrowLeftIcon className="size-4" />
        All customers
      </ButtonLink>
      {customer.isPending ? (
        <PageSkeleton blocks={3} />
      ) : customer.isError ? (
        <PageLoadError message={errorMessage(customer.error)} onRetry={() => void customer.refetch()} />
      ) : (
        <CustomerView detail={customer.data} />
      )}
    </div>
  );
}

function CustomerView({ detail }: { detail: CustomerDetail }) {
  const { user, settings, kyc, orders, referralRewards, referralTotal } = detail;
  const me = useCurrentUser().data;
  const [dialog, setDialog] = useState<AccessAction | null>(null);
  const [tierDialog, setTierDialog] = useState(false);
  const name = displayName(user);
  const isSelf = me?._id === user._id;

  return (
    <>
      <AdminPageHeader
        title={
          <span className="flex flex-wrap items-center gap-2">
            <span className="break-all">{name}</span>
            {user.disabled ? <Pill tone="red">disabled</Pill> : <Pill tone="emerald">active</Pill>}
            {user.restrictedAt && <Pill tone="amber">restricted</Pill>}
            {user.role === 'admin' && <Pill tone="violet">admin</Pill>}
          </span>
        }
        description={
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
            {name !== user.email && <span className="break-all">{user.email} ·</span>}
            Joined {formatDate(user.createdAt)} ·
            <IdWithCopy value={user._id} label="Copy customer id" display={user._id.slice(0, 8)} />
          </span>
        }
        actions={
          !isSelf && (
            <span className="flex flex-wrap gap-2">
              {user.restrictedAt ? (
                <Button variant="outline" size="sm" onClick={() => setDialog('lift-restriction')}>
                  Lift restriction
                </Button>
              ) : (
                <Button variant="outline" size="sm" onClick={() => setDialog('restrict')}>
                  Restrict trading
                </Button>
              )}
              <Button
                variant={user.disabled ? 'primary' : 'outline'}
                size="sm"
                className={user.disabled ? undefined : 'text-red-700'}
                onClick={() => setDialog(user.disabled ? 'enable' : 'disable')}
              >
                {user.disabled ? 'Re-enable account' : 'Disable account'}
              </Button>
            </span>
          )
        }
      />

      {user.disabled && (
        <p role="note" className="rounded-2xl bg-red-50 p-4 text-sm text-red-800 ring-1 ring-red-600/15">
          This account was disabled {formatDateTime(user.disabledAt)}. The customer cannot sign in; their
          sessions have ended.
        </p>
      )}

      {user.restrictedAt && (
        <p
          role="note"
          data-testid="customer-restriction"
          className="rounded-2xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-600/20"
        >
          Trading restricted since {formatDateTime(user.restrictedAt)}
          {user.restrictedReason ? `: ${user.restrictedReason}.` : '.'} The customer can sign in and read
          everything, but cannot place orders until the restriction is lifted.
        </p>
      )}

      <div className="grid grid-cols-1 gap-5 lg:grid-cols-3">
        <CustomerAccountPanel
          user={user}
          name={name}
          isSelf={isSelf}
          onMoveTier={() => setTierDialog(true)}
        />
        <CustomerIdentityPanel user={user} kyc={kyc} />
        <CustomerSettingsPanel settings={settings} />
      </div>

      <CustomerOrdersPanel orders={orders} />

      <CustomerRewardsPanel referralRewards={referralRewards} referralTotal={referralTotal} />

      {dialog && <AccessDialog action={dialog} detail={detail} onClose={() => setDialog(null)} />}
      {tierDialog && <TierDialog detail={detail} onClose={() => setTierDialog(false)} />}
    </>
  );
}
