import { Link } from 'react-router';
import type { CustomerDetail } from '@offzero/shared/api/admin';
import { adminPaths } from '../admin-paths';
import { Details, Panel } from '../components/blocks';
import { Pill } from '../components/badges';

/** Contact details, limits tier (with the move to the other tier) and referral links of the customer. */
export function CustomerAccountPanel({
  user,
  name,
  isSelf,
  onMoveTier,
}: {
  user: CustomerDetail['user'];
  name: string;
  /** The signed-in admin's own account: its tier is not theirs to change. */
  isSelf: boolean;
  onMoveTier: () => void;
}) {
  return (
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
                  onClick={onMoveTier}
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
