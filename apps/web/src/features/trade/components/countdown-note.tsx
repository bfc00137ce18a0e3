import { useEffect, useRef, type ReactNode } from 'react';
import { ClockIcon } from '../../../components/ui/icons';
import { formatCountdown, useSecondsUntil } from '../utils/countdown';

/**
 * A live countdown line ('Quote valid for 14:59'); `onExpire` runs once, when it reaches zero while
 * shown.
 */
export function CountdownNote({
  deadlineMs,
  label,
  onExpire,
  tone = 'neutral',
}: {
  deadlineMs: number;
  label: (time: string) => ReactNode;
  onExpire?: () => void;
  tone?: 'neutral' | 'inverse';
}) {
  const seconds = useSecondsUntil(deadlineMs);
  const expired = useRef(false);
  const latestOnExpire = useRef(onExpire);
  useEffect(() => {
    latestOnExpire.current = onExpire;
  });
  useEffect(() => {
    if (seconds > 0 || expired.current) return;
    expired.current = true;
    latestOnExpire.current?.();
  }, [seconds]);

  return (
    <p
      className={`inline-flex items-center gap-1.5 text-xs font-medium tabular-nums ${
        tone === 'inverse'
          ? seconds <= 60
            ? 'text-amber-300'
            : 'text-slate-300'
          : seconds <= 60
            ? 'text-amber-700'
            : 'text-slate-500'
      }`}
    >
      <ClockIcon className="size-3.5" />
      {label(formatCountdown(seconds))}
    </p>
  );
}
