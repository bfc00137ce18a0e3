import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LimitsResponse } from '@offzero/shared/api/limits';
import { clearSession, saveCsrfToken, saveSessionToken } from '../../lib/session-storage';
import { stubCustomerReads } from '../../test/customer-reads';
import { fakeSessionToken, renderWithProviders } from '../../test/test-utils';
import { verifiedUser } from '../../test/trade-fixtures';
import { PriceProvider } from './price-context';
import { TradeWidget } from './trade-widget';

// The widget's reads start together: the quote step's limits and the buy confirmation's address book
// are asked for beside the trading terms, not once the terms have arrived and those steps mount, and
// the steps then use those answers instead of reading again.

const limits: LimitsResponse = {
  tier: 1,
  windows: [
    { window: '24h', limitUsd: 10_000, usedUsd: 0, remainingUsd: 10_000 },
    { window: '7d', limitUsd: 20_000, usedUsd: 0, remainingUsd: 20_000 },
    { window: '30d', limitUsd: 50_000, usedUsd: 50_000 - 1_250, remainingUsd: 1_250 },
  ],
};

function renderWidget() {
  renderWithProviders(
    <PriceProvider>
      <TradeWidget />
    </PriceProvider>,
  );
}

afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
});

describe('the trade widget’s reads', () => {
  it('asks for a customer’s limits and address book beside the terms, and reads each once', async () => {
    saveSessionToken(fakeSessionToken(verifiedUser._id));
    saveCsrfToken('csrf-1');
    const api = stubCustomerReads({ limits, held: ['/api/admin/settings'] });
    renderWidget();

    // The terms are still on their way, and the steps that show the limits are not mounted yet.
    await vi.waitFor(() => {
      expect(api.requested('/api/limits')).toBe(1);
      expect(api.requested('/api/payout-addresses')).toBe(1);
    });
    expect(api.requested('/api/admin/settings')).toBe(1);
    expect(screen.queryByLabelText('You Pay')).toBeNull();

    api.release('/api/admin/settings');
    expect(await screen.findByTestId('remaining-limit', undefined, { timeout: 5_000 })).toHaveTextContent(
      'You can trade up to $1,250.00 more',
    );
    // The quote step used the answer already read: no second read when it mounted.
    expect(api.requested('/api/limits')).toBe(1);
    expect(api.requested('/api/payout-addresses')).toBe(1);
  });

  it('reads only the public terms for a visitor: no limits, no address book', async () => {
    const api = stubCustomerReads();
    renderWidget();
    await screen.findByLabelText('You Pay', undefined, { timeout: 5_000 });

    expect(api.requested('/api/admin/settings')).toBe(1);
    expect(api.requested('/api/limits')).toBe(0);
    expect(api.requested('/api/payout-addresses')).toBe(0);
  });
});
