import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import { KYC_REVIEW_POLL_MS } from '../../../domain/kyc';
import { KycTile } from './kyc-tile';
import { verifiedUser } from '../../../test/trade-fixtures';

const user = verifiedUser;

let kyc: {
  _id: string;
  status: 'GREEN' | 'YELLOW' | 'RED';
  reviewNote: string | null;
  reason?: string;
} | null;
let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;

beforeEach(() => {
  kyc = null;
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>(async (input) => {
    if (input === '/api/kyc/user-1') return jsonResponse({ kyc });
    if (input === '/api/kyc/generate/token') return jsonResponse({ provider: 'local', token: null });
    return jsonResponse({ message: 'unexpected' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  saveSessionToken(fakeSessionToken('user-1'));
  saveCsrfToken('csrf-1');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const kycCalls = () => fetchMock.mock.calls.filter(([url]) => url === '/api/kyc/user-1').length;

describe('KycTile', () => {
  it('with no record offers Verify KYC, which opens the verification dialog', async () => {
    renderWithProviders(<KycTile user={user} />);
    const tile = screen.getByTestId('status-kyc');
    await userEvent.setup().click(await within(tile).findByRole('button', { name: 'Verify KYC' }));
    expect(screen.getByRole('dialog', { name: 'Verify your identity' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Full legal name')).toHaveValue('Ada Lovelace');
  });

  it('shows Under Review without a success mark', async () => {
    kyc = { _id: 'k', status: 'YELLOW', reviewNote: null };
    renderWithProviders(<KycTile user={user} />);
    const tile = screen.getByTestId('status-kyc');
    expect(await within(tile).findByText('Under Review')).toBeInTheDocument();
    expect(within(tile).queryByText('Done')).not.toBeInTheDocument();
    expect(within(tile).queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows Approved with the success mark', async () => {
    kyc = { _id: 'k', status: 'GREEN', reviewNote: null };
    renderWithProviders(<KycTile user={user} />);
    const tile = screen.getByTestId('status-kyc');
    expect(await within(tile).findByText('Approved')).toBeInTheDocument();
    expect(within(tile).getByText('Done')).toBeInTheDocument();
  });

  it('shows Rejected with its reason in full and offers to submit again, the dialog repeating why', async () => {
    const reason =
      'The photo of your passport is blurred and the expiry date cannot be read. Upload a sharp photo of the whole page.';
    kyc = { _id: 'k', status: 'RED', reviewNote: reason, reason };
    renderWithProviders(<KycTile user={user} />);
    const tile = screen.getByTestId('status-kyc');
    expect(await within(tile).findByText('Rejected')).toBeInTheDocument();
    expect(within(tile).getByTestId('kyc-reason')).toHaveTextContent(reason);
    expect(within(tile).getByTestId('kyc-reason')).not.toHaveClass('truncate');
    expect(within(tile).queryByText('Done')).not.toBeInTheDocument();
    await userEvent.setup().click(within(tile).getByRole('button', { name: 'Submit again' }));
    const dialog = screen.getByRole('dialog', { name: 'Verify your identity' });
    expect(within(dialog).getByTestId('kyc-rejection')).toHaveTextContent(
      `Your identity verification was not approved: ${reason}`,
    );
    // The demo form is offered again, to submit a new case.
    expect(await within(dialog).findByLabelText('Full legal name')).toHaveValue('Ada Lovelace');
    expect(within(dialog).getByRole('button', { name: 'Submit for review' })).toBeEnabled();
  });

  it('says a rejection without a reason plainly, in the tile and the dialog', async () => {
    kyc = { _id: 'k', status: 'RED', reviewNote: null };
    renderWithProviders(<KycTile user={user} />);
    const tile = screen.getByTestId('status-kyc');
    expect(await within(tile).findByText('Rejected')).toBeInTheDocument();
    expect(within(tile).queryByTestId('kyc-reason')).not.toBeInTheDocument();
    await userEvent.setup().click(within(tile).getByRole('button', { name: 'Submit again' }));
    expect(screen.getByTestId('kyc-rejection')).toHaveTextContent(
      'Your identity verification was not approved.',
    );
  });

  it('shows no rejection in the dialog of a first verification', async () => {
    renderWithProviders(<KycTile user={user} />);
    const tile = screen.getByTestId('status-kyc');
    await userEvent.setup().click(await within(tile).findByRole('button', { name: 'Verify KYC' }));
    expect(await screen.findByLabelText('Full legal name')).toBeInTheDocument();
    expect(screen.queryByTestId('kyc-rejection')).not.toBeInTheDocument();
  });

  it('reads the status again every 10 seconds while under review, and stops once decided', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    kyc = { _id: 'k', status: 'YELLOW', reviewNote: null };
    renderWithProviders(<KycTile user={user} />);
    const tile = screen.getByTestId('status-kyc');
    expect(await within(tile).findByText('Under Review')).toBeInTheDocument();
    expect(kycCalls()).toBe(1);

    kyc = { _id: 'k', status: 'GREEN', reviewNote: null };
    await act(() => vi.advanceTimersByTimeAsync(KYC_REVIEW_POLL_MS));
    expect(await within(tile).findByText('Approved')).toBeInTheDocument();
    expect(kycCalls()).toBe(2);

    await act(() => vi.advanceTimersByTimeAsync(KYC_REVIEW_POLL_MS * 3));
    expect(kycCalls()).toBe(2);
  });
});
