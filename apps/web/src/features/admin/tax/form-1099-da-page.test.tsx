import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSessionToken, renderWithProviders } from '../../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import { saveBlob } from '../../../lib/save-blob';
import Form1099DaPage from './form-1099-da-page';

vi.mock('../../../lib/save-blob', () => ({ saveBlob: vi.fn() }));

const YEAR = new Date().getUTCFullYear();
const HEADER =
  '"Legal Name","TIN (masked)","TIN Type","Address","City","State","ZIP","Email","Date Sold",' +
  '"Gross Proceeds (USD)","Transaction Costs (USD)","Quantity (BTC)","Cost Basis","W-9 Status","Order ID"\r\n';
const FILE =
  HEADER +
  `"","","","","","","","bob@example.com","${YEAR}-01-25","790.00","12.00","0.01000000","noncovered","missing","11111111-1111-4111-8111-111111111111"\r\n` +
  `"Ada, ""Countess"" Lovelace","***-**-6789","SSN","12 Engine Row","Cheyenne","WY","82001","ada@example.com","${YEAR}-01-20","3939.00","61.00","0.05000000","noncovered","on file (certified ${YEAR}-01-02)","22222222-2222-4222-8222-222222222222"\r\n`;

let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;

beforeEach(() => {
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>(async (url) => {
    const body = url === `/api/admin/tax/1099-da?year=${YEAR}` ? FILE : HEADER;
    return new Response(body, {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="offzero-1099-da-${YEAR}.csv"`,
      },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  saveSessionToken(fakeSessionToken('admin-1'));
  saveCsrfToken('csrf-1');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Form1099DaPage', () => {
  it('lists the sells with masked TINs, marks the seller without a W-9 first, and totals the year', async () => {
    renderWithProviders(<Form1099DaPage />, { route: '/admin/tax/1099-da' });
    const table = await screen.findByRole('table', { name: `Form 1099-DA sells of ${YEAR}` });
    const rows = within(table).getAllByTestId('form-1099-da-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('No W-9 on file');
    expect(within(rows[0]!).getByText('Missing')).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Ada, "Countess" Lovelace');
    expect(rows[1]).toHaveTextContent('***-**-6789');
    expect(rows[1]).toHaveTextContent('$3,939.00');
    expect(screen.getByRole('note')).toHaveTextContent(`1 sell of ${YEAR} has no Form W-9 on file`);
    expect(screen.getByText('$4,729.00')).toBeInTheDocument();
    // The file is read once: each read is an audited export.
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('says so for a year without sells, and reads another year when picked', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Form1099DaPage />, { route: '/admin/tax/1099-da' });
    await screen.findByRole('table', { name: `Form 1099-DA sells of ${YEAR}` });
    await user.selectOptions(screen.getByLabelText('Tax year'), String(YEAR - 1));
    expect(await screen.findByText(`No completed sells in ${YEAR - 1}.`)).toBeInTheDocument();
    expect(fetchMock).toHaveBeenLastCalledWith(`/api/admin/tax/1099-da?year=${YEAR - 1}`, expect.anything());
  });

  it('downloads the CSV', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Form1099DaPage />, { route: '/admin/tax/1099-da' });
    await screen.findByRole('table', { name: `Form 1099-DA sells of ${YEAR}` });
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await vi.waitFor(() =>
      expect(saveBlob).toHaveBeenCalledWith(expect.any(Blob), `offzero-1099-da-${YEAR}.csv`),
    );
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
