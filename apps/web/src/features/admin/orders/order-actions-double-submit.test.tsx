import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
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

/** DESIGN.md 7.5 and 7.7: a staff action is busy while it runs and one confirmation sends one key. */
describe('OrderActionsPanel, double submission', () => {
  it('disables "Send bitcoin" while the call runs and sends once on a double click, with a key', async () => {
    const user = userEvent.setup();
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    const paid = order({ paymentConfirmedAt: '2026-03-01T11:00:00.000Z' });
    renderWithProviders(<OrderActionsPanel order={paid} confirmationsRequired={1} />);
    await user.click(screen.getByRole('button', { name: 'Send via demo chain' }));

    await user.dblClick(screen.getByRole('button', { name: 'Send bitcoin' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(screen.getByRole('button', { name: /Send bitcoin/ })).toBeDisabled();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(`/api/admin/orders/${ORDER_ID}/send-btc`);
    const key = (init?.headers as Record<string, string>)['Idempotency-Key'];
    expect(key).toMatch(/^[0-9a-f]{32}$/);

    // The payout is in flight on the server: its message is shown, and the button works again.
    answer(
      jsonResponse(
        {
          message: 'A payout of this order is already in flight. Do not send again: check the chain.',
          code: 'CONFLICT',
        },
        409,
      ),
    );
    expect(await screen.findByText(/already in flight/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send bitcoin' })).toBeEnabled();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
