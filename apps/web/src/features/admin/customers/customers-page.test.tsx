import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from '../../../lib/toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveSessionToken } from '../../../lib/session-storage';
import CustomersPage from './customers-page';

let fetchMock: ReturnType<typeof vi.fn<(input: string) => Promise<Response>>>;

beforeEach(() => {
  fetchMock = vi.fn<(input: string) => Promise<Response>>(async () => jsonResponse({ users: [] }));
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(toast, 'error');
  saveSessionToken(fakeSessionToken('admin-1'));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const searchedFor = () =>
  fetchMock.mock.calls.map(([url]) => new URL(url, 'http://localhost').searchParams.get('q'));

describe('the customer search', () => {
  it('searches for the trimmed term, and a blank search lists everyone again', async () => {
    const user = userEvent.setup();
    renderWithProviders(<CustomersPage />);
    expect(await screen.findByText('No customers yet.')).toBeInTheDocument();

    const box = screen.getByLabelText('Search customers');
    await user.type(box, '  ada@example.com ');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No customer matches “ada@example.com”.')).toBeInTheDocument();
    expect(searchedFor()).toContain('ada@example.com');

    await user.clear(box);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No customers yet.')).toBeInTheDocument();
  });

  it('refuses a term longer than the server takes, with a toast, and sends nothing', async () => {
    const user = userEvent.setup();
    renderWithProviders(<CustomersPage />);
    const box = await screen.findByLabelText('Search customers');
    const calls = fetchMock.mock.calls.length;
    await user.click(box);
    await user.paste('a'.repeat(255));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Search for at most 254 characters.'));
    expect(fetchMock.mock.calls.length).toBe(calls);
  });
});
