import { describe, expect, it } from 'vitest';
import { btc, btcFromSatsText, describeActor, formatAge, isOverdue } from './format';

const now = Date.parse('2026-03-10T12:00:00.000Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('formatAge', () => {
  it('writes minutes, hours and days like the queue shows them', () => {
    expect(formatAge(ago(20_000), now)).toBe('<1 min');
    expect(formatAge(ago(12 * 60_000), now)).toBe('12 min');
    expect(formatAge(ago(3 * 3_600_000 + 59 * 60_000), now)).toBe('3 h');
    expect(formatAge(ago(2 * 86_400_000 + 5_000), now)).toBe('2 d');
  });

  it('shows a dash for a missing or unreadable time, and never a negative age', () => {
    expect(formatAge(null, now)).toBe('—');
    expect(formatAge('yesterday', now)).toBe('—');
    expect(formatAge(new Date(now + 60_000).toISOString(), now)).toBe('<1 min');
  });

  it('calls work older than four hours overdue', () => {
    expect(isOverdue(ago(5 * 3_600_000), now)).toBe(true);
    expect(isOverdue(ago(3 * 3_600_000), now)).toBe(false);
  });
});

describe('money and actors', () => {
  it('writes bitcoin with all 8 decimals', () => {
    expect(btc(0.005)).toBe('0.00500000 BTC');
    expect(btcFromSatsText('512300')).toBe('0.00512300 BTC');
    expect(btcFromSatsText(null)).toBe('—');
  });

  it('names who moved an order', () => {
    expect(describeActor('user:abc', 'abc')).toEqual({ kind: 'customer', label: 'Customer' });
    expect(describeActor('admin:1234567890')).toEqual({ kind: 'admin', label: 'Admin 12345678' });
    expect(describeActor('system:deposit-watcher')).toEqual({
      kind: 'system',
      label: 'System · deposit watcher',
    });
  });
});
