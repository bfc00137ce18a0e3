import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from '../../../lib/toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PayoutAddress } from '@offzero/shared/api/payout-addresses';
import { lockedQuoteAnswer } from '../../../test/locked-quote-answer';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { PriceProvider } from '../price-context';
import { TradeWidget } from '../trade-widget';
import { price, settings, verifiedUser } from '../../../test/trade-fixtures';

// The buy confirmation's choice of payout address (docs/design.md): the customer's address-book
// entries, the default one chosen to begin with, an xpub entry sent by id alone, an entry not usable
// yet chosen with a note that the payout waits, and a new address typed in as before.

const WALLET = 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7';
const NEW_ADDRESS = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';
const TPUB =
  'tpubD6NzVbkrYhZ4XgiXtGrdW5XDAPFCL9h7we1vwNCpn8tGbBcgfVYjXyhkeYvbKDkDTS7ZqHQdFxVNhRW9y1eTKc8EX5tWYHGcmVQNLkdhAiL';

const entry = (overrides: Partial<PayoutAddress>): PayoutAddress => ({
  id: 'entry-wallet',
  label: 'Wallet',
  address: WALLET,
  xpub: null,
  status: 'usable',
  proven: false,
  usableAt: '2026-11-01T00:00:00.000Z',
  isDefault: false,
  proofAddress: WALLET,
  createdAt: '2026-11-01T00:00:00.000Z',
  ...overrides,
});

const book: PayoutAddress[] = [
  entry({ id: 'entry-wallet', label: 'Wallet', isDefault: true, proven: true }),
  entry({
    id: 'entry-xpub',
    label: 'Hardware wallet',
    address: null,
    xpub: TPUB,
    proofAddress: 'tb1qfirst',
  }),
  entry({ id: 'entry-new', label: 'Exchange', address: NEW_ADDRESS, status: 'unconfirmed', usableAt: null }),
];

