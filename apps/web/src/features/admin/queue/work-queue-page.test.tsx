import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import WorkQueuePage from './work-queue-page';

const emptyQueue = { paymentsToCheck: [], bitcoinToSend: [], sellPayoutsDue: [], flagged: [] };

let alerts: { id: string; message: string }[] = [];

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url.startsWith('/api/admin/queue')) return jsonResponse({ ...emptyQueue, alerts });
      if (url.startsWith('/api/admin/kyc')) return jsonResponse({ cases: [] });
      if (url.startsWith('/api/admin/cases')) return jsonResponse({ cases: [] });
      return jsonResponse({ message: 'Not found' }, 404);
    }),
  );
  saveSessionToken(fakeSessionToken('admin-1'));
  saveCsrfToken('csrf-1');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the work queue', () => {
  it('shows a system alert (a sanctions list that failed to refresh) above the work', async () => {
    alerts = [
      {
        id: 'sanctions-list',
        message: 'The last sanctions list refresh failed (HTTP 500); the list of 2026-11-20 stays in force.',
      },
    ];
    renderWithProviders(<WorkQueuePage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('The last sanctions list refresh failed');
  });

  it('shows no alert when the system is healthy', async () => {
    alerts = [];
    renderWithProviders(<WorkQueuePage />);
    expect(await screen.findByText(/Nothing is waiting for a person/)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
