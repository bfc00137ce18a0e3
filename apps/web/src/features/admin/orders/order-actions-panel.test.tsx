import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSessionToken, jsonResponse, renderWithProviders, testConfig } from '../../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import type { AdminOrder } from '@offzero/shared/api/admin';
import { OrderActionsPanel } from './order-actions-panel';

const ORDER_ID = '0b7c3f5e-1a2b-4c3d-8e9f-0a1b2c3d4e5f';
const WALLET = 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7';

function order(overrides: Partial<AdminOrder> = {}): AdminOrder {
  return {
    _id: ORDER_ID,
    userId: 'customer-1',
    pair: 'BTC-USD',
    type: 'buy',
    amount: 0.0025,
    price: 98_000,
    value: 250,
    platformFee: 3.75,
    networkFee: 1.2,
    bankFee: 0,
    status: 'processing',
    createdAt: '2026-03-01T10:00:00.000Z',
    expiresAt: '2026-03-01T10:15:00.000Z',
    txn: null,
    bankTxn: 'ZL-42',
    walletAddress: WALLET,
    confirmations: 0,
    flag: null,
    payment: {
      method: 'zelle',
      status: 'SUBMITTED',
      amount: 250,
      create_time: '2026-03-01T10:01:00.000Z',
      receiving_in: { payment_address: 'payments@offzero.example' },
    },
    customerEmail: 'ada@example.com',
    flagNote: null,
    cancelReason: null,
    receivedSats: null,
    depositIndex: null,
    paymentConfirmedAt: null,
    paymentConfirmedBy: null,
    paypalOrderId: null,
    completedAt: null,
    updatedAt: '2026-03-01T10:01:00.000Z',
    ...overrides,
  };
}

let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;

