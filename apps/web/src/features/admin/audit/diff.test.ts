import { describe, expect, it } from 'vitest';
import { diffChanges, showValue } from './diff';

describe('diffChanges', () => {
  it('lists only the leaves that changed, by dot path', () => {
    const before = { order: { platform_fees: 1.5, min_order_size: 20 }, zelle: { is_active: true } };
    const after = { order: { platform_fees: 2, min_order_size: 20 }, zelle: { is_active: false } };
    expect(diffChanges(before, after)).toEqual([
      { key: 'order.platform_fees', before: 1.5, after: 2 },
      { key: 'zelle.is_active', before: true, after: false },
    ]);
  });

  it('ignores the write timestamp and treats a missing side as null', () => {
    expect(
      diffChanges({ status: 'processing', updatedAt: 'a' }, { status: 'completed', updatedAt: 'b' }),
    ).toEqual([{ key: 'status', before: 'processing', after: 'completed' }]);
    expect(diffChanges(null, { status: 'GREEN' })).toEqual([{ key: 'status', before: null, after: 'GREEN' }]);
    expect(diffChanges({ disabledAt: null }, { disabledAt: '2026-01-01' })).toEqual([
      { key: 'disabledAt', before: null, after: '2026-01-01' },
    ]);
  });

  it('finds nothing when nothing changed', () => {
    expect(diffChanges({ a: [1, 2] }, { a: [1, 2] })).toEqual([]);
    expect(diffChanges(null, null)).toEqual([]);
  });
});

describe('showValue', () => {
  it('writes values briefly', () => {
    expect(showValue(null)).toBe('—');
    expect(showValue('')).toBe('—');
    expect(showValue(true)).toBe('true');
    expect(showValue('x'.repeat(60), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
