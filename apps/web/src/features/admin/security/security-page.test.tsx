import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import SecurityPage from './security-page';

let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;
let enrolled = false;

beforeEach(() => {
  enrolled = false;
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>(async (url, init) => {
    if (url === '/api/admin/mfa') return jsonResponse({ enrolled, required: true });
    if (url === '/api/admin/mfa/enroll')
      return jsonResponse({
        secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        otpauthUrl: 'otpauth://totp/OffZero:admin%40offzero.local?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
      });
    if (url === '/api/admin/mfa/verify') {
      const { code } = JSON.parse(init?.body as string) as { code: string };
      if (code !== '123456')
        return jsonResponse({ message: 'That code is not right.', code: 'BAD_REQUEST' }, 400);
      enrolled = true;
      return jsonResponse({ message: 'Two-factor authentication is set up.' });
    }
    return jsonResponse({ message: `unexpected ${url}` }, 500);
  });
  vi.stubGlobal('fetch', fetchMock);
  saveSessionToken(fakeSessionToken('admin-1'));
  saveCsrfToken('csrf-1');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SecurityPage', () => {
  it('shows the QR code and the secret, refuses a wrong code, and turns two-factor on with a right one', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SecurityPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Set up two-factor authentication first.');
    await user.click(screen.getByRole('button', { name: 'Set up' }));

    expect(await screen.findByRole('img', { name: 'Authenticator QR code' })).toBeInTheDocument();
    expect(screen.getByTestId('mfa-secret')).toHaveTextContent('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');

    const field = screen.getByLabelText('Code from the app');
    await user.type(field, '12');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(
      await screen.findByText('Enter the 6-digit code from your authenticator app.'),
    ).toBeInTheDocument();

    await user.clear(field);
    await user.type(field, '000000');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('That code is not right.')).toBeInTheDocument();

    await user.clear(field);
    await user.type(field, '123456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText(/Two-factor authentication is on/)).toBeInTheDocument();
  });
});
