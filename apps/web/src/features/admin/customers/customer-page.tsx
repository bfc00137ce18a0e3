import { useState } from 'react';
import { z } from 'zod';
import { Link, useParams } from 'react-router';
import { toast } from '../../../lib/toast';
import type { Order } from '@offzero/shared/api/orders';
import { errorMessage } from '../../../lib/api-client';
import { displayName, useCurrentUser } from '../../../lib/current-user';
import { Button, ButtonLink } from '../../../components/ui/button';
import { ArrowLeftIcon } from '../../../components/ui/icons';
import { PageLoadError, PageSkeleton } from '../../../components/ui/page';
import { useCustomer } from '../api/get-customer';
import { useSetCustomerEnabled } from '../api/set-customer-enabled';
import { useSetCustomerTier } from '../api/set-customer-tier';
import type { CustomerDetail } from '@offzero/shared/api/admin';
import { adminPaths } from '../admin-paths';
import { ActionDialog, reasonSchema, TextAreaField } from '../components/action-dialog';
import { useZodForm } from '../../../lib/forms';
import { AdminPageHeader, Details, EmptyState, IdWithCopy, Panel } from '../components/blocks';
import { DataTable, type Column } from '../components/data-table';
import { FlagPill, KycPill, Pill, StatusPill, TypeLabel } from '../components/badges';
import { btc, formatDate, formatDateTime, methodLabel, shortOrderId, usd } from '../format';

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

const yesNo = (value: boolean | undefined) =>
  value === undefined ? '—' : <Pill tone={value ? 'emerald' : 'slate'}>{value ? 'on' : 'off'}</Pill>;

function CustomerView({ detail }: { detail: CustomerDetail }) {
  const { user, settings, kyc, orders, referralRewards, referralTotal } = detail;
  const me = useCurrentUser().data;
  const [dialog, setDialog] = useState<AccessAction | null>(null);
  const [tierDialog, setTierDialog] = useState(false);
  const name = displayName(user);
  const bank = settings.bankAccount;

  const orderColumns: Column<Order>[] = [
    {
      key: 'order',
      header: 'Order',
      primary: true,
      cell: (o) => (
        <Link
          to={adminPaths.order(o._id)}
          className="font-mono text-xs font-semibold text-brand-700 hover:underline"
        >
          #{shortOrderId(o._id)}
        </Link>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      primary: true,
      cell: (o) => (
        <span className="inline-flex flex-wrap gap-1">
          <StatusPill status={o.status} />
          {o.flag && <FlagPill flag={o.flag} />}
        </span>
      ),
    },
    {
      key: 'created',
      header: 'Created',
      cell: (o) => <span className="text-xs text-slate-600">{formatDateTime(o.createdAt)}</span>,
    },
    { key: 'type', header: 'Type', cell: (o) => <TypeLabel type={o.type} /> },
    { key: 'method', header: 'Method', cell: (o) => methodLabel(o.payment?.method) },
    {
      key: 'amount',
      header: 'Amount',
      className: 'text-right',
      cell: (o) => <span className="whitespace-nowrap tabular-nums">{btc(o.amount)}</span>,
    },
    {
      key: 'value',
      header: 'Value',
      className: 'text-right',
      cell: (o) => <span className="font-semibold tabular-nums">{usd(o.value)}</span>,
    },
  ];

  const rewardColumns: Column<CustomerDetail['referralRewards'][number]>[] = [
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
        <Panel title="Account" testId="customer-account">
          <Details
            rows={[
              ['E-mail', <VerifiedValue key="e" value={user.email} verified={user.email_verified} />],
              [
                'Phone',
                user.phoneNumber ? (
                  <VerifiedValue key="p" value={user.phoneNumber} verified={user.phone_verified} />
                ) : null,
              ],
              ['Name', name !== user.email ? name : <span className="text-slate-500">not given</span>],
              [
                'Limits tier',
                <span key="tier" className="flex flex-wrap items-center gap-2" data-testid="customer-tier">
                  Tier {user.limitTier}
                  {!isSelf && (
                    <button
                      type="button"
                      onClick={() => setTierDialog(true)}
                      className="text-sm font-semibold text-brand-700 hover:underline"
                    >
                      Move to tier {user.limitTier === 2 ? 1 : 2}
                    </button>
                  )}
                </span>,
              ],
              [
                'Referral code',
                user.referralCode ? (
                  <span key="r" className="font-mono text-xs">
                    {user.referralCode}
                  </span>
                ) : null,
              ],
              [
                'Referred by',
                user.referredBy ? (
                  <Link
                    key="ref"
                    to={adminPaths.customer(user.referredBy)}
                    className="font-mono text-xs text-brand-700 hover:underline"
                  >
                    {user.referredBy.slice(0, 8)}
                  </Link>
                ) : null,
              ],
            ]}
          />
        </Panel>
        <Panel
          title="Identity"
          testId="customer-kyc"
          actions={
            kyc && (
              <Link
                to={adminPaths.kycCase(user._id)}
                className="text-xs font-semibold text-brand-700 hover:underline"
              >
                Open case
              </Link>
            )
          }
        >
          {kyc ? (
            <Details
              rows={[
                ['Status', <KycPill key="s" status={kyc.status} />],
                ['Legal name', kyc.legalName],
                ['Country', kyc.country],
                ['Submitted', formatDateTime(kyc.submittedAt)],
                [
                  'Decided',
                  kyc.decidedAt
                    ? `${formatDateTime(kyc.decidedAt)}${kyc.decidedBy ? ` by ${kyc.decidedBy}` : ''}`
                    : null,
                ],
                ['Note', kyc.reviewNote],
              ]}
            />
          ) : (
            <p className="text-sm text-slate-500">No identity verification submitted yet.</p>
          )}
        </Panel>
        <Panel title="Settings" testId="customer-settings">
          <Details
            rows={[
              [
                'Wallet',
                settings.walletAddress ? (
                  <span key="w" className="font-mono text-xs break-all">
                    {settings.walletAddress}
                  </span>
                ) : null,
              ],
              ['Zelle', settings.zelleEmail],
              [
                'Bank',
                bank ? (
                  <span key="b" className="block text-sm">
                    {bank.bank_name} · {bank.account_name}
                    <span className="block font-mono text-xs text-slate-600">
                      {bank.account_number}
                      {bank.routing_number && ` · ABA ${bank.routing_number}`}
                      {bank.swift && ` · ${bank.swift}`}
                    </span>
                  </span>
                ) : null,
              ],
              ['E-mail notices', yesNo(settings.receiveEmail)],
              ['SMS notices', yesNo(settings.receiveSMS)],
            ]}
          />
        </Panel>
      </div>

      <Panel title={`Orders (${orders.length})`} padded={false} testId="customer-orders">
        {orders.length === 0 ? (
          <EmptyState title="No orders yet." />
        ) : (
          <DataTable
            columns={orderColumns}
            rows={orders}
            rowKey={(o) => o._id}
            rowHref={(o) => adminPaths.order(o._id)}
            label="Customer orders"
          />
        )}
      </Panel>

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
            columns={rewardColumns}
            rows={referralRewards}
            rowKey={(r) => r._id}
            label="Referral rewards"
          />
        )}
      </Panel>

      {dialog && <AccessDialog action={dialog} detail={detail} onClose={() => setDialog(null)} />}
      {tierDialog && <TierDialog detail={detail} onClose={() => setTierDialog(false)} />}
    </>
  );
}

