import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from '../../lib/toast';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveCsrfToken, saveSessionToken } from '../../lib/session-storage';
import { lockedQuoteAnswer } from '../../test/locked-quote-answer';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../test/test-utils';
import { PriceProvider } from './price-context';
import { TradeWidget } from './trade-widget';
import { price, settings, verifiedUser } from '../../test/trade-fixtures';

/** docs/design.md: Pay and "Send … BTC" are busy while their call runs, and one action sends one key. */
const userSettings = {
  bankAccount: {
    bank_name: 'First Demo Bank',
    account_name: 'Ada Lovelace',
    account_number: '000123456789',
    address: '1 Main St',
    routing_number: '021000021',
    swift: '',
  },
  walletAddress: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
  zelleEmail: null,
  referralCode: null,
  receiveEmail: true,
  receiveSMS: true,
};

/** The saves the widget sent, each answered when the test says so. */
interface PendingSave {
  headers: Record<string, string>;
  body: unknown;
  answer: (response: Response) => void;
}

function mockApi() {
  const saves: PendingSave[] = [];
  const fetchMock = vi.fn((input: string, init?: RequestInit) => {
    const path = new URL(input, 'http://localhost').pathname;
    if (path === '/api/order/save') {
      return new Promise<Response>((resolve) => {
        saves.push({
          headers: (init?.headers ?? {}) as Record<string, string>,
          body: JSON.parse(init?.body as string),
          answer: resolve,
        });
      });
    }
    if (path === '/api/price') return Promise.resolve(jsonResponse(price));
    if (path === '/api/quotes')
      return Promise.resolve(
        jsonResponse(lockedQuoteAnswer(JSON.parse(init?.body as string), price, settings)),
      );
    if (path === '/api/admin/settings') return Promise.resolve(jsonResponse({ settings }));
    if (path === '/api/user/settings') return Promise.resolve(jsonResponse({ settings: userSettings }));
    if (path.startsWith('/api/user/')) return Promise.resolve(jsonResponse({ user: verifiedUser }));
    if (path.startsWith('/api/kyc/'))
      return Promise.resolve(jsonResponse({ kyc: { _id: 'k1', status: 'GREEN', reviewNote: null } }));
    return Promise.resolve(jsonResponse({ message: `unexpected ${path}` }, 404));
  });
  vi.stubGlobal('fetch', fetchMock);
  return saves;
}

function renderWidget() {
  return renderWithProviders(
    <Routes>
      <Route
        path="/"
        element={
          <PriceProvider>
            <TradeWidget />
          </PriceProvider>
        }
      />
    </Routes>,
  );
}

const unavailable = () =>
  jsonResponse(
    { message: 'OffZero is temporarily unavailable. Try again in a moment.', code: 'UNAVAILABLE' },
    503,
  );

beforeEach(() => {
  saveSessionToken(fakeSessionToken('user-1'));
  saveCsrfToken('csrf-1');
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(toast, 'error');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function continueFromQuote(user: ReturnType<typeof userEvent.setup>, amount: string) {
  await user.type(await screen.findByLabelText('You Pay'), amount);
  const continueButton = screen.getByRole('button', { name: 'Continue' });
  await vi.waitFor(() => expect(continueButton).toBeEnabled());
  await user.click(continueButton);
}

describe('double submission in the trade widget', () => {
  it('disables Pay while the save runs, saves once on a double click, and retries with the same key', async () => {
    const saves = mockApi();
    const user = userEvent.setup();
    renderWidget();
    await continueFromQuote(user, '250');
    const panel = await screen.findByRole('tabpanel');
    const pay = within(panel).getByRole('button', { name: 'Pay $250.00' });

    await user.dblClick(pay);
    await vi.waitFor(() => expect(saves).toHaveLength(1));
    expect(within(panel).getByRole('button', { name: /Pay \$250\.00/ })).toBeDisabled();
    await user.click(within(panel).getByRole('button', { name: /Pay \$250\.00/ }));
    expect(saves).toHaveLength(1);
    const key = saves[0]!.headers['Idempotency-Key'];
    expect(key).toMatch(/^[0-9a-f]{32}$/);

    // The server could not answer: the same Pay, tried again, carries the same key.
    saves[0]!.answer(unavailable());
    await vi.waitFor(() => expect(within(panel).getByRole('button', { name: 'Pay $250.00' })).toBeEnabled());
    await user.click(within(panel).getByRole('button', { name: 'Pay $250.00' }));
    await vi.waitFor(() => expect(saves).toHaveLength(2));
    expect(saves[1]!.headers['Idempotency-Key']).toBe(key);
    expect(saves[1]!.body).toEqual(saves[0]!.body);
  });

  it('disables "Send … BTC" while the save runs and saves once on a double click', async () => {
    const saves = mockApi();
    const user = userEvent.setup();
    renderWidget();
    await user.click(await screen.findByRole('tab', { name: 'Sell' }));
    await continueFromQuote(user, '0.01');
    await user.click(await screen.findByRole('button', { name: /ACH/ }));
    const send = await screen.findByRole('button', { name: 'Send 0.010000 BTC' });

    await user.dblClick(send);
    await vi.waitFor(() => expect(saves).toHaveLength(1));
    expect(screen.getByRole('button', { name: /Send 0\.010000 BTC/ })).toBeDisabled();
    expect(saves[0]!.headers['Idempotency-Key']).toMatch(/^[0-9a-f]{32}$/);

    // A refusal settles the action: the next Send is a new action with a new key.
    saves[0]!.answer(
      jsonResponse({ message: 'The price changed. Get a new quote.', code: 'PRICE_CHANGED' }, 400),
    );
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Send 0.010000 BTC' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Send 0.010000 BTC' }));
    await vi.waitFor(() => expect(saves).toHaveLength(2));
    expect(saves[1]!.headers['Idempotency-Key']).not.toBe(saves[0]!.headers['Idempotency-Key']);
  });
});
