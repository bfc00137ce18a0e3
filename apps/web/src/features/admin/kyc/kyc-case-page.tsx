import { useEffect, useState } from 'react';
import { z } from 'zod';
import { Link, useParams } from 'react-router';
import { toast } from '../../../lib/toast';
import { errorMessage } from '../../../lib/api-client';
import { Button, ButtonLink } from '../../../components/ui/button';
import { ArrowLeftIcon, IdCardIcon } from '../../../components/ui/icons';
import { PageLoadError, PageSkeleton } from '../../../components/ui/page';
import { Spinner } from '../../../components/ui/spinner';
import { useDecideKyc } from '../api/decide-kyc';
import { useKycCase } from '../api/get-kyc-case';
import { useKycDocument } from '../api/get-kyc-document';
import type { KycCase } from '@offzero/shared/api/admin';
import { adminPaths } from '../admin-paths';
import { ActionDialog, reasonSchema, TextAreaField } from '../components/action-dialog';
import { useZodForm } from '../../../lib/forms';
import { AdminPageHeader, Details, Panel } from '../components/blocks';
import { KycPill } from '../components/badges';
import { formatAge, formatDate, formatDateTime } from '../format';
import { documentLabel } from './kyc-cases-page';

/** One identity check: what the customer submitted, their document, and the decision. */
export default function KycCasePage() {
  const { userId = '' } = useParams();
  const kycCase = useKycCase(userId);
  return (
    <div className="space-y-5">
      <title>KYC case — OffZero back office</title>
      <ButtonLink to={adminPaths.kyc} variant="ghost" size="sm" className="-ml-3">
        <ArrowLeftIcon className="size-4" />
        All cases
      </ButtonLink>
      {kycCase.isPending ? (
        <PageSkeleton blocks={2} />
      ) : kycCase.isError ? (
        <PageLoadError message={errorMessage(kycCase.error)} onRetry={() => void kycCase.refetch()} />
      ) : (
        <CaseView kycCase={kycCase.data} />
      )}
    </div>
  );
}

function ageInYears(isoDate: string): number | null {
  const birth = new Date(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(birth.getTime())) return null;
  const now = new Date();
  let years = now.getUTCFullYear() - birth.getUTCFullYear();
  const beforeBirthday =
    now.getUTCMonth() < birth.getUTCMonth() ||
    (now.getUTCMonth() === birth.getUTCMonth() && now.getUTCDate() < birth.getUTCDate());
  if (beforeBirthday) years -= 1;
  return years;
}

function CaseView({ kycCase }: { kycCase: KycCase }) {
  const [dialog, setDialog] = useState<'GREEN' | 'RED' | null>(null);
  const age = kycCase.dateOfBirth ? ageInYears(kycCase.dateOfBirth) : null;
  return (
    <>
      <AdminPageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            <span className="break-all">{kycCase.legalName ?? kycCase.email ?? 'Identity check'}</span>
            <KycPill status={kycCase.status} />
          </span>
        }
        description={
          <>
            {kycCase.email && (
              <Link
                to={adminPaths.customer(kycCase.userId)}
                className="break-all text-brand-700 underline underline-offset-2"
              >
                {kycCase.email}
              </Link>
            )}
            {kycCase.submittedAt && (
              <span>
                {' '}
                · submitted {formatDateTime(kycCase.submittedAt)} ({formatAge(kycCase.submittedAt)} ago)
              </span>
            )}
          </>
        }
      />
      <div className="grid grid-cols-1 items-start gap-5 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Panel title="Document" testId="kyc-document">
          {kycCase.hasDocument ? (
            <DocumentImage userId={kycCase.userId} />
          ) : (
            <div className="flex flex-col items-center py-10 text-center text-sm text-slate-500">
              <IdCardIcon className="size-8 text-slate-300" />
              <p className="mt-2">
                No document image on file{kycCase.provider !== 'local' ? ' (checked by the provider)' : ''}.
              </p>
            </div>
          )}
        </Panel>
        <div className="space-y-5">
          <Panel title="Submitted data" testId="kyc-data">
            <Details
              rows={[
                ['Legal name', kycCase.legalName],
                [
                  'Date of birth',
                  kycCase.dateOfBirth
                    ? `${formatDate(`${kycCase.dateOfBirth}T12:00:00Z`)}${age !== null ? ` (${age})` : ''}`
                    : null,
                ],
                ['Country', kycCase.country],
                ['Document', documentLabel(kycCase.documentType)],
                [
                  'Number',
                  kycCase.documentNumber ? (
                    <span key="n" className="font-mono">
                      {kycCase.documentNumber}
                    </span>
                  ) : null,
                ],
                [
                  'Provider',
                  <span key="p" className="capitalize">
                    {kycCase.provider}
                  </span>,
                ],
              ]}
            />
          </Panel>
          <Panel title="Decision" testId="kyc-decision">
            {kycCase.status === 'YELLOW' ? (
              <div className="space-y-3">
                <p className="text-sm text-slate-600">
                  Check that the name and date of birth match the document and that the document looks
                  genuine.
                </p>
                <div className="flex flex-col gap-2 sm:flex-row lg:flex-col">
                  <Button fullWidth onClick={() => setDialog('GREEN')}>
                    Approve
                  </Button>
                  <Button
                    fullWidth
                    variant="outline"
                    className="text-red-700"
                    onClick={() => setDialog('RED')}
                  >
                    Reject
                  </Button>
                </div>
              </div>
            ) : (
              <Details
                rows={[
                  ['Result', <KycPill key="s" status={kycCase.status} />],
                  ['Decided by', kycCase.decidedBy],
                  ['Decided', formatDateTime(kycCase.decidedAt)],
                  ['Note', kycCase.reviewNote],
                ]}
              />
            )}
          </Panel>
        </div>
      </div>
      {dialog && (
        <DecisionDialog key={dialog} kycCase={kycCase} status={dialog} onClose={() => setDialog(null)} />
      )}
    </>
  );
}

