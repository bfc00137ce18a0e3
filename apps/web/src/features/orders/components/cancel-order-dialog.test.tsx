import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '@offzero/shared/api/orders';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import { OrderDetailsDrawer } from './order-details-drawer';

const ORDER_ID = '3f1c2a4b-5d6e-4f70-8a9b-0c1d2e3f4a5b';

function order(overrides: Partial<Order> = {}): Order {
  return {
    _id: ORDER_ID,
    userId: 'user-1',
    pair: 'BTC-USD',
    type: 'buy',
    amount: 0.0005,
    price: 98_000,
    value: 50,
    platformFee: 0.75,
    networkFee: 1.2,
    bankFee: 0,
    status: 'pending',
    createdAt: '2026-03-01T10:00:00.000Z',
    expiresAt: '2026-03-01T10:15:00.000Z',
    txn: null,
    bankTxn: null,
    walletAddress: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
    confirmations: 0,
    flag: null,
    payment: null,
    ...overrides,
  };
}

let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;

beforeEach(() => {
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>();
  // The drawer also reads the order's timeline; these tests are about the cancel call.
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) =>
    input.endsWith('/timeline')
      ? Promise.resolve(jsonResponse({ timeline: [], confirmations: null }))
      : fetchMock(input, init),
  );
  saveSessionToken(fakeSessionToken('user-1'));
  saveCsrfToken('csrf-1');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const openDialog = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.click(screen.getByRole('button', { name: 'Cancel order' }));
  return screen.getByRole('dialog', { name: /Cancel order #/ });
};

/** docs/design.md: the customer cancels their own pending order from its details, saying why. */
describe('OrderDetailsDrawer, cancelling an order', () => {
  it('asks for a reason, sends it once with a key while the button is busy, and closes on success', async () => {
    const user = userEvent.setup();
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderWithProviders(<OrderDetailsDrawer order={order()} onClose={() => undefined} />);

    const dialog = await openDialog(user);
    const confirm = within(dialog).getByRole('button', { name: 'Cancel order' });
    // Too short: refused before anything is sent.
    await user.type(within(dialog).getByLabelText('Why do you cancel?'), 'no');
    await user.click(confirm);
    expect(within(dialog).getByText(/at least 3 characters/)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await user.type(within(dialog).getByLabelText('Why do you cancel?'), 't needed any more');
    await user.dblClick(confirm);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(within(dialog).getByRole('button', { name: /Cancel order/ })).toBeDisabled();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/order/cancel');
    expect(JSON.parse(init?.body as string)).toEqual({ _id: ORDER_ID, reason: 'not needed any more' });
    expect((init?.headers as Record<string, string>)['Idempotency-Key']).toMatch(/^[0-9a-f]{32}$/);

    fetchMock.mockResolvedValue(jsonResponse({ result: { orders: [] } }));
    answer(
      jsonResponse({
        message: 'Order #3f1c2a4b has been cancelled.',
        order: order({ status: 'cancelled', cancelReason: 'not needed any more' }),
      }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: /Cancel order #/ })).not.toBeInTheDocument(),
    );
  });

  it('shows the server’s refusal in the dialog and lets the customer try again', async () => {
    const user = userEvent.setup();
    fetchMock.mockResolvedValue(
      jsonResponse({ message: 'This order is already cancelled.', code: 'CONFLICT' }, 409),
    );
    renderWithProviders(<OrderDetailsDrawer order={order()} onClose={() => undefined} />);
    const dialog = await openDialog(user);
    await user.type(within(dialog).getByLabelText('Why do you cancel?'), 'Changed my mind');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(await within(dialog).findByText('This order is already cancelled.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel order' })).toBeEnabled();
  });

  it('offers no cancel on an order past pending, and shows why a cancelled order was cancelled', () => {
    renderWithProviders(
      <OrderDetailsDrawer
        order={order({ status: 'cancelled', cancelReason: 'The wallet address could not be verified.' })}
        onClose={() => undefined}
      />,
    );
    expect(screen.getByTestId('order-cancel-reason')).toHaveTextContent(
      'Cancelled: The wallet address could not be verified.',
    );
    expect(screen.queryByRole('button', { name: 'Cancel order' })).not.toBeInTheDocument();
  });
});
