import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@offzero/shared/api/accounts';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import { VerifyPhoneModal } from './verify-phone-modal';

let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;

beforeEach(() => {
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>(async (url) => {
    if (url === '/api/user/step-up/send')
      return jsonResponse({ message: 'We sent a security code to ada@example.com.' });
    if (url === '/api/verification/phone/otp')
      return jsonResponse({ message: 'We sent a 6-digit code to +12025550188.' });
    return jsonResponse({ messages: [] });
  });
  vi.stubGlobal('fetch', fetchMock);
  saveSessionToken(fakeSessionToken('user-1'));
  saveCsrfToken('csrf-1');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const ada: User = {
  _id: 'user-1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phoneNumber: '+12025550101',
  email_verified: true,
  phone_verified: true,
  image: null,
  role: 'customer',
};

const calls = (url: string) => fetchMock.mock.calls.filter(([called]) => called === url);

describe('VerifyPhoneModal', () => {
  it('asks for the security code from the e-mail before a verified number can be changed', async () => {
    const user = userEvent.setup();
    renderWithProviders(<VerifyPhoneModal user={ada} open onClose={() => undefined} />);
    expect(screen.getByRole('dialog', { name: 'Change your phone' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /phone/i })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send security code' }));
    await vi.waitFor(() => expect(calls('/api/user/step-up/send')).toHaveLength(1));
    await user.type(await screen.findByLabelText(/code/i), '246810');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByRole('dialog', { name: 'Verify your phone' })).toBeInTheDocument();
    const phone = screen.getByRole('textbox', { name: /phone/i });
    await user.type(phone, '2025550188');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await vi.waitFor(() => expect(calls('/api/verification/phone/otp')).toHaveLength(1));
    expect(JSON.parse(calls('/api/verification/phone/otp')[0]![1]!.body as string)).toMatchObject({
      email: 'ada@example.com',
      stepUpCode: '246810',
    });
  });

  it('goes straight to the number when the phone is not verified yet', () => {
    renderWithProviders(
      <VerifyPhoneModal user={{ ...ada, phone_verified: false }} open onClose={() => undefined} />,
    );
    expect(screen.getByRole('dialog', { name: 'Verify your phone' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send security code' })).not.toBeInTheDocument();
  });
});
