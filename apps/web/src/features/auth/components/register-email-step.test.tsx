import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveCsrfToken } from '../../../lib/session-storage';
import { RegisterEmailStep } from './register-email-step';

let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;

beforeEach(() => {
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>();
  vi.stubGlobal('fetch', fetchMock);
  saveCsrfToken('csrf-1');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderStep(props: { defaultReferralCode?: string } = {}) {
  const onCodeSent = vi.fn();
  renderWithProviders(<RegisterEmailStep onCodeSent={onCodeSent} {...props} />);
  return { onCodeSent, user: userEvent.setup() };
}

describe('RegisterEmailStep', () => {
  it('asks for a valid email when the field is empty', async () => {
    const { user, onCodeSent } = renderStep();
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(screen.getByText('Enter a valid email')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(onCodeSent).not.toHaveBeenCalled();
  });

  it('asks for a valid email when the address is malformed', async () => {
    const { user } = renderStep();
    await user.type(screen.getByLabelText('Email'), 'ada@example');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(screen.getByText('Enter a valid email')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('clears the message as soon as the address is edited', async () => {
    const { user } = renderStep();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.type(screen.getByLabelText('Email'), 'a');
    expect(screen.queryByText('Enter a valid email')).not.toBeInTheDocument();
  });

  it('refuses a referral code with characters codes never have', async () => {
    const { user } = renderStep();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText(/Referral Code/), 'not a code!');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(screen.getByText('This referral code is not valid.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the code for a valid address and moves on with the referral code', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'We sent a 6-digit code to ada@example.com.' }));
    const { user, onCodeSent } = renderStep({ defaultReferralCode: 'FRIEND_42' });

    expect(screen.getByLabelText(/Referral Code/)).toHaveValue('FRIEND_42');
    await user.type(screen.getByLabelText('Email'), '  ada@example.com ');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await vi.waitFor(() => expect(onCodeSent).toHaveBeenCalledWith('ada@example.com', 'FRIEND_42'));
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/verification/email/otp',
      expect.objectContaining({
        method: 'POST',
        body: JSON.stringify({ email: 'ada@example.com', purpose: 'new account' }),
      }),
    );
  });

  it('moves on for an address that has an account, exactly as for a new one', async () => {
    // The server answers an existing address like a new one and e-mails its owner instead.
    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'We sent a 6-digit code to ada@example.com.' }));
    const { user, onCodeSent } = renderStep();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await vi.waitFor(() => expect(onCodeSent).toHaveBeenCalledWith('ada@example.com', ''));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument();
  });

  it('decides on the code: another conflict does not offer to log in', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse({ message: 'Something else conflicted.', code: 'CONFLICT' }, 409),
    );
    const { user, onCodeSent } = renderStep();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument();
    expect(onCodeSent).not.toHaveBeenCalled();
  });
});
