import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '@offzero/shared/api/orders';
import type { OrderLightningPayout } from '@offzero/shared/api/order-lightning';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import { OrderDetailsDrawer } from './order-details-drawer';

const ORDER_ID = '3f1c2a4b-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const HASH = 'a'.repeat(64);
const PREIMAGE = 'b'.repeat(64);
const INVOICE = `lntb500u1p${'q'.repeat(200)}`;

function lightningBuy(payout: Partial<OrderLightningPayout>): Order {
  return {
    _id: ORDER_ID,
    userId: 'user-1',
    pair: 'BTC-USD',
    type: 'buy',
    amount: 0.0005,
    price: 98_000,
    value: 50,
    platformFee: 0.75,
    networkFee: 0,
    bankFee: 0,
    status: 'processing',
    createdAt: '2026-03-01T10:00:00.000Z',
    expiresAt: '2026-03-01T10:15:00.000Z',
    txn: null,
    bankTxn: null,
    walletAddress: INVOICE,
    confirmations: 0,
    flag: null,
    payment: null,
    lightningPayout: {
      status: 'submitted',
      destinationKind: 'invoice',
      paymentHash: HASH,
      preimage: null,
      feeSats: null,
      failureReason: null,
      canRetry: false,
      ...payout,
    },
  };
}

const ENTRIES = [
  { id: 'pa-new', label: 'Fresh', address: 'tb1qnew', status: 'unconfirmed' },
  { id: 'pa-cold', label: 'Cold wallet', address: 'tb1qcold', status: 'usable' },
];

let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;

beforeEach(() => {
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>(() =>
    Promise.resolve(jsonResponse({ message: 'Paid again.', order: lightningBuy({}) })),
  );
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
    if (input.endsWith('/timeline'))
      return Promise.resolve(jsonResponse({ timeline: [], confirmations: null }));
    if (input.endsWith('/payout-addresses')) {
      return Promise.resolve(
        jsonResponse({
          payoutAddresses: ENTRIES.map((entry) => ({
            ...entry,
            xpub: null,
            isDefault: false,
            proven: false,
            usableAt: null,
            proofAddress: entry.address,
            createdAt: '2026-03-01T10:00:00.000Z',
          })),
        }),
      );
    }
    return fetchMock(input, init);
  });
  saveSessionToken(fakeSessionToken('user-1'));
  saveCsrfToken('csrf-1');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the drawer of a buy paid out by Lightning', () => {
  it('shows the payment hash and, once settled, the preimage as proof of payment', async () => {
    renderWithProviders(
      <OrderDetailsDrawer
        order={{ ...lightningBuy({ status: 'settled', preimage: PREIMAGE, feeSats: 3 }), txn: HASH }}
        onClose={() => undefined}
      />,
    );
    const section = await screen.findByTestId('lightning-payout');
    expect(within(section).getByTestId('lightning-payout-status')).toHaveTextContent('Settled');
    expect(within(section).getByTestId('lightning-payment-hash')).toHaveTextContent(HASH);
    expect(within(section).getByTestId('lightning-preimage')).toHaveTextContent(PREIMAGE);
    expect(within(section).getByText('Proof of payment')).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    // The invoice and the payment hash link to no block explorer.
    const details = screen.getByTestId('order-details');
    expect(within(details).getAllByText('Lightning invoice')).toHaveLength(2);
    expect(within(details).queryByRole('link', { name: new RegExp(HASH) })).not.toBeInTheDocument();
  });

  it('a failed payout says why, tries again, or goes on chain to a confirmed entry only', async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <OrderDetailsDrawer
        order={lightningBuy({ status: 'failed', failureReason: 'No route to the wallet.', canRetry: true })}
        onClose={() => undefined}
      />,
    );
    const section = await screen.findByTestId('lightning-payout');
    expect(within(section).getByTestId('lightning-failure-reason')).toHaveTextContent(
      'No route to the wallet.',
    );

    await user.click(within(section).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [retryUrl, retryInit] = fetchMock.mock.calls[0]!;
    expect(retryUrl).toBe(`/api/lightning/payouts/${ORDER_ID}/retry`);
    expect(JSON.parse(retryInit?.body as string)).toEqual({});

    await user.click(within(section).getByRole('button', { name: 'Send on-chain instead' }));
    const select = await within(section).findByLabelText('Send the bitcoin on chain to');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([expect.stringContaining('Cold wallet')]);
    await user.click(within(section).getByRole('button', { name: 'Send on-chain' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const [onchainUrl, onchainInit] = fetchMock.mock.calls[1]!;
    expect(onchainUrl).toBe(`/api/lightning/payouts/${ORDER_ID}/onchain`);
    expect(JSON.parse(onchainInit?.body as string)).toEqual({ payoutAddressId: 'pa-cold' });
  });
});
