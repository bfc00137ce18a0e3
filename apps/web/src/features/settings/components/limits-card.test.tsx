import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { clearSession, saveSessionToken } from '../../../lib/session-storage';
import { LimitsCard } from './limits-card';

beforeEach(() => saveSessionToken(fakeSessionToken('ada')));
afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
});

describe('the Limits card', () => {
  it('shows the tier and, for each window, what is left of the limit', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse({
          tier: 2,
          windows: [
            { window: '24h', limitUsd: 50_000, usedUsd: 50_000, remainingUsd: 0 },
            { window: '7d', limitUsd: 100_000, usedUsd: 62_500.25, remainingUsd: 37_499.75 },
            { window: '30d', limitUsd: 250_000, usedUsd: 62_500.25, remainingUsd: 187_499.75 },
          ],
        }),
      ),
    );
    renderWithProviders(<LimitsCard />);
    const card = screen.getByTestId('limits-card');
    expect(await within(card).findByTestId('limit-24h')).toHaveTextContent(
      '24-hour limit$0.00 left of $50,000.00',
    );
    expect(within(card).getByTestId('limit-7d')).toHaveTextContent('$37,499.75 left of $100,000.00');
    expect(within(card).getByTestId('limit-30d')).toHaveTextContent('$187,499.75 left of $250,000.00');
    expect(card).toHaveTextContent('Tier 2.');
    expect(within(card).getByRole('meter', { name: '7-day limit used' })).toHaveAttribute(
      'aria-valuenow',
      '62500.25',
    );
  });

  it('offers a retry when the limits cannot be read', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ message: 'Service unavailable' }, 503)),
    );
    renderWithProviders(<LimitsCard />);
    expect(await screen.findByText('Your limits are not available right now.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
