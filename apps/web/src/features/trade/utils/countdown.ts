import { useEffect, useState } from 'react';

/** 'mm:ss' for a number of seconds: 1200 → '20:00', 65 → '01:05'; below zero counts as zero. */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return `${String(minutes).padStart(2, '0')}:${String(rest).padStart(2, '0')}`;
}

/** Whole seconds from `now` until `deadlineMs`, rounded up (a deadline 0.2 s away still shows 00:01). */
export function secondsUntil(deadlineMs: number, now: number): number {
  return Math.max(0, Math.ceil((deadlineMs - now) / 1000));
}

/** The current time, updated every `intervalMs`, for countdowns. */
export function useNow(intervalMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** Seconds left until `deadlineMs`, ticking every second. */
export function useSecondsUntil(deadlineMs: number): number {
  return secondsUntil(deadlineMs, useNow());
}
