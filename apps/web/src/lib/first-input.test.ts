import { afterEach, describe, expect, it, vi } from 'vitest';
import { onFirstInput } from './first-input';

describe('onFirstInput', () => {
  const stops: (() => void)[] = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
    document.body.replaceChildren();
  });

  it('waits through focus, then starts once at the first key, click or typed character', () => {
    const field = document.createElement('input');
    document.body.append(field);
    for (const first of [
      () => field.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true })),
      () => field.dispatchEvent(new Event('pointerdown', { bubbles: true })),
      () => field.dispatchEvent(new Event('input', { bubbles: true })),
    ]) {
      const start = vi.fn();
      stops.push(onFirstInput(start));
      field.focus();
      field.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
      expect(start).not.toHaveBeenCalled();
      first();
      first();
      field.dispatchEvent(new Event('input', { bubbles: true }));
      expect(start).toHaveBeenCalledTimes(1);
    }
  });

  it('never starts once told to stop waiting', () => {
    const start = vi.fn();
    const stop = onFirstInput(start);
    stop();
    document.body.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true }));
    expect(start).not.toHaveBeenCalled();
  });
});
