import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';

export const RESEND_COUNTDOWN_SECONDS = 10;

/** 9 → '00:09', 75 → '01:15'. */
export function formatCountdown(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return `${String(minutes).padStart(2, '0')}:${String(rest).padStart(2, '0')}`;
}

/**
 * The resend control of the product specification. A code was just sent when this appears, so it starts disabled
 * with a 10-second countdown ('Time: 00:10'); then it offers "Didn't recieve code?" (the spec's
 * spelling). A successful resend starts the countdown again; a failed one leaves the button available.
 */
export function ResendCodeButton({
  onResend,
  seconds = RESEND_COUNTDOWN_SECONDS,
}: {
  /** Sends a new code; resolves true when it was sent. */
  onResend: () => Promise<boolean>;
  seconds?: number;
}) {
  const [secondsLeft, setSecondsLeft] = useState(seconds);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = window.setTimeout(() => setSecondsLeft((left) => left - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [secondsLeft]);

  async function resend() {
    setSending(true);
    try {
      if (await onResend()) setSecondsLeft(seconds);
    } finally {
      setSending(false);
    }
  }

  const waiting = secondsLeft > 0;
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={waiting}
      loading={sending}
      onClick={() => void resend()}
      className="font-medium text-brand-700 tabular-nums hover:text-brand-700 disabled:text-slate-500 disabled:opacity-100"
    >
      {waiting ? `Time: ${formatCountdown(secondsLeft)}` : "Didn't recieve code?"}
    </Button>
  );
}
