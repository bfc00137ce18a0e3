import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '@offzero/shared/api/orders';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import { fakeSessionToken, jsonResponse, renderWithProviders, testConfig } from '../../../test/test-utils';
import { SellDepositStep } from './sell-deposit-step';

const DEPOSIT_ADDRESS = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';

const pendingSell = (): Order => ({
  _id: '7a1c2a4b-5d6e-4f70-8a9b-0c1d2e3f4a5b',
  userId: 'user-1',
  pair: 'BTC-USD',
  type: 'sell',
  amount: 0.0025,
  price: 96_500,
  value: 236.63,
  platformFee: 3.62,
  networkFee: 0,
  bankFee: 0,
  status: 'pending',
  createdAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 20 * 60_000).toISOString(),
  txn: null,
  bankTxn: null,
  walletAddress: { address: DEPOSIT_ADDRESS, amount: 0.0025 },
  confirmations: 0,
  flag: null,
  payment: null,
});

let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  saveSessionToken(fakeSessionToken());
  saveCsrfToken('csrf-1');
  fetchMock = vi.fn((input: string) =>
    Promise.resolve(
      new URL(input, 'http://localhost').pathname === '/api/dev/chain/send'
        ? jsonResponse({ txid: 'a'.repeat(64) })
        : jsonResponse({ message: 'Not here.', code: 'NOT_FOUND' }, 404),
    ),
  );
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const renderStep = (mode: 'demo' | 'production') =>
  renderWithProviders(<SellDepositStep order={pendingSell()} closed={null} onRestart={() => {}} />, {
    config: { ...testConfig, mode },
  });

describe('the deposit step', () => {
  it('in demo mode pays the exact deposit from the demo wallet once, with the CSRF token', async () => {
    const user = userEvent.setup();
    renderStep('demo');
    const pay = screen.getByRole('button', { name: 'Pay from the demo wallet' });
    await user.dblClick(pay);
    expect(await screen.findByText(/^Sent from the demo wallet/)).toBeInTheDocument();
    expect(pay).toBeDisabled();

    const sends = fetchMock.mock.calls.filter(([input]) => String(input).endsWith('/api/dev/chain/send'));
    expect(sends).toHaveLength(1);
    const [, init] = sends[0]! as [string, RequestInit];
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ 'X-CSRF-Token': 'csrf-1' });
    expect(JSON.parse(init.body as string)).toEqual({ address: DEPOSIT_ADDRESS, amount: 0.0025 });
  });

  it('offers no demo wallet in production', () => {
    renderStep('production');
    expect(screen.getByRole('heading', { name: 'Please send 0.002500 BTC' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay from the demo wallet' })).toBeNull();
  });
});
