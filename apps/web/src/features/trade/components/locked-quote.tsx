import { useState, type ReactNode } from 'react';
import { QUOTE_MESSAGES } from '@offzero/shared/api/quotes';
import { railLabel } from '@offzero/shared/rails/rails';
import { Button } from '../../../components/ui/button';
import { ClockIcon } from '../../../components/ui/icons';
import type { PaymentMethodKey, TradeSettings } from '../api/get-trade-settings';
import { formatUsdCents } from '../../../lib/format';
import { CountdownNote } from './countdown-note';

/**
 * The parts of a confirmation that shows a locked quote (docs/design.md): the rate with the mid-market
 * price beside it, the spread it carries, the real time the lock has left, and when it runs out a
 * clear way to a new quote — never a new price put in silently.
 */

/** The rate, with the mid-market price it is measured against. */
export function LockedRate({ priceCents, midPriceCents }: { priceCents: bigint; midPriceCents: bigint }) {
  return (
    <>
      1 BTC = {formatUsdCents(priceCents)}
      <span className="block text-xs font-normal text-slate-500">
        Mid-market {formatUsdCents(midPriceCents)}
      </span>
    </>
  );
}

/** The spread row's label: what it means, in a line a customer can read. */
export function SpreadLabel() {
  return (
    <>
      Spread
      <span className="block text-xs text-slate-500">vs. mid-market price</span>
    </>
  );
}

/**
 * The lock's countdown, or once it ran out (`expired`, held by the confirmation step so that Pay or
 * Send goes away with it), the message and a "Get a new quote" button.
 */
export function QuoteLock({
  expiresAtMs,
  expired,
  onExpire,
  onRenew,
  renewing,
}: {
  expiresAtMs: number;
  expired: boolean;
  onExpire: () => void;
  onRenew: () => void;
  renewing: boolean;
}) {
  if (expired) {
    return (
      <div
        role="alert"
        className="space-y-3 rounded-2xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200"
      >
        <p>{QUOTE_MESSAGES.expired}</p>
        <Button variant="secondary" onClick={onRenew} loading={renewing} fullWidth>
          Get a new quote
        </Button>
      </div>
    );
  }
  return (
    <CountdownNote
      deadlineMs={expiresAtMs}
      onExpire={onExpire}
      label={(time) => `Price locked for ${time}`}
    />
  );
}

/** Whether a quote's lock ran out; set when its countdown reaches zero. Key the step by the quote id. */
export function useQuoteExpired(expiresAtMs: number) {
  return useState(() => expiresAtMs <= Date.now());
}

/** When the money or the bitcoin arrives, by the method named. */
export function ArrivalNote({ children }: { children: ReactNode }) {
  return (
    <p className="flex items-start gap-1.5 text-xs text-slate-600">
      <ClockIcon className="mt-px size-3.5 shrink-0" />
      <span>{children}</span>
    </p>
  );
}

/** Each active method's arrival timing, as the operator set it: before anything is paid. */
export function ArrivalTimes({
  title,
  settings,
  methods,
}: {
  title: string;
  settings: TradeSettings;
  methods: PaymentMethodKey[];
}) {
  const shown = methods.filter((method) => settings.active[method]);
  if (shown.length === 0) return null;
  return (
    <div className="rounded-2xl px-1 text-xs text-slate-600">
      <p className="mb-1 flex items-center gap-1.5 font-medium text-slate-700">
        <ClockIcon className="size-3.5" />
        {title}
      </p>
      <ul className="space-y-0.5 pl-5">
        {shown.map((method) => (
          <li key={method}>
            <span className="font-medium text-slate-700">{railLabel(method)}:</span>{' '}
            {settings.arrival[method]}
          </li>
        ))}
      </ul>
    </div>
  );
}