beforeEach(() => {
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>();
  vi.stubGlobal('fetch', fetchMock);
  saveSessionToken(fakeSessionToken('admin-1'));
  saveCsrfToken('csrf-1');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const buttons = () => screen.getAllByRole('button').map((button) => button.textContent);

describe('OrderActionsPanel', () => {
  it('offers only what fits the state', () => {
    const { unmount } = renderWithProviders(<OrderActionsPanel order={order()} confirmationsRequired={1} />);
    expect(buttons()).toEqual(['Mark payment received', 'Cancel order']);
    unmount();

    const paid = order({ paymentConfirmedAt: '2026-03-01T11:00:00.000Z' });
    const demo = renderWithProviders(<OrderActionsPanel order={paid} confirmationsRequired={1} />);
    expect(buttons()).toEqual(['Record payout txid', 'Send via demo chain', 'Cancel order']);
    demo.unmount();

    renderWithProviders(<OrderActionsPanel order={paid} confirmationsRequired={1} />, {
      config: { ...testConfig, mode: 'production' },
    });
    expect(buttons()).toEqual(['Record payout txid', 'Cancel order']);
  });

  it('says why a sell waits, and offers nothing for a completed order', () => {
    const sell = order({
      type: 'sell',
      walletAddress: { address: 'tb1qdeposit', amount: 0.01 },
      confirmations: 0,
    });
    const { unmount } = renderWithProviders(<OrderActionsPanel order={sell} confirmationsRequired={1} />);
    expect(screen.getByText(/Waiting for confirmations: 0 of 1/)).toBeInTheDocument();
    expect(buttons()).toEqual(['Cancel order']);
    unmount();
    renderWithProviders(
      <OrderActionsPanel order={order({ status: 'completed' })} confirmationsRequired={1} />,
    );
    expect(screen.getByText('This order is completed. Nothing is left to do.')).toBeInTheDocument();
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it('confirms before marking a payment received, then posts it', async () => {
    const user = userEvent.setup();
    fetchMock.mockResolvedValue(
      jsonResponse({ message: 'Done.', order: order({ paymentConfirmedAt: 'x' }) }),
    );
    renderWithProviders(<OrderActionsPanel order={order()} confirmationsRequired={1} />);
    await user.click(screen.getByRole('button', { name: 'Mark payment received' }));

    const dialog = screen.getByRole('dialog', { name: 'Mark payment received' });
    expect(dialog).toHaveTextContent('Confirm that $250.00 arrived by Zelle.');
    expect(dialog).toHaveTextContent('ZL-42');
    expect(fetchMock).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText(/Note/), 'Seen in the bank');
    await user.click(screen.getByRole('button', { name: 'Mark received' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(`/api/admin/orders/${ORDER_ID}/mark-paid`);
    expect(init?.method).toBe('POST');
    expect(JSON.parse(init?.body as string)).toEqual({ note: 'Seen in the bank' });
  });

  it('says it waits for a second approver when the server answers 202 (four eyes)', async () => {
    const user = userEvent.setup();
    fetchMock.mockResolvedValue(
      jsonResponse(
        {
          message: 'Waiting for a second approver.',
          approval: { id: 'approval-1', action: 'order.mark_paid', requestedBy: 'admin@offzero.local' },
        },
        202,
      ),
    );
    renderWithProviders(<OrderActionsPanel order={order({ value: 5000 })} confirmationsRequired={1} />);
    await user.click(screen.getByRole('button', { name: 'Mark payment received' }));
    await user.click(screen.getByRole('button', { name: 'Mark received' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('status')).toHaveTextContent('Waiting for a second approver');
    expect(screen.getByRole('status')).toHaveTextContent('admin@offzero.local');
  });

  it('checks the txid before sending, and shows the server’s refusal in the dialog', async () => {
    const user = userEvent.setup();
    fetchMock.mockResolvedValue(jsonResponse({ message: 'This order changed meanwhile. Reload it.' }, 409));
    renderWithProviders(
      <OrderActionsPanel
        order={order({ paymentConfirmedAt: '2026-03-01T11:00:00.000Z' })}
        confirmationsRequired={1}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Record payout txid' }));
    const txid = screen.getByLabelText('Transaction id');
    await user.type(txid, 'not-a-txid');
    await user.click(screen.getByRole('button', { name: 'Record payout' }));
    expect(screen.getByText('Enter the 64-character hexadecimal transaction id.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await user.clear(txid);
    await user.type(txid, 'ab'.repeat(32));
    await user.click(screen.getByRole('button', { name: 'Record payout' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This order changed meanwhile. Reload it.');
    expect(JSON.parse(fetchMock.mock.calls[0]![1]?.body as string)).toEqual({ txid: 'ab'.repeat(32) });
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('needs a reason to cancel', async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <OrderActionsPanel order={order({ status: 'pending', payment: null })} confirmationsRequired={1} />,
    );
    await user.click(screen.getByRole('button', { name: 'Cancel order' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel this order' });
    expect(dialog).toHaveTextContent('This cannot be undone.');
    await user.click(screen.getAllByRole('button', { name: 'Cancel order' }).at(-1)!);
    expect(screen.getByText('Give a reason of at least 3 characters.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('confirms before recording bitcoin returned for a held sell, then posts the address and txid', async () => {
    const user = userEvent.setup();
    const held = order({
      type: 'sell',
      walletAddress: { address: 'tb1qdeposit', amount: 0.01 },
      flag: 'over_limit',
      flagNote: 'over limit: held',
      receivedSats: '100000000',
    });
    fetchMock.mockResolvedValue(jsonResponse({ message: 'Done.', order: { ...held, status: 'cancelled' } }));
    const { unmount } = renderWithProviders(<OrderActionsPanel order={held} confirmationsRequired={1} />);
    // Without a deposit still on the chain there is nothing to return.
    expect(buttons()).not.toContain('Refund BTC');
    unmount();

    renderWithProviders(<OrderActionsPanel order={held} confirmationsRequired={1} holdsDeposit />);
    await user.click(screen.getByRole('button', { name: 'Refund BTC' }));
    const dialog = screen.getByRole('dialog', { name: 'Record the bitcoin returned' });
    expect(dialog).toHaveTextContent('The order is cancelled');
    await user.type(screen.getByLabelText('Customer’s address'), 'nonsense');
    await user.type(screen.getByLabelText('Transaction id'), 'cd'.repeat(32));
    await user.click(screen.getByRole('button', { name: 'Record return' }));
    expect(screen.getByText('Enter the bitcoin address the coins were sent to.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText('Customer’s address'));
    await user.type(screen.getByLabelText('Customer’s address'), WALLET);
    await user.click(screen.getByRole('button', { name: 'Record return' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(`/api/admin/orders/${ORDER_ID}/refund-btc`);
    expect(JSON.parse(init?.body as string)).toEqual({ address: WALLET, txid: 'cd'.repeat(32) });
  });
});
