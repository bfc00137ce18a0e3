import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../test/test-utils';
import { saveSessionToken } from '../../lib/session-storage';
import ReferralHistoryPage, { NO_REFERRAL_REWARDS } from './referral-history-page';

let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;

beforeEach(() => {
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>();
  vi.stubGlobal('fetch', fetchMock);
  saveSessionToken(fakeSessionToken('user-1'));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ReferralHistoryPage', () => {
  it('lists the rewards with shortened ids, dollar amounts and local dates', async () => {
    const createdAt = '2025-03-04T15:06:07.000Z';
    fetchMock.mockResolvedValue(
      jsonResponse({
        referrals: [
          {
            _id: 'r1',
            referrer_id: '3f2b8c1e-9a4d-4c7e-8b1a-2d5e6f7a8b9c',
            referred_id: 'user-1',
            platform_fee: 15.3,
            reward_amount: 1.53,
            order_id: '7d9e1f2a-3b4c-4d5e-9f60-718293a4b5c6',
            createdAt,
          },
        ],
      }),
    );
    renderWithProviders(<ReferralHistoryPage />);

    const table = await screen.findByTestId('referral-history-table');
    expect(fetchMock).toHaveBeenCalledWith('/api/referral/history?referred_id=user-1', expect.anything());
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Referrer', 'Referred By ($)', 'Reward ($)', 'Order Id', 'Date']);
    const cells = within(within(table).getAllByRole('row')[1]!).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent('3f2b8c...7a8b9c');
    expect(cells[1]).toHaveTextContent('$15.30');
    expect(cells[2]).toHaveTextContent('$1.53');
    expect(cells[3]).toHaveTextContent('7d9e1f...a4b5c6');
    expect(cells[4]).toHaveTextContent(new Date(createdAt).toLocaleString());
    expect(within(cells[0]!).getByRole('button', { name: 'Copy referrer id' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Settings' })).toHaveAttribute('href', '/settings');
  });

  it('shows the empty state when there are no rewards', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ referrals: [] }));
    renderWithProviders(<ReferralHistoryPage />);
    expect(await screen.findByText(NO_REFERRAL_REWARDS)).toBeInTheDocument();
  });

  it('only logs a failed fetch and shows the empty state', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    fetchMock.mockResolvedValue(jsonResponse({ message: 'Down for maintenance.' }, 503));
    renderWithProviders(<ReferralHistoryPage />);
    expect(await screen.findByText(NO_REFERRAL_REWARDS)).toBeInTheDocument();
    expect(logged).toHaveBeenCalled();
    expect(screen.queryByText('Down for maintenance.')).not.toBeInTheDocument();
  });
});
