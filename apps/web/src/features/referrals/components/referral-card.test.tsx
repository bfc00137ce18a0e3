import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import { useUserSettings } from '../../../domain/user-settings';
import { ReferralCard, REFERRAL_CODE_GENERATED } from './referral-card';

/** The card as the settings page shows it: fed by the settings the server answers. */
function Harness() {
  const { data } = useUserSettings();
  return data ? <ReferralCard referralCode={data.referralCode} /> : null;
}

/** What GET /api/user/settings answers; a test sets the code once the server "stored" it. */
let storedCode: string | null;
let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;
let answerSave: (response: Response) => void;

beforeEach(() => {
  storedCode = null;
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>(async (input) => {
    if (input.startsWith('/api/referral/totalrewards')) return jsonResponse({ sumOfRewards: 31.51 });
    if (input === '/api/admin/settings') {
      return jsonResponse({
        settings: {
          order: {
            platform_fees: 1.5,
            min_order_size: 20,
            max_order_size: 10000,
            order_session_timeout: 600,
          },
          paypal: { is_active: true },
          zelle: { is_active: true },
          ach: { is_active: true },
          wire: { is_active: true },
          instant: { is_active: true },
          referral: { reward: 10, trades_eligible: 3 },
        },
      });
    }
    if (input.startsWith('/api/user/settings?')) {
      return jsonResponse({
        settings: {
          bankAccount: null,
          walletAddress: null,
          zelleEmail: null,
          referralCode: storedCode,
          receiveEmail: true,
          receiveSMS: true,
        },
      });
    }
    if (input === '/api/user/settings/save') {
      return new Promise<Response>((resolve) => {
        answerSave = resolve;
      });
    }
    return jsonResponse({ message: 'unexpected' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  saveSessionToken(fakeSessionToken('user-1'));
  saveCsrfToken('csrf-1');
  vi.spyOn(toast, 'success');
  vi.spyOn(toast, 'error');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ReferralCard', () => {
  it('generates a code: "Generating.." while waiting, then the success message and the code', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);

    await user.click(await screen.findByRole('button', { name: 'Generate Code' }));
    const busy = screen.getByRole('button', { name: 'Generating..' });
    expect(busy).toBeDisabled();
    const body = JSON.parse(
      fetchMock.mock.calls.find(([url]) => url === '/api/user/settings/save')?.[1]?.body as string,
    );
    expect(body.userId).toBe('user-1');
    expect(body.referralCode).toMatch(/^[A-Za-z0-9_-]{16}$/);

    storedCode = body.referralCode;
    answerSave(jsonResponse({ message: 'Referral code has been generated!' }));
    expect(await screen.findByTestId('referral-code')).toHaveTextContent(body.referralCode);
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(REFERRAL_CODE_GENERATED));
    expect(screen.queryByRole('button', { name: /Generat/ })).not.toBeInTheDocument();
  });

  it('on a taken code shows the server message, enables the button again, and the next click offers another code', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ReferralCard referralCode={null} />);
    await user.click(screen.getByRole('button', { name: 'Generate Code' }));
    answerSave(jsonResponse({ message: 'This referral code is already taken. Generate another one.' }, 409));

    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('This referral code is already taken. Generate another one.'),
    );
    await user.click(await screen.findByRole('button', { name: 'Generate Code' }));
    const offered = fetchMock.mock.calls
      .filter(([url]) => url === '/api/user/settings/save')
      .map(([, init]) => (JSON.parse(init?.body as string) as { referralCode: string }).referralCode);
    expect(offered).toHaveLength(2);
    // Another code even without case, which is how the server tells codes apart.
    expect(offered[1]!.toLowerCase()).not.toBe(offered[0]!.toLowerCase());
  });

  it('shows the code, the shortened link with copy buttons, and the total with a $ linking to the history', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<ReferralCard referralCode="AbC-_123xyzXYZ00" />);

    expect(screen.getByTestId('referral-code')).toHaveTextContent('AbC-_123xyzXYZ00');
    const link = `${window.location.origin}/register/?ref=AbC-_123xyzXYZ00`;
    expect(screen.getByTestId('referral-link')).toHaveTextContent(
      `${link.slice(0, 12)}...${link.slice(-12)}`,
    );
    expect(screen.queryByRole('button', { name: 'Generate Code' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Copy referral link' }));
    expect(writeText).toHaveBeenCalledWith(link);
    expect(toast.success).toHaveBeenCalledWith('Text Copied!');

    const total = await screen.findByText('$31.51');
    expect(total.closest('a')).toHaveAttribute('href', '/referral-history');
  });

  it('explains the programme with its terms, closed with Start Referral', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ReferralCard referralCode={null} />);
    await user.click(screen.getByRole('button', { name: 'How referrals work' }));
    const dialog = screen.getByRole('dialog', { name: 'How referrals work' });
    expect(await screen.findByText('10%')).toBeInTheDocument();
    expect(dialog).toHaveTextContent('first 3 trades');
    await user.click(screen.getByRole('button', { name: 'Start Referral' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
