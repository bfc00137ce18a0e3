import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { useReferralProgramme } from '../api/referrals';

/** How the referral programme works, with its terms from the global settings; closed with 'Start Referral'. */
export function ReferralHelpModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="How referrals work"
      description="Invite friends to OffZero and earn part of the fees they pay."
      footer={<Button onClick={onClose}>Start Referral</Button>}
    >
      <ProgrammeTerms />
    </Modal>
  );
}

function ProgrammeTerms() {
  const programme = useReferralProgramme();
  const reward = programme.data ? `${programme.data.reward}%` : 'a share';
  const count = programme.data?.trades_eligible;
  const trades = count === undefined ? 'first trades' : count === 1 ? 'first trade' : `first ${count} trades`;
  return (
    <ol className="space-y-4 text-sm text-slate-700">
      <Step number={1} title="Share your link">
        Generate your referral code and send your link to friends. The code fills in by itself when they
        register through the link.
      </Step>
      <Step number={2} title="Your friend trades">
        They verify their identity and buy or sell bitcoin on OffZero as usual.
      </Step>
      <Step number={3} title="You earn">
        {programme.isPending ? (
          <span className="inline-block h-4 w-48 animate-pulse rounded bg-slate-200 align-middle" />
        ) : (
          <>
            You receive <strong className="font-semibold text-ink-900">{reward}</strong> of the platform fee
            of their <strong className="font-semibold text-ink-900">{trades}</strong>, once each order
            completes. Your total and every reward show on your referral history.
          </>
        )}
      </Step>
    </ol>
  );
}

function Step({ number, title, children }: { number: number; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-3">
      <span className="inline-flex size-7 shrink-0 items-center justify-center rounded-full bg-brand-50 text-sm font-semibold text-brand-700">
        {number}
      </span>
      <div>
        <p className="font-semibold text-ink-900">{title}</p>
        <p className="mt-0.5 leading-6">{children}</p>
      </div>
    </li>
  );
}
