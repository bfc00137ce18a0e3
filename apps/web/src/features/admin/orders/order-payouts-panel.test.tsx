import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { OrderPayoutView } from '@offzero/shared/api/admin';
import { renderWithProviders } from '../../../test/test-utils';
import { PayoutsPanel } from './order-payouts-panel';

const returned: OrderPayoutView = {
  id: 'p1',
  purpose: 'payout',
  rail: 'instant',
  sender: 'bank-api',
  state: 'returned',
  reference: 'real_time_payments_transfer_demo1',
  txid: null,
  createdBy: 'system:instant-payouts',
  createdAt: '2026-11-29T12:00:00.000Z',
  sentAt: null,
  bankTransfer: {
    id: 'real_time_payments_transfer_demo1',
    kind: 'rtp',
    status: 'rejected',
    traceNumber: null,
    returnCode: 'AC04',
    createdAt: '2026-11-29T12:00:01.000Z',
    settledAt: null,
  },
  bankUnavailable: false,
};

describe('PayoutsPanel', () => {
  it('shows each payout with the bank’s status and return code, or that the bank did not answer', () => {
    const resent: OrderPayoutView = {
      ...returned,
      id: 'p2',
      sender: 'operator',
      state: 'settled',
      reference: 'RESENT-1',
      createdBy: 'admin:admin@offzero.local',
      sentAt: '2026-11-29T13:00:00.000Z',
      bankTransfer: null,
    };
    renderWithProviders(<PayoutsPanel payouts={[returned, resent]} />);
    const [first, second] = screen.getAllByTestId('order-payout');
    expect(within(first!).getByText('real_time_payments_transfer_demo1')).toBeInTheDocument();
    expect(within(first!).getByText('rejected')).toBeInTheDocument();
    expect(within(first!).getByText('code AC04')).toBeInTheDocument();
    expect(within(second!).getByText('RESENT-1')).toBeInTheDocument();
    expect(within(second!).queryByText('Bank status')).toBeNull();
  });

  it('says when the bank did not answer, and shows nothing for an order without payouts', () => {
    const { unmount } = renderWithProviders(
      <PayoutsPanel payouts={[{ ...returned, bankTransfer: null, bankUnavailable: true }]} />,
    );
    expect(screen.getByText('The bank did not answer; reload later.')).toBeInTheDocument();
    unmount();
    renderWithProviders(<PayoutsPanel payouts={[]} />);
    expect(screen.queryByTestId('order-payouts')).toBeNull();
  });
});
