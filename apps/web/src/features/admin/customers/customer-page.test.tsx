import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { CustomerDetail } from '@offzero/shared/api/admin';
import { jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { stubAdminFetch } from '../../../test/admin-fetch';
import { adminPaths } from '../admin-paths';
import CustomerPage from './customer-page';

const USER_ID = '5d1c2b3a-0000-4000-8000-00000000beef';

const detail = (user: Partial<CustomerDetail['user']> = {}): CustomerDetail => ({
  user: {
    _id: USER_ID,
    email: 'eve@example.com',
    firstName: 'Eve',
    lastName: 'Seller',
    phoneNumber: null,
    email_verified: true,
    phone_verified: true,
    image: null,
    role: 'customer',
    disabled: false,
    createdAt: '2026-03-01T10:00:00.000Z',
    disabledAt: null,
    restrictedAt: '2026-03-02T10:00:00.000Z',
    restrictedReason: 'the deposit of sell order #abcd1234 was reversed after payout',
    referralCode: null,
    referredBy: null,
    limitTier: 1,
    ...user,
  },
  settings: {
    bankAccount: null,
    walletAddress: null,
    zelleEmail: null,
    referralCode: null,
    receiveEmail: true,
    receiveSMS: true,
  },
  kyc: null,
  orders: [],
  referralRewards: [],
  referralTotal: 0,
});

const mockedFetch = stubAdminFetch(async (url, init) => {
  if (init?.method === 'POST')
    return jsonResponse({ message: 'Restriction lifted; the customer can trade again.' });
  if (url.startsWith('/api/admin/users/')) return jsonResponse(detail());
  return jsonResponse({ message: 'Not found' }, 404);
});

const renderPage = () =>
  renderWithProviders(
    <Routes>
      <Route path={`${adminPaths.customers}/:userId`} element={<CustomerPage />} />
    </Routes>,
    { route: adminPaths.customer(USER_ID) },
  );

describe('the customer page', () => {
  it('shows a restriction with its reason, and lifts it after a confirmation with a reason', async () => {
    const user = userEvent.setup();
    renderPage();
    const note = await screen.findByTestId('customer-restriction');
    expect(note).toHaveTextContent('Trading restricted since');
    expect(note).toHaveTextContent('the deposit of sell order #abcd1234 was reversed after payout');

    await user.click(screen.getByRole('button', { name: 'Lift restriction' }));
    const dialog = screen.getByRole('dialog', { name: 'Lift the trading restriction' });
    expect(dialog).toHaveTextContent('The customer can place orders again.');
    const posts = () => mockedFetch().mock.calls.filter(([, init]) => init?.method === 'POST');
    await user.click(screen.getAllByRole('button', { name: 'Lift restriction' }).at(-1)!);
    expect(screen.getByText('Give a reason of at least 3 characters.')).toBeInTheDocument();
    expect(posts()).toHaveLength(0);

    await user.type(screen.getByLabelText(/Reason/), 'Funds recovered');
    await user.click(screen.getAllByRole('button', { name: 'Lift restriction' }).at(-1)!);
    await waitFor(() => expect(posts()).toHaveLength(1));
    const [url, init] = posts()[0]!;
    expect(url).toBe(`/api/admin/users/${USER_ID}/lift-restriction`);
    expect(JSON.parse(init?.body as string)).toEqual({ reason: 'Funds recovered' });
  });

  it('offers no lift for a customer who is not restricted', async () => {
    mockedFetch().mockImplementation(async () =>
      jsonResponse(detail({ restrictedAt: null, restrictedReason: null })),
    );
    renderPage();
    expect(await screen.findByRole('button', { name: 'Disable account' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Lift restriction' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('customer-restriction')).not.toBeInTheDocument();
  });

  it('moves a customer to tier 2 after a confirmation with a reason', async () => {
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByTestId('customer-tier')).toHaveTextContent('Tier 1');
    await user.click(screen.getByRole('button', { name: 'Move to tier 2' }));
    const dialog = screen.getByRole('dialog', { name: 'Move to tier 2' });
    expect(dialog).toHaveTextContent('Your reason is kept in the audit log.');
    await user.type(screen.getByLabelText(/Reason/), 'Enhanced due diligence done');
    await user.click(screen.getAllByRole('button', { name: 'Move to tier 2' }).at(-1)!);
    const posts = () => mockedFetch().mock.calls.filter(([, init]) => init?.method === 'POST');
    await waitFor(() => expect(posts()).toHaveLength(1));
    const [url, init] = posts()[0]!;
    expect(url).toBe(`/api/admin/users/${USER_ID}/tier`);
    expect(JSON.parse(init?.body as string)).toEqual({ tier: 2, reason: 'Enhanced due diligence done' });
  });

  it('restricts an unrestricted customer with a reason, after a confirmation', async () => {
    mockedFetch().mockImplementation(async (url, init) => {
      if (init?.method === 'POST') return jsonResponse({ message: 'Trading restricted.' });
      if (url.startsWith('/api/admin/users/'))
        return jsonResponse(detail({ restrictedAt: null, restrictedReason: null }));
      return jsonResponse({ message: 'Not found' }, 404);
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Restrict trading' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restrict trading' });
    expect(dialog).toHaveTextContent('The customer can still sign in and read everything.');
    await user.type(screen.getByLabelText(/Reason/), 'Source of funds unclear');
    await user.click(screen.getAllByRole('button', { name: 'Restrict trading' }).at(-1)!);
    const posts = () => mockedFetch().mock.calls.filter(([, init]) => init?.method === 'POST');
    await waitFor(() => expect(posts()).toHaveLength(1));
    const [url, init] = posts()[0]!;
    expect(url).toBe(`/api/admin/users/${USER_ID}/restrict`);
    expect(JSON.parse(init?.body as string)).toEqual({ reason: 'Source of funds unclear' });
  });
});
