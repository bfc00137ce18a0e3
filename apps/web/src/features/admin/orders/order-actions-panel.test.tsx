import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders, testConfig } from '../../../test/test-utils';
import type { OrderActionKind, OrderActionOffer } from '@offzero/shared/api/admin';
import { OrderActionsPanel } from './order-actions-panel';
import { adminOrder, ORDER_ID, WALLET } from '../../../test/admin-order-fixture';
import { stubAdminFetch } from '../../../test/admin-fetch';

const mockedFetch = stubAdminFetch();

const buttons = () => screen.getAllByRole('button').map((button) => button.textContent);
const allowed = (kind: OrderActionKind): OrderActionOffer => ({ kind, allowed: true, reason: null });
const blocked = (kind: OrderActionKind, reason: string): OrderActionOffer => ({
  kind,
  allowed: false,
  reason,
});

describe('OrderActionsPanel', () => {
  it('offers what the server allows, and shows a blocked action disabled with the server’s reason', () => {
    const waiting =
      'The payout waits until the customer confirms the address from the link we e-mailed them.';
    const paid = adminOrder({ paymentConfirmedAt: '2026-03-01T11:00:00.000Z' });
    const offers = [blocked('payout-btc', waiting), blocked('send-btc', waiting), allowed('cancel')];
    const { unmount } = renderWithProviders(<OrderActionsPanel order={paid} offers={offers} />);
    expect(buttons()).toEqual(['Record payout txid', 'Send via demo chain', 'Cancel order']);
    const send = screen.getByRole('button', { name: 'Send via demo chain' });
    expect(send).toBeDisabled();
    expect(send).toHaveAccessibleDescription(waiting);
    expect(screen.getByRole('button', { name: 'Cancel order' })).toBeEnabled();
    // One reason, said once for both payouts.
    expect(screen.getAllByText(waiting)).toHaveLength(1);
    unmount();

    // Outside demo mode there is no demo chain to send through.
    renderWithProviders(
      <OrderActionsPanel order={paid} offers={[allowed('payout-btc'), allowed('send-btc')]} />,
      {
        config: { ...testConfig, mode: 'production' },
      },
    );
    expect(buttons()).toEqual(['Record payout txid']);
  });

  it('says nothing is left to do when the server offers nothing', () => {
    renderWithProviders(<OrderActionsPanel order={adminOrder({ status: 'completed' })} offers={[]} />);
    expect(screen.getByText('This order is completed. Nothing is left to do.')).toBeInTheDocument();
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it('confirms before marking a payment received, then posts it', async () => {
    const user = userEvent.setup();
    mockedFetch().mockResolvedValue(
      jsonResponse({ message: 'Done.', order: adminOrder({ paymentConfirmedAt: 'x' }) }),
    );
    renderWithProviders(
      <OrderActionsPanel order={adminOrder()} offers={[allowed('mark-paid'), allowed('cancel')]} />,
    );
    await user.click(screen.getByRole('button', { name: 'Mark payment received' }));

    const dialog = screen.getByRole('dialog', { name: 'Mark payment received' });
    expect(dialog).toHaveTextContent('Confirm that $250.00 arrived by Zelle.');
    expect(dialog).toHaveTextContent('ZL-42');
    expect(mockedFetch()).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText(/Note/), 'Seen in the bank');
    await user.click(screen.getByRole('button', { name: 'Mark received' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [url, init] = mockedFetch().mock.calls[0]!;
    expect(url).toBe(`/api/admin/orders/${ORDER_ID}/mark-paid`);
    expect(init?.method).toBe('POST');
    expect(JSON.parse(init?.body as string)).toEqual({ note: 'Seen in the bank' });
  });

  it('says it waits for a second approver when the server answers 202 (four eyes)', async () => {
    const user = userEvent.setup();
    mockedFetch().mockResolvedValue(
      jsonResponse(
        {
          message: 'Waiting for a second approver.',
          approval: { id: 'approval-1', action: 'order.mark_paid', requestedBy: 'admin@offzero.local' },
        },
        202,
      ),
    );
    renderWithProviders(
      <OrderActionsPanel order={adminOrder({ value: 5000 })} offers={[allowed('mark-paid')]} />,
    );
    await user.click(screen.getByRole('button', { name: 'Mark payment received' }));
    await user.click(screen.getByRole('button', { name: 'Mark received' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('status')).toHaveTextContent('Waiting for a second approver');
    expect(screen.getByRole('status')).toHaveTextContent('admin@offzero.local');
  });

  it('checks the txid before sending, and shows the server’s refusal in the dialog', async () => {
    const user = userEvent.setup();
    mockedFetch().mockResolvedValue(
      jsonResponse({ message: 'This order changed meanwhile. Reload it.' }, 409),
    );
    renderWithProviders(
      <OrderActionsPanel
        order={adminOrder({ paymentConfirmedAt: '2026-03-01T11:00:00.000Z' })}
        offers={[allowed('payout-btc')]}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Record payout txid' }));
    const txid = screen.getByLabelText('Transaction id');
    await user.type(txid, 'not-a-txid');
    await user.click(screen.getByRole('button', { name: 'Record payout' }));
    expect(screen.getByText('Enter the 64-character hexadecimal transaction id.')).toBeInTheDocument();
    expect(mockedFetch()).not.toHaveBeenCalled();

    await user.clear(txid);
    await user.type(txid, 'ab'.repeat(32));
    await user.click(screen.getByRole('button', { name: 'Record payout' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This order changed meanwhile. Reload it.');
    expect(JSON.parse(mockedFetch().mock.calls[0]![1]?.body as string)).toEqual({ txid: 'ab'.repeat(32) });
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('needs a reason to cancel', async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <OrderActionsPanel
        order={adminOrder({ status: 'pending', payment: null })}
        offers={[allowed('cancel')]}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Cancel order' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel this order' });
    expect(dialog).toHaveTextContent('This cannot be undone.');
    await user.click(screen.getAllByRole('button', { name: 'Cancel order' }).at(-1)!);
    expect(screen.getByText('Give a reason of at least 3 characters.')).toBeInTheDocument();
    expect(mockedFetch()).not.toHaveBeenCalled();
  });

  it('confirms before recording bitcoin returned for a held sell, then posts the address and txid', async () => {
    const user = userEvent.setup();
    const held = adminOrder({
      type: 'sell',
      walletAddress: { address: 'tb1qdeposit', amount: 0.01 },
      flag: 'over_limit',
      flagNote: 'over limit: held',
      receivedSats: '100000000',
    });
    mockedFetch().mockResolvedValue(
      jsonResponse({ message: 'Done.', order: { ...held, status: 'cancelled' } }),
    );
    renderWithProviders(<OrderActionsPanel order={held} offers={[allowed('refund-btc')]} />);
    await user.click(screen.getByRole('button', { name: 'Refund BTC' }));
    const dialog = screen.getByRole('dialog', { name: 'Record the bitcoin returned' });
    expect(dialog).toHaveTextContent('The order is cancelled');
    await user.type(screen.getByLabelText('Customer’s address'), 'nonsense');
    await user.type(screen.getByLabelText('Transaction id'), 'cd'.repeat(32));
    await user.click(screen.getByRole('button', { name: 'Record return' }));
    expect(
      screen.getByText('Enter the bitcoin address the coins were sent to. This is not a bitcoin address.'),
    ).toBeInTheDocument();
    expect(mockedFetch()).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText('Customer’s address'));
    await user.type(screen.getByLabelText('Customer’s address'), WALLET);
    await user.click(screen.getByRole('button', { name: 'Record return' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [url, init] = mockedFetch().mock.calls[0]!;
    expect(url).toBe(`/api/admin/orders/${ORDER_ID}/refund-btc`);
    expect(JSON.parse(init?.body as string)).toEqual({ address: WALLET, txid: 'cd'.repeat(32) });
  });

  it('records a scam cancel’s dollar refund with its reference', async () => {
    const user = userEvent.setup();
    const cancelled = adminOrder({
      status: 'cancelled',
      cancelReason: 'The customer cancelled it as a scam.',
    });
    mockedFetch().mockResolvedValue(jsonResponse({ message: 'Done.', order: cancelled }));
    renderWithProviders(<OrderActionsPanel order={cancelled} offers={[allowed('refund-usd')]} />);
    await user.click(screen.getByRole('button', { name: 'Record USD refund' }));
    const dialog = screen.getByRole('dialog', { name: 'Record the dollar refund' });
    expect(dialog).toHaveTextContent('Send $250.00 back to the customer by Zelle first');
    expect(dialog).toHaveTextContent('The order stays cancelled');
    await user.type(screen.getByLabelText('Refund reference'), 'ab');
    await user.click(screen.getByRole('button', { name: 'Record refund' }));
    expect(screen.getByText('Enter the payout reference (4 to 100 characters).')).toBeInTheDocument();
    expect(mockedFetch()).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText('Refund reference'));
    await user.type(screen.getByLabelText('Refund reference'), 'ZELLE-RF-0042');
    await user.click(screen.getByRole('button', { name: 'Record refund' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [url, init] = mockedFetch().mock.calls[0]!;
    expect(url).toBe(`/api/admin/orders/${ORDER_ID}/refund-usd`);
    expect(JSON.parse(init?.body as string)).toEqual({ reference: 'ZELLE-RF-0042' });
  });
});
