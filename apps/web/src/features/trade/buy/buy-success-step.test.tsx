import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Order } from '@offzero/shared/api/orders';
import { renderWithProviders } from '../../../test/test-utils';
import { BuySuccessStep } from './buy-success-step';

const paidByPayPal: Order = {
  _id: '25a55680-0000-4000-8000-000000000001',
  userId: 'user-1',
  pair: 'BTC-USD',
  type: 'buy',
  amount: 0.0025,
  value: 250,
  price: 97_123.45,
  platformFee: 3.75,
  networkFee: 1.37,
  bankFee: 0,
  status: 'processing',
  createdAt: '2026-11-29T05:00:00.000Z',
  expiresAt: '2026-11-29T05:15:00.000Z',
  txn: null,
  bankTxn: 'DEMOCAP-1',
  walletAddress: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
  confirmations: 0,
  flag: null,
  payment: {
    method: 'paypal',
    status: 'COMPLETED',
    amount: 250,
    create_time: null,
    receiving_in: {},
  },
};

describe('BuySuccessStep', () => {
  it('says the bitcoin waits for the e-mailed address confirmation when the server says it does', () => {
    const waits = 'We send your bitcoin once you confirm the address: open the link we e-mailed you.';
    renderWithProviders(<BuySuccessStep order={{ ...paidByPayPal, payoutHold: waits }} />);
    expect(screen.getByTestId('payout-wait-note')).toHaveTextContent(waits);
  });

  it('shows no wait when nothing holds the payout', () => {
    renderWithProviders(<BuySuccessStep order={paidByPayPal} />);
    expect(screen.queryByTestId('payout-wait-note')).not.toBeInTheDocument();
    expect(screen.getByText('DEMOCAP-1')).toBeInTheDocument();
  });
});
