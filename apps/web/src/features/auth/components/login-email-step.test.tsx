import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveCsrfToken } from '../../../lib/session-storage';
import { LoginEmailStep } from './login-email-step';

let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;

beforeEach(() => {
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>();
  vi.stubGlobal('fetch', fetchMock);
  saveCsrfToken('csrf-1');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderStep(defaultEmail = '') {
  const onCodeSent = vi.fn();
  renderWithProviders(<LoginEmailStep defaultEmail={defaultEmail} onCodeSent={onCodeSent} />);
  return { onCodeSent, user: userEvent.setup() };
}

describe('LoginEmailStep', () => {
  it('asks for a valid email, sends nothing, and clears the message once the address is edited', async () => {
    const { user, onCodeSent } = renderStep();
    await user.type(screen.getByLabelText('Email'), 'ada@example');
    await user.click(screen.getByRole('button', { name: 'Send code' }));

    expect(await screen.findByText('Enter a valid email')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(onCodeSent).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Email'), '.com');
    expect(screen.queryByText('Enter a valid email')).not.toBeInTheDocument();
  });

  it('sends the code to the trimmed address and moves on', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'We sent a login code.' }));
    const { user, onCodeSent } = renderStep();
    await user.type(screen.getByLabelText('Email'), ' ada@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send code' }));

    await vi.waitFor(() => expect(onCodeSent).toHaveBeenCalledWith('ada@example.com'));
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/user/login-otp/send',
      expect.objectContaining({ method: 'POST', body: JSON.stringify({ email: 'ada@example.com' }) }),
    );
  });

  it('moves on with the one answer the server gives every address, and offers no registration', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse({ message: 'If an account exists for this email, we sent a code.' }),
    );
    const { user, onCodeSent } = renderStep('nobody@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));

    await vi.waitFor(() => expect(onCodeSent).toHaveBeenCalledWith('nobody@example.com'));
    expect(screen.queryByRole('link', { name: 'Register' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('stays on the step when the server refuses (too many codes)', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse(
        { message: 'Wait 8 seconds before asking for a new code.', code: 'TOO_MANY_REQUESTS' },
        429,
      ),
    );
    const { user, onCodeSent } = renderStep('ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));

    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(onCodeSent).not.toHaveBeenCalled();
  });
});
