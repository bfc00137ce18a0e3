import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_ARRIVAL_TIMING } from '@offzero/shared/api/global-settings';
import type { Order } from '@offzero/shared/api/orders';
import { jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { OrderDetailsDrawer } from './order-details-drawer';

const settings = {
  order: { platform_fees: 1.5, min_order_size: 20, max_order_size: 10_000, order_session_timeout: 900 },
  paypal: { is_active: true },
  zelle: { is_active: true },
  ach: { is_active: true },
  wire: { is_active: true },
  instant: { is_active: true },
  referral: { reward: 10, trades_eligible: 3 },
  arrival: { ...DEFAULT_ARRIVAL_TIMING, ach: 'Two business days after the transfer settles.' },
};

const achBuy: Order = {
  _id: '3f1c2a4b-5d6e-4f70-8a9b-0c1d2e3f4a5b',
  userId: 'user-1',
  pair: 'BTC-USD',
  type: 'buy',
  amount: 0.0005,
  price: 98_000,
  value: 50,
  platformFee: 0.75,
  networkFee: 1.2,
  bankFee: 0,
  status: 'processing',
  createdAt: '2026-03-01T10:00:00.000Z',
  expiresAt: '2026-03-01T10:15:00.000Z',
  txn: null,
  bankTxn: null,
  walletAddress: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
  confirmations: 0,
  flag: null,
  payment: {
    method: 'ach',
    status: 'submitted',
    amount: 50,
    create_time: '2026-03-01T10:01:00.000Z',
    receiving_in: {},
  },
};

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string) =>
      Promise.resolve(
        new URL(input, 'http://localhost').pathname === '/api/admin/settings'
          ? jsonResponse({ settings })
          : jsonResponse({ message: 'unexpected' }, 404),
      ),
    ),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('OrderDetailsDrawer, fees and arrival', () => {
  it('keeps the receipt-level breakdown and names when the order arrives by its method', async () => {
    renderWithProviders(<OrderDetailsDrawer order={achBuy} onClose={() => undefined} />);
    const details = await screen.findByTestId('order-details');
    const row = (label: string) => within(details).getByText(label, { exact: true }).parentElement;
    expect(row('Platform fee')).toHaveTextContent('$0.75');
    expect(row('Network fee')).toHaveTextContent('$1.20');
    expect(row('Value (you pay)')).toHaveTextContent('$50.00');
    // The operator's words for ACH, as the settings hold them now.
    expect(
      await within(details).findByText('Two business days after the transfer settles.'),
    ).toBeInTheDocument();
    expect(row('Arrives')).toHaveTextContent('Two business days after the transfer settles.');
  });
});
