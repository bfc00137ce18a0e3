import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '@offzero/shared/api/orders';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../lib/session-storage';
import OrdersRoute from './orders';

function order(overrides: Partial<Order>): Order {
  return {
    _id: 'aaaaaaaa-0000-4000-8000-000000000000',
    userId: 'user-1',
    pair: 'BTC-USD',
    type: 'buy',
    amount: 0.0025,
    price: 98_000,
    value: 250,
    platformFee: 3.75,
    networkFee: 1.2,
    bankFee: 0,
    status: 'pending',
    createdAt: '2026-03-01T10:00:00.000Z',
    expiresAt: '2026-03-01T10:15:00.000Z',
    txn: null,
    bankTxn: null,
    walletAddress: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
    confirmations: 0,
    flag: null,
    payment: null,
    ...overrides,
  };
}

const zellePayment = {
  method: 'zelle' as const,
  status: 'SUBMITTED',
  amount: 250,
  create_time: '2026-03-01T10:01:00.000Z',
  receiving_in: {},
};

const orders: Order[] = [
  order({ _id: 'pending1-0000-4000-8000-000000000000' }),
  order({ _id: 'awaiting-0000-4000-8000-000000000000', status: 'processing', payment: zellePayment }),
  order({
    _id: 'referenc-0000-4000-8000-000000000000',
    status: 'processing',
    payment: zellePayment,
    bankTxn: 'ZL-42',
  }),
  order({ _id: 'complete-0000-4000-8000-000000000000', status: 'completed', txn: 'ab'.repeat(32) }),
  order({ _id: 'sellsell-0000-4000-8000-000000000000', type: 'sell', status: 'completed', amount: 0.0025 }),
];

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) =>
      input.startsWith('/api/order/list')
        ? jsonResponse({ result: { orders } })
        : jsonResponse({ message: 'unexpected', code: 'NOT_FOUND' }, 404),
    ),
  );
  saveSessionToken(fakeSessionToken('user-1'));
  saveCsrfToken('csrf-1');
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const rowOf = (id: string) =>
  screen.getAllByTestId('order-row').find((row) => row.getAttribute('data-order-id') === id)!;

describe('My Orders with the trade feature’s parts', () => {
  it('gives each order the next step the trade feature offers, and nothing to a finished one', async () => {
    renderWithProviders(<OrdersRoute />);
    await screen.findAllByTestId('order-row');

    expect(within(rowOf(orders[0]!._id)).getByRole('button', { name: 'Complete Order' })).toBeInTheDocument();
    expect(within(rowOf(orders[1]!._id)).getByLabelText('Add Bank Tx Ref No.')).toBeInTheDocument();
    expect(within(rowOf(orders[2]!._id)).getByText('ZL-42')).toBeInTheDocument();
    expect(within(rowOf(orders[3]!._id)).queryByRole('button', { name: 'Complete Order' })).toBeNull();

    // The cards (below 1024 px) carry the same next steps; a finished order's card only opens details.
    const [pending, awaiting, referenced, completed] = screen.getAllByTestId('order-card');
    expect(within(pending!).getByRole('button', { name: 'Complete Order' })).toBeInTheDocument();
    expect(within(awaiting!).getByLabelText('Add Bank Tx Ref No.')).toBeInTheDocument();
    expect(within(referenced!).getByText('ZL-42')).toBeInTheDocument();
    expect(within(completed!).getAllByRole('button')).toHaveLength(1);
  });

  it('opens the trade widget for a pending order in a dialog', async () => {
    const user = userEvent.setup();
    renderWithProviders(<OrdersRoute />);
    await screen.findAllByTestId('order-row');
    await user.click(within(rowOf(orders[0]!._id)).getByRole('button', { name: 'Complete Order' }));
    expect(screen.getByRole('dialog', { name: 'Complete order #pending1' })).toBeInTheDocument();
  });

  it('writes every bitcoin amount to 6 decimals, a sell as a buy', async () => {
    renderWithProviders(<OrdersRoute />);
    await screen.findAllByTestId('order-row');
    expect(within(rowOf(orders[0]!._id)).getByText('0.002500')).toBeInTheDocument();
    expect(within(rowOf(orders[4]!._id)).getByText('0.002500')).toBeInTheDocument();
    expect(within(screen.getAllByTestId('order-card')[4]!).getByText('0.002500 BTC')).toBeInTheDocument();
  });

  it('shows every column of the specification at every table width, the next step under the status', async () => {
    renderWithProviders(<OrdersRoute />);
    await screen.findAllByTestId('order-row');
    const table = screen.getByRole('table', { name: 'Your orders' });
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual([
      'Order',
      'Pair',
      'Amount',
      'Price',
      'Value',
      'Date',
      'Status',
    ]);
    // None waits for a wider screen (the browser tests check that they fit at 1024 px).
    const narrowHidden = headers.filter((header) => header.className.split(' ').includes('hidden'));
    expect(narrowHidden).toEqual([]);
    // The date keeps its day and its time whole, on two lines.
    const date = within(rowOf(orders[0]!._id)).getAllByRole('cell')[5]!;
    const [day, time] = within(date).getAllByText(/./, { selector: '.block' });
    const full = new Date(orders[0]!.createdAt).toLocaleString('en-US', {
      dateStyle: 'medium',
      timeStyle: 'short',
    });
    expect(`${day!.textContent}, ${time!.textContent}`).toBe(full);
  });
});
