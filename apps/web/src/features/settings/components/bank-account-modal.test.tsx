import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { BANK_ROUTING_OR_SWIFT_MESSAGE } from '@offzero/shared/api/user-settings';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import { BankAccountModal, validateBankForm } from './bank-account-modal';

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

const filled = {
  account_name: 'Ada Lovelace',
  account_number: '000123456789',
  bank_name: 'First Bank',
  address: '1 Main St, Cheyenne, WY',
  routing_number: '',
  swift: '',
};

describe('validateBankForm', () => {
  it('asks for a routing number or a SWIFT code when neither is given', () => {
    const result = validateBankForm(filled);
    expect(result).toEqual({ ok: false, errors: { routing_number: BANK_ROUTING_OR_SWIFT_MESSAGE } });
  });

  it('accepts either code, and upper-cases the SWIFT code', () => {
    expect(validateBankForm({ ...filled, routing_number: '021000021' }).ok).toBe(true);
    const wire = validateBankForm({ ...filled, swift: 'chasus33' });
    expect(wire).toMatchObject({ ok: true, bankAccount: { swift: 'CHASUS33', routing_number: '' } });
  });

  it('reports malformed codes', () => {
    const result = validateBankForm({ ...filled, routing_number: '1234', swift: 'ABC' });
    expect(result).toEqual({
      ok: false,
      errors: {
        routing_number: 'A routing number has 9 digits.',
        swift: 'A SWIFT code has 8 or 11 letters and digits.',
      },
    });
  });
});

function renderModal(onClose = vi.fn()) {
  renderWithProviders(<BankAccountModal open onClose={onClose} bankAccount={null} />);
  return {
    onClose,
    user: userEvent.setup(),
    dialog: screen.getByRole('dialog', { name: 'Add bank account' }),
  };
}

describe('BankAccountModal', () => {
  it('shows every required-field message and the routing-or-SWIFT message, and sends nothing', async () => {
    const { user, dialog } = renderModal();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(within(dialog).getByText('Enter the account holder name.')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Enter the account number: 4 to 34 letters or digits, no spaces.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('Enter the bank name.')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter the bank address.')).toBeInTheDocument();
    expect(within(dialog).getByText(BANK_ROUTING_OR_SWIFT_MESSAGE)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Account holder name')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the hints of the product specification', () => {
    const { dialog } = renderModal();
    expect(within(dialog).getByText(/account holder name must match the account name/i)).toBeInTheDocument();
    expect(within(dialog).getByText('SWIFT is required for wire transfers.')).toBeInTheDocument();
    expect(within(dialog).getByText('Routing number for ACH transfers.')).toBeInTheDocument();
  });

  it('toasts "Enter routing number or SWIFT code." when only the codes are missing', async () => {
    const { user, dialog } = renderModal();
    await user.type(within(dialog).getByLabelText('Account holder name'), filled.account_name);
    await user.type(within(dialog).getByLabelText('Account number'), filled.account_number);
    await user.type(within(dialog).getByLabelText('Bank name'), filled.bank_name);
    await user.type(within(dialog).getByLabelText('Bank address'), filled.address);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(toast.error).toHaveBeenCalledWith(BANK_ROUTING_OR_SWIFT_MESSAGE);
    expect(within(dialog).getByText(BANK_ROUTING_OR_SWIFT_MESSAGE)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    // A SWIFT code alone is enough, and clears the message.
    await user.type(within(dialog).getByLabelText('SWIFT code'), 'CHASUS33');
    expect(within(dialog).queryByText(BANK_ROUTING_OR_SWIFT_MESSAGE)).not.toBeInTheDocument();
  });

  it('saves, shows the server message and closes on 200', async () => {
    fetchMock.mockImplementation(async (input) =>
      input.startsWith('/api/user/settings/bank/save')
        ? jsonResponse({ message: 'Bank account saved.' })
        : jsonResponse({ message: 'unexpected' }, 404),
    );
    const { user, dialog, onClose } = renderModal();
    await user.type(within(dialog).getByLabelText('Account holder name'), filled.account_name);
    await user.type(within(dialog).getByLabelText('Account number'), filled.account_number);
    await user.type(within(dialog).getByLabelText('Bank name'), filled.bank_name);
    await user.type(within(dialog).getByLabelText('Bank address'), filled.address);
    await user.type(within(dialog).getByLabelText('Routing number'), '021000021');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(toast.success).toHaveBeenCalledWith('Bank account saved.');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/user/settings/bank/save');
    expect(JSON.parse(init?.body as string)).toEqual({
      userId: 'user-1',
      bankAccount: { ...filled, routing_number: '021000021' },
    });
  });

  it('keeps the dialog open and shows the server message when saving fails', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(
        {
          message: 'Check bankAccount.routing_number: A routing number has 9 digits.',
          errors: { 'bankAccount.routing_number': 'A routing number has 9 digits.' },
        },
        400,
      ),
    );
    const { user, dialog, onClose } = renderModal();
    await user.type(within(dialog).getByLabelText('Account holder name'), filled.account_name);
    await user.type(within(dialog).getByLabelText('Account number'), filled.account_number);
    await user.type(within(dialog).getByLabelText('Bank name'), filled.bank_name);
    await user.type(within(dialog).getByLabelText('Bank address'), filled.address);
    await user.type(within(dialog).getByLabelText('Routing number'), '021000021');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByText('A routing number has 9 digits.')).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith(
      'Check bankAccount.routing_number: A routing number has 9 digits.',
    );
    expect(onClose).not.toHaveBeenCalled();
  });
});
