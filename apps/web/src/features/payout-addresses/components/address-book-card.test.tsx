import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PayoutAddress } from '@offzero/shared/api/payout-addresses';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import { AddressBookCard } from './address-book-card';

const WALLET = 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7';
const VPUB =
  'vpub5Y6cjg78GGuNLsaPhmYsiw4gYX3HoQiRBiSwDaBXKUafCt9bNwWQiitDk5VZ5BVxYnQdwoTyXSs2JHRPAgjAvtbBrf8ZhDYe2jWAqvZVnsc';

const entry = (overrides: Partial<PayoutAddress>): PayoutAddress => ({
  id: 'e-1',
  label: 'Cold storage',
  address: WALLET,
  xpub: null,
  status: 'usable',
  proven: false,
  usableAt: '2026-11-20T10:00:00.000Z',
  isDefault: false,
  proofAddress: WALLET,
  createdAt: '2026-11-20T09:00:00.000Z',
  ...overrides,
});

let book: PayoutAddress[];
let posted: { url: string; body: unknown }[];

beforeEach(() => {
  book = [];
  posted = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      if (input === '/api/payout-addresses' && (init?.method ?? 'GET') === 'GET') {
        return jsonResponse({ payoutAddresses: book });
      }
      if (input === '/api/payout-addresses' && init?.method === 'POST') {
        const body = JSON.parse(init.body as string) as { label: string; xpub?: string; address?: string };
        posted.push({ url: input, body });
        const added = entry({
          id: 'e-new',
          label: body.label,
          address: body.address ?? null,
          xpub: body.xpub ?? null,
          status: 'unconfirmed',
          usableAt: null,
        });
        book = [...book, added];
        return jsonResponse({ message: 'Address added.', payoutAddress: added });
      }
      return jsonResponse({ message: 'unexpected' }, 404);
    }),
  );
  saveSessionToken(fakeSessionToken('user-1'));
  saveCsrfToken('csrf-1');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('AddressBookCard', () => {
  it('shows each entry with its status, usable time and proven badge', async () => {
    book = [
      entry({ proven: true }),
      entry({ id: 'e-2', label: 'Phone', address: null, xpub: VPUB, status: 'unconfirmed', usableAt: null }),
    ];
    renderWithProviders(<AddressBookCard />);
    const rows = await screen.findAllByTestId('address-book-entry');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveAttribute('data-status', 'usable');
    expect(within(rows[0]!).getByTestId('proven-badge')).toHaveTextContent('Proven');
    expect(rows[0]).toHaveTextContent('Usable since');
    expect(within(rows[0]!).queryByRole('button', { name: 'Prove ownership' })).toBeNull();
    expect(rows[1]).toHaveTextContent('Unconfirmed');
    expect(rows[1]).toHaveTextContent('Waiting for you to open the confirmation link');
    expect(rows[1]).toHaveTextContent('Each buy goes to a fresh address of this key');
    expect(within(rows[1]!).getByRole('button', { name: 'Send the link again' })).toBeVisible();
  });

  it('sends an extended key as `xpub` and an address as `address`, and refuses a label with control characters', async () => {
    renderWithProviders(<AddressBookCard />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add payout address' }));
    const dialog = screen.getByRole('dialog', { name: 'Add payout address' });
    await user.click(within(dialog).getByLabelText('Label'));
    await user.paste('Bad\u0007label');
    await user.type(within(dialog).getByLabelText('Bitcoin address or extended public key'), VPUB);
    await user.click(within(dialog).getByRole('button', { name: 'Add address' }));
    expect(await within(dialog).findByText('The label contains characters we cannot accept.')).toBeVisible();
    expect(posted).toEqual([]);

    await user.clear(within(dialog).getByLabelText('Label'));
    await user.type(within(dialog).getByLabelText('Label'), 'Phone');
    await user.click(within(dialog).getByRole('button', { name: 'Add address' }));
    expect(await screen.findByTestId('address-book-entry')).toHaveAttribute('data-status', 'unconfirmed');
    expect(posted).toEqual([{ url: '/api/payout-addresses', body: { label: 'Phone', xpub: VPUB } }]);
  });
});
