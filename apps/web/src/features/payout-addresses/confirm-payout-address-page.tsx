import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { paths } from '../../config/paths';
import { errorMessage, hasErrorCode } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { ButtonLink } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page';
import { useConfirmPayoutAddress } from './api/payout-addresses';

/**
 * The page the e-mailed link opens (`/settings/payout-addresses/confirm?id=…&token=…`): it confirms
 * the address once, for the signed-in customer, and says when it can receive payouts.
 */
export default function ConfirmPayoutAddressPage() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const token = params.get('token') ?? '';
  const confirm = useConfirmPayoutAddress();
  const sent = useRef(false);
  const { mutate } = confirm;

  useEffect(() => {
    // Once per page: the link is single use.
    if (sent.current || !id || !token) return;
    sent.current = true;
    mutate({ id, token });
  }, [id, token, mutate]);

  const entry = confirm.data?.payoutAddress;
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-6 sm:px-6 sm:py-8">
      <title>Confirm payout address — OffZero</title>
      <PageHeader title="Confirm payout address" />
      <div
        className="mt-6 rounded-2xl bg-white p-5 text-sm text-slate-700 shadow-sm ring-1 ring-slate-200/80 sm:p-6"
        data-testid="confirm-payout-address"
        data-state={
          !id || !token ? 'invalid' : confirm.isSuccess ? 'confirmed' : confirm.isError ? 'failed' : 'pending'
        }
      >
        {!id || !token ? (
          <p>This confirmation link is incomplete. Open the link from the e-mail again.</p>
        ) : confirm.isSuccess && entry ? (
          <div className="flex flex-col gap-2">
            <p className="font-semibold text-ink-900">{confirm.data.message}</p>
            <p>
              <span className="font-medium">{entry.label}</span>{' '}
              <span className="font-mono break-all">{entry.address ?? entry.xpub}</span>
            </p>
            {entry.usableAt && (
              <p>
                {entry.status === 'usable' ? 'Usable since' : 'Usable from'} {formatDateTime(entry.usableAt)}.
              </p>
            )}
          </div>
        ) : confirm.isError ? (
          <p className={hasErrorCode(confirm.error, 'CONFLICT') ? '' : 'text-red-700'}>
            {errorMessage(confirm.error)}
          </p>
        ) : (
          <p>Confirming your address…</p>
        )}
        <div className="mt-5">
          <ButtonLink to={paths.settings} variant="outline" size="sm">
            Back to settings
          </ButtonLink>
        </div>
      </div>
    </div>
  );
}
