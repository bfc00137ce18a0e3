import { useId } from 'react';
import { toast } from '../../../lib/toast';
import { BUY_CHECK_MESSAGES } from '@offzero/shared/api/orders';
import { errorMessage } from '../../../lib/api-client';
import { useKyc } from '../../../domain/kyc';
import { useSession } from '../../../lib/session';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { AlertIcon } from '../../../components/ui/icons';
import {
  fetchKycAccess,
  useKycAccess,
  useRegisterKyc,
  useSubmitLocalKyc,
  useUpdateKycStatus,
} from '../api/kyc';
import { LocalKycFormView } from './local-kyc-form';
import { SumsubWidget } from './sumsub-widget';

/**
 * The identity-verification dialog. Opening it asks the server for an access token,
 * whose answer also says which verification runs: the demo form ('local') or Sumsub's widget.
 */
export function KycModal({
  open,
  onClose,
  defaultLegalName = '',
}: {
  open: boolean;
  onClose: () => void;
  defaultLegalName?: string;
}) {
  const formId = useId();
  const access = useKycAccess(open);
  const submitLocal = useSubmitLocalKyc();
  const isLocal = access.data?.provider === 'local';
  const previous = useKyc().data;

  return (
    <Modal
      open={open}
      onClose={onClose}
      dismissible={!submitLocal.isPending}
      size="lg"
      title="Verify your identity"
      description="US rules ask us to know who buys and sells bitcoin. It takes about two minutes."
      footer={
        isLocal ? (
          <>
            <Button variant="outline" onClick={onClose} disabled={submitLocal.isPending}>
              Cancel
            </Button>
            <Button type="submit" form={formId} loading={submitLocal.isPending}>
              Submit for review
            </Button>
          </>
        ) : undefined
      }
    >
      {previous?.status === 'RED' && <Rejection reason={previous.reason} />}
      {access.isPending ? (
        <p role="status" className="flex items-center justify-center gap-2 py-10 text-sm text-slate-500">
          <Spinner /> Preparing identity verification…
        </p>
      ) : access.isError || (access.data.provider === 'sumsub' && !access.data.token) ? (
        <Unavailable
          message={access.isError ? errorMessage(access.error) : undefined}
          retrying={access.isFetching}
          onRetry={() => void access.refetch()}
        />
      ) : access.data.provider === 'local' ? (
        <LocalKycFormView
          formId={formId}
          defaultLegalName={defaultLegalName}
          submit={submitLocal}
          onSubmitted={onClose}
        />
      ) : (
        <SumsubVerification token={access.data.token ?? ''} onClose={onClose} />
      )}
    </Modal>
  );
}

function SumsubVerification({ token, onClose }: { token: string; onClose: () => void }) {
  const userId = useSession()?.userId ?? '';
  const register = useRegisterKyc();
  const updateStatus = useUpdateKycStatus();

  async function getNewToken(): Promise<string> {
    const access = await fetchKycAccess(userId);
    if (!access.token) throw new Error('No verification token was issued');
    return access.token;
  }

  return (
    <SumsubWidget
      token={token}
      getNewToken={getNewToken}
      onSubmitted={() => {
        register.mutate(undefined, {
          onSuccess: (answer) => toast.success(answer.message),
          onError: (error) => toast.error(errorMessage(error)),
        });
        onClose();
      }}
      onReviewCompleted={(payload) => {
        // The dialog stays open (is shown again) so the customer sees the widget's final word; the
        // server reads the verdict from Sumsub itself.
        updateStatus.mutate(payload, {
          onError: (error) => toast.error(errorMessage(error)),
        });
      }}
    />
  );
}

/** After a rejection: why, in full, before the customer submits again. */
function Rejection({ reason }: { reason: string | undefined }) {
  return (
    <div
      data-testid="kyc-rejection"
      className="mb-5 flex gap-3 rounded-xl bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-red-200"
    >
      <AlertIcon className="mt-0.5 size-5 shrink-0 text-red-600" />
      <div className="min-w-0">
        <p className="break-words whitespace-pre-line">{BUY_CHECK_MESSAGES.kycRejected(reason)}</p>
        <p className="mt-1 text-red-700">Fix what is described above and submit your verification again.</p>
      </div>
    </div>
  );
}

function Unavailable({
  message,
  retrying,
  onRetry,
}: {
  message?: string;
  retrying: boolean;
  onRetry: () => void;
}) {
  return (
    <div role="alert" className="py-8 text-center">
      <AlertIcon className="mx-auto size-8 text-amber-500" />
      <p className="mt-3 font-semibold text-ink-900">Identity verification is not available right now.</p>
      <p className="mt-1 text-sm text-slate-600">{message ?? 'Please try again in a minute.'}</p>
      <Button variant="outline" className="mt-5" loading={retrying} onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