/** Moves the customer to the other tier of the trading limits, with a reason for the audit log. */
function TierDialog({ detail, onClose }: { detail: CustomerDetail; onClose: () => void }) {
  const mutation = useSetCustomerTier(detail.user._id);
  const form = useZodForm(enableFormSchema, { defaultValues: { reason: '' } });
  const tier = detail.user.limitTier === 2 ? 1 : 2;
  const submit = form.handleSubmit(({ reason }) =>
    mutation.mutate(
      { tier, reason },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onClose();
        },
      },
    ),
  );
  return (
    <ActionDialog
      open
      onClose={onClose}
      title={`Move to tier ${tier}`}
      description={detail.user.email}
      consequences={[
        `The customer’s trading limits become tier ${tier}’s (Settings → Trading limits).`,
        'Orders already placed keep counting toward the rolling windows.',
        'Your reason is kept in the audit log.',
      ]}
      confirmLabel={`Move to tier ${tier}`}
      tone="primary"
      busy={mutation.isPending}
      error={mutation.error ? errorMessage(mutation.error) : null}
      onSubmit={() => void submit()}
    >
      <TextAreaField label="Reason" {...form.textField('reason')} maxLength={500} data-autofocus />
    </ActionDialog>
  );
}

function VerifiedValue({ value, verified }: { value: string; verified: boolean }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <span className="break-all">{value}</span>
      <Pill tone={verified ? 'emerald' : 'amber'}>{verified ? 'verified' : 'not verified'}</Pill>
    </span>
  );
}

const enableFormSchema = z.object({ reason: reasonSchema('Give a reason of at least 3 characters.') });

type AccessAction = 'disable' | 'enable' | 'restrict' | 'lift-restriction';

const ACCESS_COPY: Record<AccessAction, { title: string; confirm: string; consequences: string[] }> = {
  disable: {
    title: 'Disable this account',
    confirm: 'Disable account',
    consequences: [
      'Every session of this account ends at once.',
      'The customer cannot sign in until the account is re-enabled.',
      'Open orders are not changed: cancel them separately if needed.',
    ],
  },
  enable: {
    title: 'Re-enable this account',
    confirm: 'Re-enable account',
    consequences: ['The customer can sign in again with an e-mail code.'],
  },
  restrict: {
    title: 'Restrict trading',
    confirm: 'Restrict trading',
    consequences: [
      'The customer can still sign in and read everything.',
      'New orders are refused with "Your account is under review. Contact support.".',
      'Your reason is kept on the customer and in the audit log.',
    ],
  },
  'lift-restriction': {
    title: 'Lift the trading restriction',
    confirm: 'Lift restriction',
    consequences: [
      'The customer can place orders again.',
      'Flagged orders keep their flags: resolve them on each order.',
      'Your reason is kept in the audit log.',
    ],
  },
};

function AccessDialog({
  action,
  detail,
  onClose,
}: {
  action: AccessAction;
  detail: CustomerDetail;
  onClose: () => void;
}) {
  const mutation = useSetCustomerEnabled(detail.user._id);
  const form = useZodForm(enableFormSchema, { defaultValues: { reason: '' } });
  const copy = ACCESS_COPY[action];
  const submit = form.handleSubmit(({ reason }) =>
    mutation.mutate(
      { action, reason },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onClose();
        },
      },
    ),
  );
  return (
    <ActionDialog
      open
      onClose={onClose}
      title={copy.title}
      description={
        action === 'lift-restriction' && detail.user.restrictedReason
          ? `${detail.user.email}: restricted because ${detail.user.restrictedReason}`
          : detail.user.email
      }
      consequences={copy.consequences}
      confirmLabel={copy.confirm}
      tone={action === 'disable' || action === 'restrict' ? 'danger' : 'primary'}
      busy={mutation.isPending}
      error={mutation.error ? errorMessage(mutation.error) : null}
      onSubmit={() => void submit()}
    >
      <TextAreaField label="Reason" {...form.textField('reason')} maxLength={500} data-autofocus />
    </ActionDialog>
  );
}
