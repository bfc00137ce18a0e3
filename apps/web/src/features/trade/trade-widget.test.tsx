import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from '../../lib/toast';
import { useState } from 'react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatBtc, UNCLEAR_AMOUNT_MESSAGE } from '@offzero/shared/money/money';
import { quoteBuyFromUsd } from '@offzero/shared/quotes/quote';
import type { LockedQuote } from '@offzero/shared/api/quotes';
import { lockedQuoteAnswer } from '../../test/locked-quote-answer';
import { OFFLINE_MESSAGE } from '../../lib/api-client';
import { saveCsrfToken, saveSessionToken } from '../../lib/session-storage';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../test/test-utils';
import { hardRedirect } from '../../lib/hard-redirect';
import { PriceProvider } from './price-context';
import { TradeWidget } from './trade-widget';
import { price, settings, verifiedUser } from '../../test/trade-fixtures';

vi.mock('../../lib/hard-redirect', () => ({ hardRedirect: vi.fn() }));

const userSettings = {
  bankAccount: null,
  walletAddress: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
  zelleEmail: null,
  referralCode: null,
  receiveEmail: true,
  receiveSMS: true,
};

function mockApi(
  overrides: {
    user?: object;
    kyc?: object | null;
    settings?: object;
    adminSettings?: object;
    /** Changes each locked quote the fake server answers (the n-th from 0). */
    quote?: (quote: LockedQuote, n: number) => LockedQuote;
    /** The customer's W-9 on file (null: none yet); by default the server does not answer it. */
    w9?: null;
  } = {},
) {
  let quotesLocked = 0;
  const fetchMock = vi.fn((input: string, init?: RequestInit) => {
    const path = new URL(input, 'http://localhost').pathname;
    if (path === '/api/price') return Promise.resolve(jsonResponse(price));
    if (path === '/api/quotes') {
      const terms = (overrides.adminSettings ?? settings) as typeof settings;
      const n = quotesLocked++;
      const { quote } = lockedQuoteAnswer(JSON.parse(init?.body as string), price, terms, `quote-${n + 1}`);
      return Promise.resolve(jsonResponse({ quote: overrides.quote ? overrides.quote(quote, n) : quote }));
    }
    if (path === '/api/order/save') {
      return Promise.resolve(jsonResponse({ message: 'Not saved in this test.', code: 'BAD_REQUEST' }, 400));
    }
    if (path === '/api/tax/w9' && overrides.w9 !== undefined)
      return Promise.resolve(jsonResponse({ w9: overrides.w9 }));
    if (path === '/api/admin/settings')
      return Promise.resolve(jsonResponse({ settings: overrides.adminSettings ?? settings }));
    if (path === '/api/user/settings')
      return Promise.resolve(jsonResponse({ settings: overrides.settings ?? userSettings }));
    if (path.startsWith('/api/user/'))
      return Promise.resolve(jsonResponse({ user: overrides.user ?? verifiedUser }));
    if (path.startsWith('/api/kyc/')) {
      const kyc =
        overrides.kyc === undefined ? { _id: 'k1', status: 'GREEN', reviewNote: null } : overrides.kyc;
      return Promise.resolve(jsonResponse({ kyc }));
    }
    return Promise.resolve(jsonResponse({ message: `unexpected ${path}` }, 404));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** Opens the Sell tab, types the amount (of bitcoin paid, or dollars received) and continues. */
async function continueSelling(
  user: ReturnType<typeof userEvent.setup>,
  amount: string,
  field: 'You Pay' | 'You Receive' = 'You Pay',
) {
  await user.click(await screen.findByRole('tab', { name: 'Sell' }));
  await user.type(await screen.findByLabelText(field), amount);
  const continueButton = screen.getByRole('button', { name: 'Continue' });
  await vi.waitFor(() => expect(continueButton).toBeEnabled());
  await user.click(continueButton);
}

/** The body of the first quote the widget asked the server to lock, once it has asked. */
async function quoteRequestBody(fetchMock: ReturnType<typeof mockApi>): Promise<unknown> {
  const call = await vi.waitFor(() => {
    const found = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/quotes'));
    expect(found).toBeDefined();
    return found!;
  });
  return JSON.parse(call[1]!.body as string);
}

function renderWidget(props: Parameters<typeof TradeWidget>[0] = {}) {
  return renderWithProviders(
    <>
      <Routes>
        <Route
          path="/"
          element={
            <PriceProvider>
              <TradeWidget {...props} />
            </PriceProvider>
          }
        />
        <Route path="/login" element={<h1>Login page</h1>} />
      </Routes>
    </>,
  );
}

beforeEach(() => {
  saveCsrfToken('csrf-1');
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(toast, 'error');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('TradeWidget, buy quote', () => {
  it('shows the quote of the shared maths and refuses non-numeric text', async () => {
    mockApi();
    const user = userEvent.setup();
    renderWidget();

    const pay = await screen.findByLabelText('You Pay');
    const receive = screen.getByLabelText('You Receive');
    expect(screen.getByText('Minimum order $20.00')).toBeInTheDocument();
    expect(screen.getByText('1.5%')).toBeInTheDocument();
    expect(await screen.findByText('1 BTC ≈ $97,123.45')).toBeInTheDocument();
    expect(screen.getByText(/^refresh in \d+s$/)).toBeInTheDocument();

    await user.type(pay, '2x5-0e');
    expect(pay).toHaveValue('250');
    const quote = quoteBuyFromUsd({
      valueCents: 25_000n,
      sellPriceCents: 9_712_345n,
      feeBps: 150,
      networkFeeSats: 1_410n,
    });
    expect(receive).toHaveValue(formatBtc(quote!.amountSats, 6));

    // Below the minimum the other field is left empty.
    await user.clear(pay);
    await user.type(pay, '19.99');
    expect(receive).toHaveValue('');
    // A third decimal could make it $19,999: it is neither cut off nor read as a thousand, but asked about.
    await user.type(pay, '9');
    expect(pay).toHaveValue('19.999');
    expect(receive).toHaveValue('');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Dollars have 2 decimal places: write 19,999 or 19.99.',
    );
  });

  it('sends a visitor to the login page', async () => {
    mockApi();
    const user = userEvent.setup();
    renderWidget();
    await user.type(await screen.findByLabelText('You Pay'), '250');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Login page' })).toBeInTheDocument();
  });

  it('runs the customer checks in order before the confirmation', async () => {
    saveSessionToken(fakeSessionToken('user-1'));
    mockApi({ user: { ...verifiedUser, phone_verified: false }, kyc: null });
    const user = userEvent.setup();
    renderWidget();
    await user.type(await screen.findByLabelText('You Pay'), '250');
    const continueButton = screen.getByRole('button', { name: 'Continue' });
    await vi.waitFor(() => expect(continueButton).toBeEnabled());
    await user.click(continueButton);
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Verify your phone number'));
    expect(toast.error).toHaveBeenCalledTimes(1);
  });

  it('refuses more than the maximum, then confirms with the address from settings', async () => {
    saveSessionToken(fakeSessionToken('user-1'));
    mockApi();
    const user = userEvent.setup();
    renderWidget();
    const pay = await screen.findByLabelText('You Pay');
    await user.type(pay, '10000.01');
    const continueButton = screen.getByRole('button', { name: 'Continue' });
    await vi.waitFor(() => expect(continueButton).toBeEnabled());
    await user.click(continueButton);
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Maximum limit is $10,000.00'));

    await user.clear(pay);
    await user.type(pay, '250');
    await user.click(continueButton);
    expect(await screen.findByRole('button', { name: 'Pay $250.00' })).toBeInTheDocument();
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByLabelText(/^Bitcoin address/)).toHaveValue(userSettings.walletAddress);
    // The server's locked quote, its rate against the mid-market price, and its real lock.
    expect(within(panel).getByText(/^Price locked for (15:00|14:5\d)$/)).toBeInTheDocument();
    expect(within(panel).getByText('Mid-market $96,811.72')).toBeInTheDocument();
    expect(within(panel).getByText('Bitcoin is sent after the payment clears.')).toBeInTheDocument();
    // Mid-flow the tabs stay put.
    expect(screen.getByRole('tab', { name: 'Sell' })).toHaveAttribute('aria-disabled', 'true');

    await user.clear(within(panel).getByLabelText(/^Bitcoin address/));
    await user.type(within(panel).getByLabelText(/^Bitcoin address/), 'not-an-address');
    await user.click(within(panel).getByRole('button', { name: 'Pay $250.00' }));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenLastCalledWith('Invalid Bitcoin Address. This is not a bitcoin address.'),
    );
  });
});

describe('TradeWidget, amounts as customers write them', () => {
  it('locks a quote for $25,000.50 when "$25,000.50" is typed, not for $25', async () => {
    saveSessionToken(fakeSessionToken('user-1'));
    const fetchMock = mockApi({
      adminSettings: { ...settings, order: { ...settings.order, max_order_size: 50_000 } },
    });
    const user = userEvent.setup();
    renderWidget();
    const pay = await screen.findByLabelText('You Pay');
    await user.type(pay, '$25,000.50');
    expect(pay).toHaveValue('$25,000.50');
    await vi.waitFor(() => expect(screen.getByLabelText('You Receive')).not.toHaveValue(''));
    const continueButton = screen.getByRole('button', { name: 'Continue' });
    await vi.waitFor(() => expect(continueButton).toBeEnabled());
    await user.click(continueButton);
    expect(await screen.findByRole('button', { name: 'Pay $25,000.50' })).toBeInTheDocument();
    const lockCall = fetchMock.mock.calls.find(([input]) => String(input).endsWith('/api/quotes'));
    expect(JSON.parse(lockCall?.[1]?.body as string)).toMatchObject({ type: 'buy', value: 25_000.5 });
  });

  it('refuses "1,00" at Continue with a message saying how to write it, and locks nothing', async () => {
    saveSessionToken(fakeSessionToken('user-1'));
    const fetchMock = mockApi();
    const user = userEvent.setup();
    renderWidget();
    await user.type(await screen.findByLabelText('You Pay'), '1,00');
    const continueButton = screen.getByRole('button', { name: 'Continue' });
    await vi.waitFor(() => expect(continueButton).toBeEnabled());
    await user.click(continueButton);
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(UNCLEAR_AMOUNT_MESSAGE));
    expect(screen.getByRole('alert')).toHaveTextContent(UNCLEAR_AMOUNT_MESSAGE);
    expect(screen.getByLabelText('You Pay')).toHaveValue('1,00');
    expect(fetchMock.mock.calls.some(([input]) => String(input).endsWith('/api/quotes'))).toBe(false);
  });

  it('names the maximum, not the minimum, for an amount larger than any the field reads', async () => {
    saveSessionToken(fakeSessionToken('user-1'));
    mockApi();
    const user = userEvent.setup();
    renderWidget();
    await user.type(await screen.findByLabelText('You Pay'), '99999999999999999999');
    const continueButton = screen.getByRole('button', { name: 'Continue' });
    await vi.waitFor(() => expect(continueButton).toBeEnabled());
    await user.click(continueButton);
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Maximum limit is $10,000.00'));
    expect(toast.error).not.toHaveBeenCalledWith('Minimum order is $20.00');
  });
});

describe('TradeWidget, offline', () => {
  it('says the connection is lost at Continue instead of waiting, and keeps the amount typed', async () => {
    saveSessionToken(fakeSessionToken('user-1'));
    const fetchMock = mockApi();
    const user = userEvent.setup();
    renderWidget();
    const pay = await screen.findByLabelText('You Pay');
    await user.type(pay, '250');
    const continueButton = screen.getByRole('button', { name: 'Continue' });
    await vi.waitFor(() => expect(continueButton).toBeEnabled());

    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    fetchMock.mockImplementation(() => Promise.reject(new TypeError('Failed to fetch')));
    await user.click(continueButton);

    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(OFFLINE_MESSAGE));
    expect(continueButton).toBeEnabled();
    expect(continueButton).not.toHaveAttribute('aria-busy', 'true');
    expect(pay).toHaveValue('250');
    window.dispatchEvent(new Event('online'));
  });
});