function mockApi(entries: PayoutAddress[] | null) {
  let quotes = 0;
  const fetchMock = vi.fn((input: string, init?: RequestInit) => {
    const path = new URL(input, 'http://localhost').pathname;
    if (path === '/api/price') return Promise.resolve(jsonResponse(price));
    if (path === '/api/quotes') {
      const { quote } = lockedQuoteAnswer(
        JSON.parse(init?.body as string),
        price,
        settings,
        `quote-${++quotes}`,
      );
      return Promise.resolve(jsonResponse({ quote }));
    }
    if (path === '/api/payout-addresses') {
      return Promise.resolve(
        entries
          ? jsonResponse({ payoutAddresses: entries })
          : jsonResponse({ message: 'Down for a moment.', code: 'UNAVAILABLE' }, 503),
      );
    }
    if (path === '/api/order/save') {
      return Promise.resolve(jsonResponse({ message: 'Not saved in this test.', code: 'BAD_REQUEST' }, 400));
    }
    if (path === '/api/admin/settings') return Promise.resolve(jsonResponse({ settings }));
    if (path === '/api/user/settings') {
      return Promise.resolve(
        jsonResponse({
          settings: {
            bankAccount: null,
            walletAddress: WALLET,
            zelleEmail: null,
            referralCode: null,
            receiveEmail: true,
            receiveSMS: true,
          },
        }),
      );
    }
    if (path.startsWith('/api/user/')) return Promise.resolve(jsonResponse({ user: verifiedUser }));
    if (path.startsWith('/api/kyc/')) {
      return Promise.resolve(jsonResponse({ kyc: { _id: 'k1', status: 'GREEN', reviewNote: null } }));
    }
    return Promise.resolve(jsonResponse({ message: `unexpected ${path}` }, 404));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** From the quote to the confirmation step of a $250 buy; answers the step's panel. */
async function toConfirmation(user: ReturnType<typeof userEvent.setup>) {
  renderWithProviders(
    <PriceProvider>
      <TradeWidget />
    </PriceProvider>,
  );
  await user.type(await screen.findByLabelText('You Pay', undefined, { timeout: 5_000 }), '250');
  const continueButton = screen.getByRole('button', { name: 'Continue' });
  await vi.waitFor(() => expect(continueButton).toBeEnabled());
  await user.click(continueButton);
  // Generous: the quote is locked and the step rendered after a few fetches.
  await screen.findByRole('button', { name: 'Pay $250.00' }, { timeout: 5_000 });
  return screen.getByRole('tabpanel');
}

async function savedBody(fetchMock: ReturnType<typeof mockApi>) {
  await vi.waitFor(() =>
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/api/order/save'))).toBe(true),
  );
  const [, init] = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/order/save'))!;
  return JSON.parse(init?.body as string) as Record<string, unknown>;
}

beforeEach(() => {
  saveCsrfToken('csrf-1');
  saveSessionToken(fakeSessionToken('user-1'));
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(toast, 'error');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Buy confirmation, the payout address', () => {
  it('offers the address book with the default entry chosen, and pays it by id and address', async () => {
    const fetchMock = mockApi(book);
    const user = userEvent.setup();
    const panel = await toConfirmation(user);
    const choice = await within(panel).findByTestId('payout-address-choice', undefined, { timeout: 5_000 });
    expect(within(choice).getByRole('radio', { name: 'Wallet' })).toBeChecked();
    expect(within(choice).getAllByTestId('payout-address-option')).toHaveLength(3);
    expect(within(choice).getByText('Default')).toBeInTheDocument();
    expect(within(choice).getByText('Proven')).toBeInTheDocument();
    expect(within(choice).getByText('Not confirmed')).toBeInTheDocument();
    // No field to type in while an entry is chosen, and nothing waits.
    expect(within(panel).queryByLabelText(/^Bitcoin address/)).not.toBeInTheDocument();
    expect(within(choice).queryByTestId('payout-wait-note')).not.toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Pay $250.00' }));
    const body = await savedBody(fetchMock);
    expect(body).toMatchObject({
      payoutAddressId: 'entry-wallet',
      walletAddress: WALLET,
      quoteId: 'quote-1',
    });
  });

  it('sends an xpub entry by its id alone: the server pays a fresh address of it', async () => {
    const fetchMock = mockApi(book);
    const user = userEvent.setup();
    const panel = await toConfirmation(user);
    const choice = await within(panel).findByTestId('payout-address-choice', undefined, { timeout: 5_000 });
    await user.click(within(choice).getByRole('radio', { name: 'Hardware wallet' }));
    expect(within(choice).getByText(/a fresh address for each buy/)).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Pay $250.00' }));
    const body = await savedBody(fetchMock);
    expect(body.payoutAddressId).toBe('entry-xpub');
    expect(body).not.toHaveProperty('walletAddress');
  });

  it('lets an unconfirmed entry be chosen, saying the payout waits for its confirmation', async () => {
    const fetchMock = mockApi(book);
    const user = userEvent.setup();
    const panel = await toConfirmation(user);
    const choice = await within(panel).findByTestId('payout-address-choice', undefined, { timeout: 5_000 });
    await user.click(within(choice).getByRole('radio', { name: 'Exchange' }));
    expect(within(choice).getByTestId('payout-wait-note')).toHaveTextContent(
      'This address is not confirmed yet. You can pay now: we send your bitcoin once you open the confirmation link we e-mailed you.',
    );
    await user.click(within(panel).getByRole('button', { name: 'Pay $250.00' }));
    expect(await savedBody(fetchMock)).toMatchObject({
      payoutAddressId: 'entry-new',
      walletAddress: NEW_ADDRESS,
    });
  });

  it('still takes a new address typed in, checked as before', async () => {
    const fetchMock = mockApi(book);
    const user = userEvent.setup();
    const panel = await toConfirmation(user);
    const choice = await within(panel).findByTestId('payout-address-choice', undefined, { timeout: 5_000 });
    await user.click(within(choice).getByRole('radio', { name: 'A new address' }));
    const field = within(panel).getByLabelText(/^Bitcoin address/);
    expect(field).toHaveValue('');
    expect(choice).toHaveTextContent('We e-mail you a link to confirm it');
    await user.type(field, 'not-an-address');
    await user.click(within(panel).getByRole('button', { name: 'Pay $250.00' }));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenLastCalledWith('Invalid Bitcoin Address. This is not a bitcoin address.'),
    );
    await user.clear(field);
    await user.type(field, NEW_ADDRESS);
    await user.click(within(panel).getByRole('button', { name: 'Pay $250.00' }));
    const body = await savedBody(fetchMock);
    expect(body.walletAddress).toBe(NEW_ADDRESS);
    expect(body).not.toHaveProperty('payoutAddressId');
  });

  it('tells a first-time buyer that the bitcoin waits for the address confirmation e-mailed to them', async () => {
    mockApi([]);
    const user = userEvent.setup();
    const panel = await toConfirmation(user);
    expect(within(panel).getByLabelText(/^Bitcoin address/)).toHaveValue(WALLET);
    expect(panel).toHaveTextContent(
      'Your own wallet. We e-mail you a link to confirm it, and send your bitcoin once you open it.',
    );
    expect(panel).not.toHaveTextContent('We send the bitcoin straight to it.');
  });

  it('falls back to the address field from settings when the address book does not answer', async () => {
    const fetchMock = mockApi(null);
    const user = userEvent.setup();
    const panel = await toConfirmation(user);
    expect(within(panel).getByLabelText(/^Bitcoin address/)).toHaveValue(WALLET);
    expect(within(panel).queryByTestId('payout-address-choice')).not.toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Pay $250.00' }));
    const body = await savedBody(fetchMock);
    expect(body.walletAddress).toBe(WALLET);
    expect(body).not.toHaveProperty('payoutAddressId');
  });
});
