import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import AuditPage from './audit-page';

const entry = (
  id: string,
  action: string,
  targetType: string,
  targetId: string,
  note: string | null = null,
) => ({
  _id: id,
  at: '2026-03-01T10:00:00.000Z',
  admin: 'admin@offzero.local',
  action,
  targetType,
  targetId,
  before: null,
  after: null,
  note,
});

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () =>
      jsonResponse({
        entries: [
          entry('1', 'tax.1099da_export', 'tax', '2026', 'Form 1099-DA file for 2026'),
          entry('2', 'payout_batch.broadcast', 'payout_batch', '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9'),
        ],
      }),
    ),
  );
  saveSessionToken(fakeSessionToken('admin-1'));
  saveCsrfToken('csrf-1');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AuditPage', () => {
  it('names tax and payout batch entries in words and links them to their pages', async () => {
    renderWithProviders(<AuditPage />, { route: '/admin/audit' });
    const table = await screen.findByRole('table', { name: 'Audit log' });
    const [tax, batch] = within(table).getAllByTestId('audit-row');
    expect(tax).toHaveTextContent('Form 1099-DA file opened or downloaded');
    expect(within(tax!).getByRole('link', { name: 'tax 2026' })).toHaveAttribute(
      'href',
      '/admin/tax/1099-da?year=2026',
    );
    expect(batch).toHaveTextContent('Payout batch: broadcast');
    expect(within(batch!).getByRole('link', { name: 'payout batch 0f1e2d3c' })).toHaveAttribute(
      'href',
      '/admin/payouts',
    );
  });
});