/** The document fetched with the session (an <img src> cannot carry it) and shown from memory. */
function DocumentImage({ userId }: { userId: string }) {
  const document = useKycDocument(userId, true);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!document.data) return;
    const objectUrl = URL.createObjectURL(document.data);
    setUrl(objectUrl);
    return () => {
      URL.revokeObjectURL(objectUrl);
      setUrl(null);
    };
  }, [document.data]);

  if (document.isError) {
    return (
      <p className="py-8 text-center text-sm text-red-700">
        {errorMessage(document.error, 'Could not load the document.')}
      </p>
    );
  }
  if (!url) {
    return (
      <div role="status" aria-label="Loading the document" className="flex justify-center py-16">
        <Spinner className="size-6 text-slate-400" />
      </div>
    );
  }
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      className="block"
      title="Open the image in a new tab"
    >
      <img
        src={url}
        alt="The customer's identity document"
        className="mx-auto max-h-[36rem] w-full max-w-2xl rounded-xl bg-slate-50 object-contain ring-1 ring-slate-200"
      />
    </a>
  );
}

/** An approval may carry a note; a rejection needs the reason the customer will read. */
const approveFormSchema = z.object({ reason: z.string().trim() });
const rejectFormSchema = z.object({
  reason: reasonSchema('Give the customer a reason of at least 3 characters.'),
});

function DecisionDialog({
  kycCase,
  status,
  onClose,
}: {
  kycCase: KycCase;
  status: 'GREEN' | 'RED';
  onClose: () => void;
}) {
  const decide = useDecideKyc(kycCase.userId);
  const approve = status === 'GREEN';
  const who = kycCase.legalName ?? kycCase.email ?? 'this customer';
  const form = useZodForm(approve ? approveFormSchema : rejectFormSchema, { defaultValues: { reason: '' } });

  const submit = form.handleSubmit(({ reason }) =>
    decide.mutate(approve ? { status, ...(reason ? { reason } : {}) } : { status, reason }, {
      onSuccess: (answer) => {
        toast.success(answer.message);
        onClose();
      },
    }),
  );

  return (
    <ActionDialog
      open
      onClose={onClose}
      title={approve ? 'Approve this identity' : 'Reject this identity'}
      description={`${who} (${kycCase.email ?? kycCase.userId})`}
      consequences={
        approve
          ? [
              'The customer’s identity becomes Approved; they can trade at once.',
              'Their dashboard shows the new status without a reload.',
              'Your decision is recorded in the audit log.',
            ]
          : [
              'The customer’s identity becomes Rejected and they cannot trade.',
              'They see your reason on their dashboard.',
              'Your decision is recorded in the audit log.',
            ]
      }
      confirmLabel={approve ? 'Approve' : 'Reject'}
      tone={approve ? 'primary' : 'danger'}
      busy={decide.isPending}
      error={decide.error ? errorMessage(decide.error) : null}
      onSubmit={() => void submit()}
    >
      <TextAreaField
        label={approve ? 'Note' : 'Reason for the customer'}
        optional={approve}
        {...form.textField('reason')}
        maxLength={500}
        rows={3}
        data-autofocus={approve ? undefined : true}
      />
    </ActionDialog>
  );
}
