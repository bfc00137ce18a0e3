import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order, OrderTimelineResponse } from '@offzero/shared/api/orders';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveSessionToken } from '../../../lib/session-storage';
import { OrderDetailsDrawer } from './order-details-drawer';

const ORDER_ID = '7a1c2a4b-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const TXID = 'ab'.repeat(32);

const sell: Order = {
  _id: ORDER_ID,
  userId: 'user-1',
  pair: 'BTC-USD',
  type: 'sell',
  amount: 0.005,
  price: 66_000,
  value: 320.5,
  platformFee: 4.95,
  networkFee: 0,
  bankFee: 0,
  status: 'processing',
  createdAt: '2026-03-01T10:00:00.000Z',
  expiresAt: '2026-03-01T10:20:00.000Z',
  txn: TXID,
  bankTxn: null,
  walletAddress: { address: 'tb1qn22l4fxz609uc3ztl0apnh6hq66efmws4x0vvc', amount: 0.005 },
  confirmations: 1,
  flag: 'underpaid',
  payment: null,
};

const timeline: OrderTimelineResponse = {
  confirmations: { count: 1, required: 2 },
  timeline: [
    {
      at: '2026-03-01T10:00:00.000Z',
      kind: 'status',
      status: 'pending',
      title: 'Order placed',
      detail: 'A deposit address was issued for your bitcoin (20 minutes to send).',
      repricing: null,
      reference: null,
    },
    {
      at: '2026-03-01T10:05:00.000Z',
      kind: 'repriced',
      status: 'processing',
      title: 'Re-priced',
      detail: 'You sent less bitcoin than the order asked for, so it was priced on what arrived.',
      repricing: {
        before: { amount: 0.006, value: 385.1, price: 66_000 },
        after: { amount: 0.005, value: 320.5, price: 66_000 },
      },
      reference: { kind: 'tx', value: TXID },
    },
  ],
};

let requests: string[] = [];

beforeEach(() => {
  requests = [];
  vi.stubGlobal('fetch', (input: string) => {
    requests.push(input);
    return Promise.resolve(jsonResponse(timeline));
  });
  saveSessionToken(fakeSessionToken('user-1'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** docs/design.md: the drawer tells the order's story in the server's plain words. */
describe('OrderDetailsDrawer, the timeline', () => {
  it('shows each step with its time, a re-pricing before and after, its transaction and confirmations N of M', async () => {
    renderWithProviders(<OrderDetailsDrawer order={sell} onClose={() => undefined} />);
    const story = await screen.findByTestId('order-timeline');
    expect(await within(story).findByText('Re-priced')).toBeInTheDocument();
    expect(requests).toEqual([`/api/order/${ORDER_ID}/timeline`]);
    expect(within(story).getByText('Order placed')).toBeInTheDocument();
    expect(
      within(story).getByText(
        'You sent less bitcoin than the order asked for, so it was priced on what arrived.',
      ),
    ).toBeInTheDocument();
    expect(within(story).getByRole('cell', { name: '0.00600000' })).toBeInTheDocument();
    expect(within(story).getByRole('cell', { name: '0.00500000' })).toBeInTheDocument();
    expect(within(story).getByRole('cell', { name: '$385.10' })).toBeInTheDocument();
    expect(within(story).getByRole('link', { name: TXID })).toHaveAttribute(
      'href',
      expect.stringMatching(new RegExp(`/tx/${TXID}$`)),
    );
    expect(screen.getByTestId('order-confirmations-progress')).toHaveTextContent('Confirmations: 1 of 2');
    // The raw flag code is never shown: the review is explained in words.
    expect(screen.queryByText(/underpaid/)).not.toBeInTheDocument();
    expect(screen.getByText(/Under review\./)).toBeInTheDocument();
  });
});
