import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatCountdown, ResendCodeButton } from './resend-code-button';

const RESEND = "Didn't recieve code?";

/** Lets the timers run one second at a time, each inside act so React renders in between. */
function tick(seconds: number) {
  for (let i = 0; i < seconds; i += 1) {
    act(() => {
      vi.advanceTimersByTime(1000);
    });
  }
}

describe('ResendCodeButton', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts down from 10 seconds, then offers a new code', () => {
    render(<ResendCodeButton onResend={() => Promise.resolve(true)} />);

    expect(screen.getByRole('button', { name: 'Time: 00:10' })).toBeDisabled();
    tick(1);
    expect(screen.getByRole('button', { name: 'Time: 00:09' })).toBeDisabled();
    tick(8);
    expect(screen.getByRole('button', { name: 'Time: 00:01' })).toBeDisabled();
    tick(1);
    expect(screen.getByRole('button', { name: RESEND })).toBeEnabled();
    expect(screen.queryByText(/^Time:/)).not.toBeInTheDocument();
  });

  it('starts the countdown again after a successful resend', async () => {
    const onResend = vi.fn(() => Promise.resolve(true));
    render(<ResendCodeButton onResend={onResend} />);
    tick(10);

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: RESEND }));
    });

    expect(onResend).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Time: 00:10' })).toBeDisabled();
    tick(3);
    expect(screen.getByRole('button', { name: 'Time: 00:07' })).toBeDisabled();
  });

  it('stays available when the resend fails', async () => {
    const onResend = vi.fn(() => Promise.resolve(false));
    render(<ResendCodeButton onResend={onResend} />);
    tick(10);

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: RESEND }));
    });

    expect(onResend).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: RESEND })).toBeEnabled();
  });

  it('formats the time as mm:ss', () => {
    expect(formatCountdown(10)).toBe('00:10');
    expect(formatCountdown(9)).toBe('00:09');
    expect(formatCountdown(75)).toBe('01:15');
    expect(formatCountdown(0)).toBe('00:00');
  });
});
