import { centsToUsdNumber, parseUsd, type Cents } from '@offzero/shared/money/money';
import { AlertIcon } from '../../../components/ui/icons';
import { adminPaths } from '../admin-paths';
import { IdWithCopy } from '../components/blocks';
import { type Column } from '../components/data-table';
import { Pill } from '../components/badges';
import { formatDate, shortOrderId, usd } from '../format';

/** The file's columns (apps/server/src/tax/tax.service.ts `FORM_1099_DA_COLUMNS`). */
export type SaleRow = Record<
  | 'Legal Name'
  | 'TIN (masked)'
  | 'TIN Type'
  | 'Address'
  | 'City'
  | 'State'
  | 'ZIP'
  | 'Email'
  | 'Date Sold'
  | 'Gross Proceeds (USD)'
  | 'Transaction Costs (USD)'
  | 'Quantity (BTC)'
  | 'Cost Basis'
  | 'W-9 Status'
  | 'Order ID',
  string
>;

export const missingW9 = (row: SaleRow) => row['W-9 Status'] === 'missing';

export function cents(text: string): Cents {
  try {
    return parseUsd(text);
  } catch {
    return 0n;
  }
}

/** One sell of the worksheet: the seller and their W-9, the sale, its proceeds and its order. */
export const SALE_COLUMNS: Column<SaleRow>[] = [
  {
    key: 'seller',
    header: 'Seller',
    primary: true,
    cell: (row) => (
      <span className="block min-w-0 md:w-44 xl:w-52">
        <span className="block font-medium break-words text-ink-900">
          {row['Legal Name'] || <span className="text-slate-500">No W-9 on file</span>}
        </span>
        <span
          title={row.Email}
          className="block text-xs break-all text-slate-500 md:truncate md:break-normal"
        >
          {row.Email}
        </span>
      </span>
    ),
  },
  {
    key: 'w9',
    header: 'W-9',
    primary: true,
    cell: (row) =>
      missingW9(row) ? (
        <Pill tone="red" title="No Form W-9: collect one before filing">
          <AlertIcon className="size-3.5" />
          Missing
        </Pill>
      ) : (
        <Pill tone="emerald" title={row['W-9 Status']}>
          On file
        </Pill>
      ),
  },
  {
    key: 'tin',
    header: 'TIN',
    cell: (row) =>
      row['TIN (masked)'] ? (
        <span className="text-xs whitespace-nowrap">
          <span className="font-mono text-ink-900 md:block">{row['TIN (masked)']}</span>{' '}
          <span className="text-slate-500 md:block">{row['TIN Type']}</span>
        </span>
      ) : (
        '—'
      ),
  },
  {
    key: 'address',
    header: 'Address',
    cell: (row) =>
      row.Address ? (
        <span className="block text-xs leading-5 text-slate-700 md:max-w-40">
          {row.Address}
          <br />
          {row.City}, {row.State} {row.ZIP}
        </span>
      ) : (
        '—'
      ),
  },
  {
    key: 'sale',
    header: 'Sale',
    className: 'whitespace-nowrap',
    cell: (row) => (
      <span>
        <span className="block text-ink-900">{formatDate(`${row['Date Sold']}T12:00:00Z`)}</span>
        <span className="block text-xs text-slate-500 tabular-nums">{row['Quantity (BTC)']} BTC</span>
      </span>
    ),
  },
  {
    key: 'proceeds',
    header: 'Gross proceeds',
    className: 'text-right tabular-nums whitespace-nowrap',
    cell: (row) => (
      <span>
        <span className="block font-semibold text-ink-900">
          {usd(centsToUsdNumber(cents(row['Gross Proceeds (USD)'])))}
        </span>
        <span className="block text-xs text-slate-500">
          costs {usd(centsToUsdNumber(cents(row['Transaction Costs (USD)'])))}
        </span>
      </span>
    ),
  },
  {
    key: 'order',
    header: 'Order',
    className: 'whitespace-nowrap',
    cell: (row) => (
      <IdWithCopy
        value={row['Order ID']}
        label="Copy order id"
        display={shortOrderId(row['Order ID'])}
        to={adminPaths.order(row['Order ID'])}
      />
    ),
  },
];
