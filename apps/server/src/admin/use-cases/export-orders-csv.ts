import type { Database } from '../../db/database';
import { toOrderResponse } from '../../orders/order.presenter';
import { findOrdersMatching, type AdminOrderFilters } from '../admin-orders.repository';

const CSV_COLUMNS = [
  'id',
  'created_at',
  'customer_email',
  'type',
  'status',
  'amount_btc',
  'price_usd',
  'value_usd',
  'platform_fee_usd',
  'network_fee_usd',
  'bank_fee_usd',
  'payment_method',
  'txn',
  'bank_txn',
  'flag',
] as const;

function csvCell(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  // Quote everything and neutralise spreadsheet formulas (a leading = + - @).
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The matching orders as a spreadsheet file (CSV, CRLF line ends), named after today's date. */
export async function exportOrdersCsv(
  deps: { db: Database },
  filters: AdminOrderFilters,
): Promise<{ filename: string; csv: string }> {
  const { rows } = await findOrdersMatching(deps.db, filters);
  const lines = [CSV_COLUMNS.join(',')];
  for (const { order, email } of rows) {
    const o = toOrderResponse(order);
    lines.push(
      [
        o._id,
        o.createdAt,
        email,
        o.type,
        o.status,
        o.amount,
        o.price,
        o.value,
        o.platformFee,
        o.networkFee,
        o.bankFee,
        o.payment?.method ?? null,
        o.txn,
        o.bankTxn,
        order.flag,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return {
    filename: `offzero-orders-${new Date().toISOString().slice(0, 10)}.csv`,
    csv: `${lines.join('\r\n')}\r\n`,
  };
}
