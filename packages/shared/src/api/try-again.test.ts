import { describe, expect, it } from 'vitest';
import { TRY_AGAIN_SENTENCE, tryAgainSentence } from './errors';
import { inWords, ORDER_STATUS_LABEL } from './orders';

describe('tryAgainSentence', () => {
  const now = new Date('2026-11-22T22:26:30Z');

  it('names the clock time and how long until then, in UTC for the server', () => {
    const sentence = tryAgainSentence(new Date('2026-11-22T22:41:10Z'), { now, timeZone: 'UTC' });
    expect(sentence).toMatch(/^Try again at 10:41\sPM UTC \(in 15 minutes\)\.$/);
    expect(TRY_AGAIN_SENTENCE.test(`Too many codes. ${sentence}`)).toBe(true);
  });

  it('counts seconds under a minute, one minute in the singular, and never a negative wait', () => {
    expect(tryAgainSentence(new Date(now.getTime() + 40_500), { now, timeZone: 'UTC' })).toContain(
      '(in 41 seconds)',
    );
    expect(tryAgainSentence(new Date(now.getTime() + 1_000), { now, timeZone: 'UTC' })).toContain(
      '(in 1 second)',
    );
    expect(tryAgainSentence(new Date(now.getTime() + 60_000), { now, timeZone: 'UTC' })).toContain(
      '(in 1 minute)',
    );
    expect(tryAgainSentence(new Date(now.getTime() - 5_000), { now, timeZone: 'UTC' })).toContain(
      '(in 0 seconds)',
    );
  });
});

describe('inWords', () => {
  it('uses the known label, else writes the code out', () => {
    expect(inWords('processing', ORDER_STATUS_LABEL)).toBe('Processing');
    expect(inWords('AWAITING_TRANSFER')).toBe('Awaiting transfer');
    expect(inWords('order.payout_btc_started')).toBe('Order payout btc started');
  });
});
