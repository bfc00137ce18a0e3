import { useState, type ReactNode } from 'react';
import { KYC_STATUS_LABEL } from '@offzero/shared/api/kyc';
import type { User } from '@offzero/shared/api/accounts';
import { Button } from '../../../components/ui/button';
import { IdCardIcon } from '../../../components/ui/icons';
import { useKyc } from '../../../domain/kyc';
import { deferredComponent } from '../../../lib/deferred-component';
import { StatusTile } from '../../../components/ui/status-tile';

// The verification form brings the country list of the phone library (about 70 kB gzip): it loads when
// the customer first opens it, not with the dashboard.
const KycModal = deferredComponent(async () => (await import('./kyc-modal')).KycModal, null);

const DETAIL = {
  none: 'Required before your first trade.',
  YELLOW: 'Documents being checked.',
  GREEN: 'Identity verified.',
  RED: 'Identity not verified.',
} as const;

/**
 * Identity verification: 'Under Review', 'Approved' (the only one with a success
 * mark) or 'Rejected' with its reason in full and a Submit again button; with no record a Verify KYC
 * button. The status is read again every 10 seconds
 * while under review, so a decision shows without reloading.
 */
export function KycTile({ user }: { user: User }) {
  const kyc = useKyc();
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so closing it behaves as before (no unmount while it closes).
  const [opened, setOpened] = useState(false);
  const openModal = () => {
    setOpened(true);
    setOpen(true);
  };
  const record = kyc.data;
  const legalName = `${user.firstName} ${user.lastName}`.trim();

  let detail: string;
  let action: ReactNode = undefined;
  if (kyc.isPending) {
    detail = 'Checking…';
    action = <span className="inline-block h-6 w-28 animate-pulse rounded bg-slate-200" aria-hidden="true" />;
  } else if (kyc.isError) {
    detail = 'Status not available right now.';
    action = (
      <Button size="sm" variant="outline" onClick={() => void kyc.refetch()}>
        Try again
      </Button>
    );
  } else if (!record) {
    detail = DETAIL.none;
    action = (
      <Button size="sm" onClick={openModal}>
        Verify KYC
      </Button>
    );
  } else {
    detail = DETAIL[record.status];
    if (record.status === 'RED') {
      // The reason is shown in full (the detail line is cut to one line): it says what to fix.
      action = (
        <div className="space-y-3">
          {record.reason && (
            <p
              data-testid="kyc-reason"
              className="rounded-lg bg-red-50 px-3 py-2 text-sm break-words whitespace-pre-line text-red-800"
            >
              {record.reason}
            </p>
          )}
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-base font-semibold text-red-700">{KYC_STATUS_LABEL.RED}</p>
            <Button size="sm" variant="outline" onClick={openModal}>
              Submit again
            </Button>
          </div>
        </div>
      );
    }
  }

  return (
    <>
      <StatusTile
        testId="status-kyc"
        title="KYC"
        icon={IdCardIcon}
        done={record?.status === 'GREEN'}
        detail={<span title={detail}>{detail}</span>}
        status={record ? KYC_STATUS_LABEL[record.status] : undefined}
        action={action}
      />
      {opened && <KycModal open={open} onClose={() => setOpen(false)} defaultLegalName={legalName} />}
    </>
  );
}
