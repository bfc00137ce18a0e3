import { describe, expect, it } from 'vitest';
import { median, percentile } from './statistics';

describe('percentile', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);

  it('answers the smallest measured value with at least that share of the values at or below it', () => {
    expect(percentile(hundred, 0.5)).toBe(50);
    expect(percentile(hundred, 0.99)).toBe(99);
    expect(percentile(hundred, 1)).toBe(100);
    expect(percentile([3, 7, 20], 0.99)).toBe(20);
    expect(percentile([3, 7, 20], 0.5)).toBe(7);
  });

  it('never reads outside the values, and answers 0 for none', () => {
    expect(percentile([4], 0.99)).toBe(4);
    expect(percentile([4, 9], 0)).toBe(4);
    expect(percentile([], 0.99)).toBe(0);
  });
});

describe('median', () => {
  it('answers the middle value of an odd count, whatever the order', () => {
    expect(median([9, 1, 5])).toBe(5);
    expect(median([0.86, 1.06, 0.63, 1.06, 0.7])).toBe(0.86);
  });

  it('answers the mean of the two middle values of an even count', () => {
    expect(median([0.84, 0.72, 0.82, 0.85])).toBe(0.83);
    expect(median([2, 1])).toBe(1.5);
  });

  it('leaves its input as it was, and answers 0 for none', () => {
    const ratios = [3, 1, 2];
    median(ratios);
    expect(ratios).toEqual([3, 1, 2]);
    expect(median([])).toBe(0);
  });
});