describe('TradeWidget, locked quote', () => {
  it('shows the server’s locked figures, which the live price does not move, and Pay sends the quoteId', async () => {
    saveSessionToken(fakeSessionToken('user-1'));
    // The server locked a different rate than the live one: the confirmation shows the server's.
    const fetchMock = mockApi({
      quote: (quote) => ({ ...quote, price: 98_000, amount: 0.002515, platformFee: 3.75, spread: 1.57 }),
    });
    const user = userEvent.setup();
    renderWidget();
    await user.type(await screen.findByLabelText('You Pay'), '250');
    const continueButton = screen.getByRole('button', { name: 'Continue' });
    await vi.waitFor(() => expect(continueButton).toBeEnabled());
    await user.click(continueButton);
    const pay = await screen.findByRole('button', { name: 'Pay $250.00' });
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByText('1 BTC = $98,000.00')).toBeInTheDocument();
    expect(within(panel).getByText('0.002515 BTC')).toBeInTheDocument();
    expect(within(panel).getByText('$1.57')).toBeInTheDocument();
    await user.click(pay);
    await vi.waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/api/order/save'))).toBe(true),
    );
    const [, init] = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/order/save'))!;
    expect(JSON.parse(init?.body as string)).toMatchObject({
      quoteId: 'quote-1',
      price: 98_000,
      amount: 0.002515,
      platformFee: 3.75,
      value: 250,
    });
  });

  it('when the lock runs out, takes Pay away and offers a new quote, never a silent new price', async () => {
    saveSessionToken(fakeSessionToken('user-1'));
    // The first quote is already over; the one asked for next holds.
    const fetchMock = mockApi({
      quote: (quote, n) =>
        n === 0 ? { ...quote, expiresAt: new Date(Date.now() - 1000).toISOString() } : quote,
    });
    const user = userEvent.setup();
    renderWidget();
    await user.type(await screen.findByLabelText('You Pay'), '250');
    const continueButton = screen.getByRole('button', { name: 'Continue' });
    await vi.waitFor(() => expect(continueButton).toBeEnabled());
    await user.click(continueButton);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This quote has expired. Get a new quote to continue.');
    expect(screen.queryByRole('button', { name: /^Pay/ })).not.toBeInTheDocument();

    await user.click(within(alert).getByRole('button', { name: 'Get a new quote' }));
    expect(await screen.findByRole('button', { name: 'Pay $250.00' })).toBeInTheDocument();
    expect(screen.getByText(/^Price locked for (15:00|14:5\d)$/)).toBeInTheDocument();
    const quoteCalls = fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/api/quotes'));
    expect(quoteCalls).toHaveLength(2);
  });
});

