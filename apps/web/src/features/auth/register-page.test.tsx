import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/test-utils';
import RegisterPage from './register-page';

describe('RegisterPage', () => {
  it('prefills the referral code from the shared link /register/?ref=CODE', () => {
    renderWithProviders(<RegisterPage />, { route: '/register/?ref=AbC-_123xyzXYZ00' });
    expect(screen.getByRole('heading', { name: 'Register Your Account' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Referral Code/)).toHaveValue('AbC-_123xyzXYZ00');
  });

  it('leaves the referral code empty without a link', () => {
    renderWithProviders(<RegisterPage />, { route: '/register' });
    expect(screen.getByLabelText(/Referral Code/)).toHaveValue('');
  });
});
