import type { ReactNode } from 'react';
import { Container } from '../../../components/ui/container';
import { LockIcon } from '../../../components/ui/icons';

/**
 * The frame of the login and registration steps: a centred card with the step's title, an optional
 * "Step n of m" progress line, and a reassurance line underneath.
 */
export function AuthCard({
  title,
  subtitle,
  step,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  step?: { current: number; total: number; label: string };
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="relative flex flex-1 items-start justify-center bg-slate-50 py-10 sm:items-center sm:py-16">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 h-56 bg-gradient-to-b from-brand-50 to-transparent"
      />
      <Container className="relative max-w-md! px-4!">
        <div className="rounded-3xl bg-white p-6 shadow-xl ring-1 shadow-slate-200/60 ring-slate-200/70 sm:p-8">
          {step && <StepProgress {...step} />}
          <h1 className="text-2xl font-bold tracking-tight text-ink-900">{title}</h1>
          {subtitle && <div className="mt-2 text-sm leading-6 text-slate-600">{subtitle}</div>}
          <div className="mt-6">{children}</div>
        </div>
        {footer && <div className="mt-6 text-center text-sm text-slate-600">{footer}</div>}
        <p className="mt-6 flex items-center justify-center gap-2 text-xs text-slate-500">
          <LockIcon className="size-3.5" />
          We never hold your coins, and we never share your details.
        </p>
      </Container>
    </div>
  );
}

function StepProgress({ current, total, label }: { current: number; total: number; label: string }) {
  return (
    <div className="mb-6">
      <p className="text-xs font-semibold tracking-wider text-brand-700 uppercase">
        Step {current} of {total} · {label}
      </p>
      <div className="mt-2 flex gap-1.5" aria-hidden="true">
        {Array.from({ length: total }, (_, index) => (
          <span
            key={index}
            className={`h-1.5 flex-1 rounded-full ${index < current ? 'bg-brand-500' : 'bg-slate-200'}`}
          />
        ))}
      </div>
    </div>
  );
}
