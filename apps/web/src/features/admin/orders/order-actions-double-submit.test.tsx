import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { OrderActionsPanel } from './order-actions-panel';
import { adminOrder, ORDER_ID } from '../../../test/admin-order-fixture';
import { stubAdminFetch } from '../../../test/admin-fetch';

const mockedFetch = stubAdminFetch();

/** docs/design.md: a staff action is busy while it runs and one confirmation sends one key. */
describe('OrderActionsPanel, double submission', () => {
  it('disables "Send bitcoin" while the call runs and sends once on a double click, with a key', async () => {
    const user = userEvent.setup();
    let answer: (response: Response) => void = () => undefined;
    mockedFetch().mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    const paid = adminOrder({ paymentConfirmedAt: '2026-03-01T11:00:00.000Z' });
    renderWithProviders(
      <OrderActionsPanel order={paid} offers={[{ kind: 'send-btc', allowed: true, reason: null }]} />,
    );
    await user.click(screen.getByRole('button', { name: 'Send via demo chain' }));

    await user.dblClick(screen.getByRole('button', { name: 'Send bitcoin' }));
    await waitFor(() => expect(mockedFetch()).toHaveBeenCalledTimes(1));
    expect(screen.getByRole('button', { name: /Send bitcoin/ })).toBeDisabled();
    const [url, init] = mockedFetch().mock.calls[0]!;
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
    expect(mockedFetch()).toHaveBeenCalledTimes(1);
  });
});
