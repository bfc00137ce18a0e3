import { Link } from 'react-router';
import type { CustomerDetail } from '@offzero/shared/api/admin';
import { adminPaths } from '../admin-paths';
import { Details, Panel } from '../components/blocks';
import { KycPill } from '../components/badges';
import { formatDateTime } from '../format';

/** The customer's identity verification as decided, with a link to its case. */
export function CustomerIdentityPanel({
  user,
  kyc,
}: {
  user: CustomerDetail['user'];
  kyc: CustomerDetail['kyc'];
}) {
  return (
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
  );
}
