import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import {
  ZELLE_EMAIL_INVALID_MESSAGE,
  ZELLE_EMAIL_MESSAGE,
  WALLET_ADDRESS_MESSAGE,
} from '@offzero/shared/api/user-settings';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import { EditProfileModal } from './edit-profile-modal';
import { WalletAddressModal } from './wallet-address-modal';
import { ZelleEmailModal } from './zelle-email-modal';
import { verifiedUser } from '../../../test/trade-fixtures';

const TESTNET_ADDRESS = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';

const ada = verifiedUser;

let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;

beforeEach(() => {
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>();
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

const bodyOf = (call: [string, RequestInit?] | undefined) => JSON.parse(call?.[1]?.body as string) as unknown;

describe('ZelleEmailModal', () => {
  it('needs an address: the message shows under the field and as a toast, and nothing is sent', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ZelleEmailModal open onClose={vi.fn()} zelleEmail={null} />);
    const dialog = screen.getByRole('dialog', { name: 'Add Zelle payment email' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByText(ZELLE_EMAIL_MESSAGE)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Zelle payment email')).toHaveAttribute('aria-invalid', 'true');
    expect(toast.error).toHaveBeenCalledWith(ZELLE_EMAIL_MESSAGE);
    expect(fetchMock).not.toHaveBeenCalled();

    await user.type(within(dialog).getByLabelText('Zelle payment email'), 'a');
    expect(within(dialog).queryByText(ZELLE_EMAIL_MESSAGE)).not.toBeInTheDocument();
  });

  it('refuses what is not an e-mail address, by the rule the server applies, and sends nothing', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ZelleEmailModal open onClose={vi.fn()} zelleEmail={null} />);
    const dialog = screen.getByRole('dialog', { name: 'Add Zelle payment email' });
    await user.type(within(dialog).getByLabelText('Zelle payment email'), 'ada@zelle');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByText(ZELLE_EMAIL_INVALID_MESSAGE)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('saves the trimmed address, toasts the server message and closes', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ message: 'Zelle email saved.' }));
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<ZelleEmailModal open onClose={onClose} zelleEmail="old@example.com" />);
    const field = screen.getByLabelText('Zelle payment email');
    expect(field).toHaveValue('old@example.com');
    await user.clear(field);
    await user.type(field, '  pay@example.com ');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(toast.success).toHaveBeenCalledWith('Zelle email saved.');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/user/settings/zelle/save');
    expect(bodyOf(fetchMock.mock.calls[0])).toEqual({ userId: 'user-1', zelleEmail: 'pay@example.com' });
  });

  it('puts the server’s field message under the field and stays open', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(
        {
          message: 'Check zelleEmail: The Zelle email can be at most 254 characters.',
          code: 'VALIDATION_FAILED',
          errors: { zelleEmail: 'The Zelle email can be at most 254 characters.' },
        },
        400,
      ),
    );
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<ZelleEmailModal open onClose={onClose} zelleEmail={null} />);
    await user.type(screen.getByLabelText('Zelle payment email'), 'pay@example.com');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('The Zelle email can be at most 254 characters.')).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith(
      'Check zelleEmail: The Zelle email can be at most 254 characters.',
    );
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('WalletAddressModal', () => {
  it('refuses an address of another network, saying so, then saves one of this network', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ message: 'Wallet address saved.' }));
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<WalletAddressModal open onClose={onClose} walletAddress={null} />);
    const field = screen.getByLabelText('Bitcoin wallet address');
    await user.type(field, 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(
      await screen.findByText(`${WALLET_ADDRESS_MESSAGE}. This is a mainnet address. Use a testnet address.`),
    ).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await user.clear(field);
    await user.type(field, ` ${TESTNET_ADDRESS} `);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodyOf(fetchMock.mock.calls[0])).toEqual({ userId: 'user-1', walletAddress: TESTNET_ADDRESS });
  });
});

describe('EditProfileModal', () => {
  it('checks both names with the shared rules and sends nothing until they pass', async () => {
    const user = userEvent.setup();
    renderWithProviders(<EditProfileModal user={ada} open onClose={vi.fn()} />);
    await user.clear(screen.getByLabelText('First name'));
    await user.clear(screen.getByLabelText('Last name'));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Enter your first name.')).toBeInTheDocument();
    expect(screen.getByText('Enter your last name.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('saves the trimmed names with the e-mail on file, or shows the server’s field messages', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse(
        {
          message: 'Check lastName: Your last name contains characters we cannot accept.',
          code: 'VALIDATION_FAILED',
          errors: { lastName: 'Your last name contains characters we cannot accept.' },
        },
        400,
      ),
    );
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<EditProfileModal user={ada} open onClose={onClose} />);
    await user.clear(screen.getByLabelText('First name'));
    await user.type(screen.getByLabelText('First name'), ' Augusta ');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(
      await screen.findByText('Your last name contains characters we cannot accept.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Last name')).toHaveAttribute('aria-invalid', 'true');
    expect(bodyOf(fetchMock.mock.calls[0])).toEqual({
      firstName: 'Augusta',
      lastName: 'Lovelace',
      email: 'ada@example.com',
    });
    expect(onClose).not.toHaveBeenCalled();
  });
});
