import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import WorkQueuePage from './work-queue-page';

const emptyQueue = { paymentsToCheck: [], bitcoinToSend: [], sellPayoutsDue: [], flagged: [] };

let alerts: { id: string; message: string }[] = [];
let bitcoinToSend: object[] = [];

/** A paid Zelle buy waiting for its bitcoin, as the queue answers it. */
const paidBuy = (id: string, payoutBatch: { id: string; status: string } | null) => ({
  _id: id,
  userId: 'user-1',
  pair: 'BTC-USD',
  type: 'buy',
  amount: 0.002,
  price: 67_000,
  value: 140,
  platformFee: 2.1,
  networkFee: 0.79,
  bankFee: 0,
  status: 'processing',
  createdAt: '2026-11-23T01:00:00.000Z',
  expiresAt: '2026-11-23T01:15:00.000Z',
  txn: null,
  bankTxn: null,
  walletAddress: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
  confirmations: 0,
  flag: null,
  payment: null,
  customerEmail: 'ada@example.com',
  flagNote: null,
  cancelReason: null,
  receivedSats: null,
  depositIndex: null,
  paymentConfirmedAt: '2026-11-23T01:05:00.000Z',
  paymentConfirmedBy: 'admin@offzero.local',
  paypalOrderId: null,
  completedAt: null,
  updatedAt: '2026-11-23T01:05:00.000Z',
  payoutBatch,
});

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url.startsWith('/api/admin/queue')) return jsonResponse({ ...emptyQueue, bitcoinToSend, alerts });
      if (url.startsWith('/api/admin/kyc')) return jsonResponse({ cases: [] });
      if (url.startsWith('/api/admin/cases')) return jsonResponse({ cases: [] });
      return jsonResponse({ message: 'Not found' }, 404);
    }),
  );
  saveSessionToken(fakeSessionToken('admin-1'));
  saveCsrfToken('csrf-1');
});

afterEach(() => {
  bitcoinToSend = [];
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the work queue', () => {
  it('shows a system alert (a sanctions list that failed to refresh) above the work', async () => {
    alerts = [
      {
        id: 'sanctions-list',
        message: 'The last sanctions list refresh failed (HTTP 500); the list of 2026-11-20 stays in force.',
      },
    ];
    renderWithProviders(<WorkQueuePage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('The last sanctions list refresh failed');
  });

  it('shows no alert when the system is healthy', async () => {
    alerts = [];
    renderWithProviders(<WorkQueuePage />);
    expect(await screen.findByText(/Nothing is waiting for a person/)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('lists a buy held by a payout batch with the batch and its state, leading to the Payouts page', async () => {
    bitcoinToSend = [
      paidBuy('11111111-1111-4111-8111-111111111111', {
        id: 'abcdef12-0000-4000-8000-000000000000',
        status: 'awaiting_signature',
      }),
      paidBuy('22222222-2222-4222-8222-222222222222', null),
    ];
    renderWithProviders(<WorkQueuePage />);
    const section = await screen.findByTestId('queue-section-bitcoin');
    // The table (wide screens) and the cards (phones) both show it.
    const held = (await within(section).findAllByTestId('queue-batch'))[0]!;
    expect(held).toHaveTextContent('Batch abcdef12');
    expect(held).toHaveTextContent('Waiting for signature');
    expect(held.closest('a')).toHaveAttribute('href', '/admin/payouts');
    expect(within(section).getAllByText('Not in a batch').length).toBeGreaterThan(0);
    expect(within(section).getByText(/A buy already in a batch is paid by that batch/)).toBeInTheDocument();
  });
});
