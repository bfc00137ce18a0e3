import type { ReactNode } from 'react';
import { CheckIcon } from './icons';

type Tone = 'success' | 'warning' | 'neutral';

const tones: Record<Tone, string> = {
  success: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  warning: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  neutral: 'bg-slate-100 text-slate-600 ring-slate-500/15',
};

/** A small status pill ("Verified", "Not verified"). */
export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${tones[tone]}`}
    >
      {tone === 'success' && <CheckIcon className="size-3.5" />}
      {children}
    </span>
  );
}

/** The verified state of a contact detail, as the profile shows it. */
export function VerifiedBadge({ verified }: { verified: boolean }) {
  return verified ? <Badge tone="success">Verified</Badge> : <Badge tone="warning">Not verified</Badge>;
}
