import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { CaseDetail } from '@offzero/shared/api/cases';
import { jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { stubAdminFetch } from '../../../test/admin-fetch';
import { adminPaths } from '../admin-paths';
import CasePage from './case-page';

const CASE_ID = '7a1c2b3a-0000-4000-8000-00000000ca5e';
const USER_ID = '5d1c2b3a-0000-4000-8000-00000000beef';

const detail: CaseDetail = {
  id: CASE_ID,
  userId: USER_ID,
  customerEmail: 'sam@example.com',
  rule: 'name_mismatch',
  status: 'reviewing',
  openedAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T11:00:00.000Z',
  evidence: {
    description: 'The bank account holder is not the verified customer',
    holderName: 'Charles Babbage',
    kycName: 'Ada Lovelace',
    accountNumber: '****1098',
    orders: [
      {
        orderId: 'abcd1234-0000-4000-8000-000000000001',
        type: 'sell',
        valueUsd: 500,
        createdAt: '2026-03-01T09:59:00.000Z',
      },
    ],
  },
  outcome: null,
  closedAt: null,
  sarFiledAt: null,
  sarReference: null,
  notes: [],
  history: [
    {
      at: '2026-03-01T10:00:00.000Z',
      actor: 'monitoring',
      action: 'case.open',
      fromStatus: null,
      toStatus: 'open',
      note: null,
    },
  ],
};

const mockedFetch = stubAdminFetch(async (url, init) => {
  if (init?.method === 'POST') {
    return jsonResponse({
      message: 'Case closed.',
      case: { ...detail, status: 'closed', outcome: 'no_action' },
    });
  }
  if (url.startsWith(`/api/admin/cases/${CASE_ID}`)) return jsonResponse({ case: detail });
  return jsonResponse({ message: 'Not found' }, 404);
});

const renderPage = () =>
  renderWithProviders(
    <Routes>
      <Route path={`${adminPaths.cases}/:caseId`} element={<CasePage />} />
    </Routes>,
    { route: adminPaths.case(CASE_ID) },
  );

const posts = () => mockedFetch().mock.calls.filter(([, init]) => init?.method === 'POST');

describe('the case page', () => {
  it('shows the evidence in words with the account number masked', async () => {
    renderPage();
    const evidence = await screen.findByTestId('case-evidence');
    expect(evidence).toHaveTextContent('Charles Babbage');
    expect(evidence).toHaveTextContent('Ada Lovelace');
    expect(evidence).toHaveTextContent('****1098');
    expect(screen.getAllByText('Under review').length).toBeGreaterThan(0);
  });

  it('will not close without an outcome, nor as "SAR filed" without a past date and a reference', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Close case' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Note'), 'Checked with the bank.');
    await user.click(within(dialog).getByRole('button', { name: 'Close case' }));
    expect(await within(dialog).findByText(/Choose an outcome/)).toBeInTheDocument();

    await user.click(within(dialog).getByLabelText('SAR filed'));
    await user.click(within(dialog).getByRole('button', { name: 'Close case' }));
    expect(await within(dialog).findByText('Give the date the SAR was filed.')).toBeInTheDocument();
    expect(within(dialog).getByText('Give the SAR reference.')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('SAR filed on'), '2999-01-01');
    await user.type(within(dialog).getByLabelText('SAR reference'), 'BSA-1');
    await user.click(within(dialog).getByRole('button', { name: 'Close case' }));
    expect(
      await within(dialog).findByText('The SAR filing date cannot be in the future.'),
    ).toBeInTheDocument();
    expect(posts()).toEqual([]);
  });

  it('closes with "no action" and the note, once, with an Idempotency-Key', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Close case' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByLabelText('No action'));
    await user.type(within(dialog).getByLabelText('Note'), 'Spouse’s account; documents on file.');
    await user.click(within(dialog).getByRole('button', { name: 'Close case' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    const [url, init] = posts()[0]!;
    expect(url).toBe(`/api/admin/cases/${CASE_ID}`);
    expect(JSON.parse(init?.body as string)).toEqual({
      status: 'closed',
      outcome: 'no_action',
      note: 'Spouse’s account; documents on file.',
    });
    expect(new Headers(init?.headers).get('Idempotency-Key')).toMatch(/^[0-9a-f]{32}$/);
  });
});
