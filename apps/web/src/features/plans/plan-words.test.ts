import { describe, expect, it } from 'vitest';
import type { Plan } from '@offzero/shared/api/plans';
import { nextBuyLine, planDollars } from './plan-words';

const plan = (overrides: Partial<Plan>): Plan => ({
  id: 'p',
  amountUsd: 50,
  frequency: 'weekly',
  nextRunOn: '2026-12-04',
  status: 'active',
  statusNote: null,
  payoutAddressId: 'a',
  authorization: { text: '', acceptedAt: '' },
  runs: [],
  ...overrides,
});

describe('the dashboard’s next buy', () => {
  const tuesday = new Date('2026-12-01T15:00:00Z');

  it('names the soonest active plan’s day: "Next buy: $50 on Friday"', () => {
    const plans = [
      plan({ id: 'later', amountUsd: 75, nextRunOn: '2026-12-20' }),
      plan({ id: 'paused', status: 'paused', nextRunOn: '2026-12-02' }),
      plan({ id: 'soon' }),
    ];
    expect(nextBuyLine(plans, tuesday)).toBe('Next buy: $50 on Friday');
  });

  it('says the date beyond a week, and nothing without an active plan', () => {
    expect(nextBuyLine([plan({ amountUsd: 25.5, nextRunOn: '2026-12-12' })], tuesday)).toBe(
      'Next buy: $25.50 on Dec 12',
    );
    expect(nextBuyLine([plan({ status: 'cancelled' })], tuesday)).toBeNull();
    expect(planDollars(1000)).toBe('$1,000');
  });
});