/** A signed-in customer's copy of the settings, with the bank charges: ACH costs $25. */
const customerSettingsWithAchCharges = {
  ...settings,
  zelle: { is_active: true, payment_address: 'pay@offzero.example', bank_charges: 0 },
  ach: {
    is_active: true,
    account_holder: 'OffZero',
    account_number: '1',
    bank_address: '1 Main St',
    routing_number: '021000021',
    bank_charges: 25,
  },
  wire: {
    is_active: false,
    account_holder: 'OffZero',
    account_number: '1',
    bank_address: '1 Main St',
    swift_code: 'OFFZUS33',
    bank_charges: 25,
  },
  instant: { is_active: false, bank_charges: 0.5, max_payout: 25_000 },
  lightning: {
    is_active: true,
    max_order_sats: 5_000_000,
    max_payout_sats: 5_000_000,
    daily_payout_sats: 50_000_000,
  },
};

describe('TradeWidget, sell', () => {
  const bankAccount = {
    bank_name: 'First Demo Bank',
    account_name: 'Ada Lovelace',
    account_number: '000123456789',
    address: '1 Main St',
    routing_number: '021000021',
    swift: '',
  };

  it('refuses a payout method the settings lack, then confirms one they hold', async () => {
    saveSessionToken(fakeSessionToken('user-1'));
    mockApi({ settings: { ...userSettings, bankAccount } });
    const user = userEvent.setup();
    renderWidget();
    await continueSelling(user, '0.01');

    await user.click(await screen.findByRole('button', { name: /Zelle/ }));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenLastCalledWith('Add Zelle payment email in settings.'),
    );
    await user.click(screen.getByRole('button', { name: /ACH/ }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledTimes(1));
    expect(await screen.findByRole('heading', { name: 'Confirm your sale' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send 0.010000 BTC' })).toBeEnabled();
  });

  it('asks a seller without a W-9 for it with the form it is given, a component with state of its own', async () => {
    saveSessionToken(fakeSessionToken('user-1'));
    mockApi({ settings: { ...userSettings, bankAccount }, w9: null });
    // Like the real W-9 step (loaded on demand), the form keeps state: it must be rendered as a
    // component, not called from the widget's own render.
    function TaxForm({ onSaved }: { onSaved: () => void }) {
      const [name, setName] = useState('');
      return (
        <label>
          Legal name
          <input value={name} onChange={(event) => setName(event.target.value)} onBlur={onSaved} />
        </label>
      );
    }
    const user = userEvent.setup();
    renderWidget({ taxDetailsForm: TaxForm });
    await continueSelling(user, '0.01');

    expect(await screen.findByText('Add your tax details (Form W-9)')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Legal name'), 'Ada Lovelace');
    expect(screen.getByLabelText('Legal name')).toHaveValue('Ada Lovelace');
    await user.tab();
    expect(await screen.findByRole('button', { name: /Zelle/ })).toBeInTheDocument();
  });

  it('asks how the bitcoin is sent, on-chain first; Lightning goes with the quote and says when it is credited', async () => {
    saveSessionToken(fakeSessionToken('user-1'));
    const fetchMock = mockApi({
      settings: { ...userSettings, bankAccount },
      adminSettings: customerSettingsWithAchCharges,
    });
    const user = userEvent.setup();
    renderWidget();
    await continueSelling(user, '0.01');

    expect(await screen.findByRole('radio', { name: /On-chain/ })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: /Lightning/ }));
    await user.click(screen.getByRole('button', { name: /ACH/ }));
    expect(await quoteRequestBody(fetchMock)).toMatchObject({
      type: 'sell',
      method: 'ach',
      deposit: 'lightning',
    });
    expect(await screen.findByText(/^Sent by Lightning: Credited in seconds/)).toBeInTheDocument();
  });

  it('offers no Lightning while the operator has it switched off, and quotes the sell on chain', async () => {
    saveSessionToken(fakeSessionToken('user-1'));
    const fetchMock = mockApi({
      settings: { ...userSettings, bankAccount },
      adminSettings: {
        ...customerSettingsWithAchCharges,
        lightning: { ...customerSettingsWithAchCharges.lightning, is_active: false },
      },
    });
    const user = userEvent.setup();
    renderWidget();
    await continueSelling(user, '0.01');

    await user.click(await screen.findByRole('button', { name: /ACH/ }));
    expect(screen.queryByRole('radio', { name: /Lightning/ })).not.toBeInTheDocument();
    expect(await quoteRequestBody(fetchMock)).toMatchObject({
      type: 'sell',
      method: 'ach',
      deposit: 'onchain',
    });
  });

  it('explains a sale the ACH charges would eat, naming the smallest amount, and keeps Send disabled', async () => {
    saveSessionToken(fakeSessionToken('user-1'));
    // ACH charges $25: 0.000214 BTC is $20.34 after the fee (enough before charges), nothing after.
    mockApi({
      settings: { ...userSettings, bankAccount },
      adminSettings: customerSettingsWithAchCharges,
    });
    const user = userEvent.setup();
    renderWidget();
    await continueSelling(user, '0.000214');
    await user.click(await screen.findByRole('button', { name: /ACH/ }));

    expect(await screen.findByRole('heading', { name: 'Confirm your sale' })).toBeInTheDocument();
    // $45.00 must be left after the 1.5 % fee: 4,569 cents gross, 47,348 sats, 0.000474 BTC rounded up.
    const reason =
      'For an ACH payout, sell at least 0.000474 BTC: the bank charges and fee would leave nothing to receive.';
    expect(screen.getByRole('alert')).toHaveTextContent(reason);
    expect(screen.queryByText('—')).not.toBeInTheDocument();
    const send = screen.getByRole('button', { name: 'Send BTC' });
    expect(send).toBeDisabled();
    expect(send).toHaveAccessibleDescription(reason);
  });

  it('names the minimum order when the ACH charges leave something, but too little', async () => {
    saveSessionToken(fakeSessionToken('user-1'));
    mockApi({
      settings: { ...userSettings, bankAccount },
      adminSettings: customerSettingsWithAchCharges,
    });
    const user = userEvent.setup();
    renderWidget();
    // $42.76 after the fee, $17.76 after the charges: below the $20 minimum.
    await continueSelling(user, '0.00045');
    await user.click(await screen.findByRole('button', { name: /ACH/ }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Minimum order is $20.00');
    expect(screen.getByRole('button', { name: 'Send BTC' })).toBeDisabled();
  });
});

describe('TradeWidget, keyboard focus', () => {
  it('moves focus to each new buy step’s heading, and back to the amount on Back', async () => {
    saveSessionToken(fakeSessionToken('user-1'));
    mockApi();
    const user = userEvent.setup();
    renderWidget();
    const pay = await screen.findByLabelText('You Pay');
    await user.type(pay, '250');
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled());
    await user.keyboard('{Enter}');
    const heading = await screen.findByRole('heading', { name: 'Confirm your order' });
    await vi.waitFor(() => expect(heading).toHaveFocus());

    await user.click(screen.getByRole('button', { name: 'Back' }));
    await vi.waitFor(() => expect(screen.getByLabelText('You Pay')).toHaveFocus());
  });
});

describe('TradeWidget, a session that ends mid-flow', () => {
  afterEach(() => sessionStorage.clear());

  it('opens after the login on the side and with the amount typed when the session ended, once', async () => {
    sessionStorage.clear();
    saveSessionToken(fakeSessionToken('user-1'));
    const bankAccount = {
      bank_name: 'First Demo Bank',
      account_name: 'Ada Lovelace',
      account_number: '000123456789',
      address: '1 Main St',
      routing_number: '021000021',
      swift: '',
    };
    const fetchMock = mockApi({ settings: { ...userSettings, bankAccount } });
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation((input: string, init?: RequestInit) =>
      new URL(input, 'http://localhost').pathname === '/api/quotes'
        ? Promise.resolve(
            jsonResponse({ message: 'Your session has ended. Log in again.', code: 'UNAUTHENTICATED' }, 401),
          )
        : answer(input, init),
    );
    const user = userEvent.setup();
    const before = renderWidget();
    await continueSelling(user, '1,250', 'You Receive');
    await user.click(await screen.findByRole('button', { name: /ACH/ }));
    await vi.waitFor(() => expect(hardRedirect).toHaveBeenCalledWith('/login?session=ended'));
    // Never in the address the browser is sent to.
    expect(vi.mocked(hardRedirect).mock.calls.flat().join()).not.toContain('1,250');
    before.unmount();

    saveSessionToken(fakeSessionToken('user-1'));
    const after = renderWidget();
    expect(await screen.findByRole('tab', { name: 'Sell' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByLabelText('You Receive')).toHaveValue('1,250');
    expect(screen.getByLabelText('You Pay')).not.toHaveValue('');
    after.unmount();

    renderWidget();
    expect(await screen.findByRole('tab', { name: 'Buy' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByLabelText('You Pay')).toHaveValue('');
  });
});
