import type { TaxExportFormat } from '@offzero/shared/api/tax';
import { orderOriginLabel } from '@offzero/shared/api/orders';
import { formatBtc, formatUsd } from '@offzero/shared/money/money';
import type { OrderRow } from '../db/schema';
import { csvRow } from './csv';
import { tradeTimeOf } from './tax.repository';

/**
 * The three layouts of a customer's yearly export (docs/design.md). In every one a buy is an
 * acquisition whose cost is everything the customer paid (fees included), and a sell a disposal whose
 * proceeds are what they received (fees deducted).
 */
export interface ExportLayout {
  header: string;
  row(order: OrderRow): string;
}

/** What the customer paid in fees on the order, in cents: platform fee plus network or bank fee. */
export function feesOf(order: OrderRow): bigint {
  return order.platformFeeCents + order.networkFeeCents + order.bankFeeCents;
}

/**
 * A sell's gross value before fees; a buy's value is already what the customer paid, fees included.
 * (A sell's `value` is what the customer receives: gross less the platform fee and the bank charges.)
 */
export function grossOf(order: OrderRow): bigint {
  return order.type === 'sell' ? order.valueCents + feesOf(order) : order.valueCents;
}

/**
 * A Lightning order's proof (docs/design.md, "Lightning"): its transaction reference is the payment
 * hash (kept in `txn`), proven by the preimage. Null for an order paid on chain or by bank.
 */
export function lightningProofOf(order: OrderRow): { paymentHash: string; preimage: string } | null {
  return order.txn && order.lightningPreimage
    ? { paymentHash: order.txn, preimage: order.lightningPreimage }
    : null;
}

const iso = (date: Date) => date.toISOString();
const pad = (n: number) => String(n).padStart(2, '0');

/** OffZero's own layout: every figure of the order. */
const OFFZERO_COLUMNS = [
  'Date (UTC)',
  'Type',
  'BTC Amount',
  'USD Value',
  'Rate (USD per BTC)',
  'Platform Fee (USD)',
  'Network Fee (USD)',
  'Bank Fee (USD)',
  'Total Fees (USD)',
  'Cost Basis or Proceeds (USD)',
  'Payment Method',
  'Address',
  'Transaction ID',
  'Lightning Preimage',
  'Bank Reference',
  'Order ID',
  // A plan's or a deposit's buy says so (docs/design.md, "Recurring buys"); empty for the customer's own.
  'Source',
];

const offzero: ExportLayout = {
  header: csvRow(OFFZERO_COLUMNS),
  row: (order) =>
    csvRow([
      iso(tradeTimeOf(order)),
      order.type,
      formatBtc(order.amountSats),
      formatUsd(order.valueCents),
      formatUsd(order.priceCents),
      formatUsd(order.platformFeeCents),
      formatUsd(order.networkFeeCents),
      formatUsd(order.bankFeeCents),
      formatUsd(feesOf(order)),
      // A buy's cost includes its fees; a sell's proceeds are after them: both are the order's value.
      formatUsd(order.valueCents),
      order.paymentMethod,
      order.walletAddress,
      order.txn,
      lightningProofOf(order)?.preimage,
      order.bankTxn,
      order.id,
      orderOriginLabel(order.origin),
    ]),
};

/**
 * Koinly's universal import layout, with the column names of Koinly's "How to create a custom CSV file
 * with your data" (help.koinly.io/en/articles/3662999, section "Universal template"): dates in UTC as
 * `YYYY-MM-DD HH:mm UTC`, amounts positive, the fee in its own currency. A buy sends the dollars before
 * fees and the fee separately, so Koinly's cost basis is the whole payment; a sell receives the gross
 * and pays the fees from it, so its proceeds are net of fees.
 */
const KOINLY_COLUMNS = [
  'Date',
  'Sent Amount',
  'Sent Currency',
  'Received Amount',
  'Received Currency',
  'Fee Amount',
  'Fee Currency',
  'Net Worth Amount',
  'Net Worth Currency',
  'Label',
  'Description',
  'TxHash',
];

const koinlyDate = (date: Date) =>
  `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
  `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;

const koinly: ExportLayout = {
  header: csvRow(KOINLY_COLUMNS),
  row: (order) => {
    const fees = formatUsd(feesOf(order));
    const origin = orderOriginLabel(order.origin);
    const proof = lightningProofOf(order);
    // Koinly's TxHash is the payment hash of a Lightning order; its preimage goes in the description.
    const notes = [origin, proof ? `Lightning, preimage ${proof.preimage}` : null].filter(Boolean);
    const description = `OffZero ${order.type} ${order.id}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
    return order.type === 'buy'
      ? csvRow([
          koinlyDate(tradeTimeOf(order)),
          formatUsd(order.valueCents - feesOf(order)),
          'USD',
          formatBtc(order.amountSats),
          'BTC',
          fees,
          'USD',
          formatUsd(order.valueCents),
          'USD',
          '',
          description,
          order.txn,
        ])
      : csvRow([
          koinlyDate(tradeTimeOf(order)),
          formatBtc(order.amountSats),
          'BTC',
          formatUsd(grossOf(order)),
          'USD',
          fees,
          'USD',
          formatUsd(grossOf(order)),
          'USD',
          '',
          description,
          order.txn,
        ]);
  },
};

/**
 * CoinTracker's CSV import layout, with the header of CoinTracker's "Convert your transaction history
 * to CoinTracker CSV" (support.cointracker.io/hc/en-us/articles/4413071299729): Date as
 * `MM/DD/YYYY HH:MM:SS` (UTC), Received Quantity, Received Currency, Sent Quantity, Sent Currency, Fee
 * Amount, Fee Currency, Tag. Trades carry no tag. Fees as for Koinly above.
 */
const COINTRACKER_COLUMNS = [
  'Date',
  'Received Quantity',
  'Received Currency',
  'Sent Quantity',
  'Sent Currency',
  'Fee Amount',
  'Fee Currency',
  'Tag',
];

const cointrackerDate = (date: Date) =>
  `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${date.getUTCFullYear()} ` +
  `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;

const cointracker: ExportLayout = {
  header: csvRow(COINTRACKER_COLUMNS),
  row: (order) =>
    order.type === 'buy'
      ? csvRow([
          cointrackerDate(tradeTimeOf(order)),
          formatBtc(order.amountSats),
          'BTC',
          formatUsd(order.valueCents - feesOf(order)),
          'USD',
          formatUsd(feesOf(order)),
          'USD',
          '',
        ])
      : csvRow([
          cointrackerDate(tradeTimeOf(order)),
          formatUsd(grossOf(order)),
          'USD',
          formatBtc(order.amountSats),
          'BTC',
          formatUsd(feesOf(order)),
          'USD',
          '',
        ]),
};

export const EXPORT_LAYOUTS: Record<TaxExportFormat, ExportLayout> = { offzero, koinly, cointracker };
