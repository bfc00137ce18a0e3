import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from '../../../lib/toast';
import { SHORTEN, shortenText } from '@offzero/shared/text/shorten';
import { formatCurrency } from '@offzero/shared/currency/format-currency';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { ArrowRightIcon, HelpIcon } from '../../../components/ui/icons';
import { SettingsCard } from '../../../components/ui/settings-card';
import { useSaveSetting } from '../../../domain/user-settings';
import { useTotalRewards } from '../api/referrals';
import { generateReferralCode, referralLink } from '../referral-code';
import { ReferralHelpModal } from './referral-help-modal';

export const REFERRAL_CODE_GENERATED = 'Referral code has been generated!';

/**
 * Referral and rewards: the code and its link with copy buttons, or a
 * Generate Code button; a help dialog about the programme; the total earned, linking to the history.
 */
export function ReferralCard({ referralCode }: { referralCode: string | null }) {
  const [helpOpen, setHelpOpen] = useState(false);
  // Held here, not in the button: the button goes away as soon as the new code is read back, and the
  // success message must still be shown then.
  const generate = useSaveSetting();
  return (
    <SettingsCard
      title="Referral and rewards"
      description={
        <span className="inline-flex items-center gap-1">
          Earn a share of the fees on your friends&apos; first trades.
          <button
            type="button"
            onClick={() => setHelpOpen(true)}
            aria-label="How referrals work"
            title="How referrals work"
            className="-my-2 inline-flex size-8 shrink-0 items-center justify-center rounded-full text-slate-500 hover:bg-brand-50 hover:text-brand-700"
          >
            <HelpIcon className="size-4.5" />
          </button>
        </span>
      }
      testId="referral-card"
    >
      <div className="space-y-5">
        {referralCode ? <ReferralCode code={referralCode} /> : <GenerateCode save={generate} />}
        <TotalRewards />
      </div>
      <ReferralHelpModal open={helpOpen} onClose={() => setHelpOpen(false)} />
    </SettingsCard>
  );
}

function ReferralCode({ code }: { code: string }) {
  const link = referralLink(code);
  return (
    <dl className="space-y-4">
      <div>
        <dt className="text-sm text-slate-500">Referral code</dt>
        <dd className="mt-1 flex items-center gap-2">
          <span
            data-testid="referral-code"
            className="font-mono text-base font-semibold break-all text-ink-900"
          >
            {code}
          </span>
          <CopyButton text={code} label="Copy referral code" size="sm" />
        </dd>
      </div>
      <div>
        <dt className="text-sm text-slate-500">Referral link</dt>
        <dd className="mt-1 flex items-center gap-2">
          <span data-testid="referral-link" title={link} className="min-w-0 font-mono text-sm text-ink-900">
            {shortenText(link, SHORTEN.referralLink)}
          </span>
          <CopyButton text={link} label="Copy referral link" size="sm" />
        </dd>
      </div>
    </dl>
  );
}

function GenerateCode({ save }: { save: ReturnType<typeof useSaveSetting> }) {
  return (
    <div>
      <p className="text-sm text-slate-600">Generate your code to get a link you can share.</p>
      <Button
        className="mt-3"
        size="sm"
        disabled={save.isPending}
        aria-busy={save.isPending || undefined}
        onClick={() =>
          // A fresh code each click: if one is taken (409) the next click simply tries another.
          save.mutate(
            { referralCode: generateReferralCode() },
            {
              onSuccess: () => toast.success(REFERRAL_CODE_GENERATED),
              onError: (error) => toast.error(errorMessage(error)),
            },
          )
        }
      >
        {save.isPending ? 'Generating..' : 'Generate Code'}
      </Button>
    </div>
  );
}

function TotalRewards() {
  const total = useTotalRewards();
  return (
    <Link
      to={paths.referralHistory}
      data-testid="referral-total"
      className="group flex items-center justify-between gap-3 rounded-xl bg-slate-50 px-4 py-3 ring-1 ring-slate-200/80 transition-colors hover:bg-brand-50 hover:ring-brand-200"
    >
      <span>
        <span className="block text-sm text-slate-500">Total rewards</span>
        <span className="block text-lg font-semibold text-ink-900">
          {total.isPending ? (
            <span className="inline-block h-5 w-16 animate-pulse rounded bg-slate-200 align-middle" />
          ) : total.isError ? (
            '$—'
          ) : (
            formatCurrency(total.data)
          )}
        </span>
      </span>
      <span className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700">
        View history
        <ArrowRightIcon className="size-4 transition-transform group-hover:translate-x-0.5" />
      </span>
    </Link>
  );
}
