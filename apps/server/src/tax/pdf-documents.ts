import { formatBtc } from '@offzero/shared/money/money';
import { orderOriginLabel } from '@offzero/shared/api/orders';
import { railDocumentLabel } from '@offzero/shared/rails/rails';
import type { PlaceTerms } from '@offzero/shared/places/places';
import type { OrderRow } from '../db/schema';
import { feesOf, grossOf, lightningProofOf } from './tax-export-layouts';
import { tradeTimeOf, type TimelineStep } from './tax.repository';
import {
  type Issuer,
  MARGIN,
  INK,
  MUTED,
  type Doc,
  newDocument,
  usd,
  btc,
  utc,
  letterhead,
  rule,
  section,
  field,
  billLine,
  summaryBand,
} from './pdf-layout';

export type { Issuer } from './pdf-layout';

/**
 * The PDF receipt of one order and the yearly statement (docs/design.md), drawn with pdfkit in its
 * built-in Helvetica so that the text is real text (searchable, extractable), never an image.
 */

export function paymentMethodName(method: string | null): string {
  return method ? railDocumentLabel(method) : 'Not chosen';
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const day = (date: Date) => date.toISOString().slice(0, 10);

/** One order's receipt: every figure, where the money and the coins went, and its timeline. */
/** The output of the order's transaction (`txn`) that paid the buy, from the step that recorded it. */
function payoutOutputOf(order: OrderRow, timeline: readonly TimelineStep[]): number | null {
  if (!order.txn) return null;
  for (const step of [...timeline].reverse()) {
    const { txid, vout } = step.details ?? {};
    if (txid === order.txn && typeof vout === 'number' && Number.isInteger(vout)) return vout;
  }
  return null;
}

/** Who sent the deposit that bought a deposit buy, from its timeline step (docs/design.md, "Recurring buys"). */
function depositSenderOf(timeline: readonly TimelineStep[]): string | null {
  for (const step of timeline) {
    const name = step.details?.originatorName;
    if (typeof name === 'string' && name !== '') return name;
  }
  return null;
}

export function renderReceipt(
  issuer: Issuer,
  order: OrderRow,
  timeline: TimelineStep[],
  customer: { name: string; email: string },
  /** The licence line and disclosures of the customer's place, at the rules version the order was checked against. */
  place: PlaceTerms | null = null,
): Doc {
  const doc = newDocument(`OffZero receipt ${order.id}`);
  const buy = order.type === 'buy';
  const kind = buy ? 'Bitcoin purchase' : 'Bitcoin sale';
  letterhead(doc, issuer, `Receipt — ${kind}`, `Order ${order.id}`, [
    ['Receipt', `#${order.id.slice(0, 8)}`],
    ['Date', day(order.completedAt ?? order.createdAt)],
    ['Billed to', customer.name || customer.email],
  ]);

  summaryBand(
    doc,
    buy
      ? [
          ['You paid', usd(order.valueCents)],
          ['You received', btc(order.amountSats)],
          ['Status', capitalised(order.status)],
        ]
      : [
          ['You sent', btc(order.amountSats)],
          ['You received', usd(order.valueCents)],
          ['Status', capitalised(order.status)],
        ],
  );

  section(doc, 'Amounts');
  const rate = `${btc(order.amountSats)} at ${usd(order.priceCents)} per BTC`;
  if (buy) {
    billLine(doc, 'Bitcoin bought for', usd(order.valueCents - feesOf(order)), { detail: rate });
    billLine(doc, 'Platform fee', usd(order.platformFeeCents));
    billLine(doc, 'Network fee', usd(order.networkFeeCents));
    rule(doc);
    billLine(doc, 'You paid', usd(order.valueCents), {
      bold: true,
      detail: `Total fees ${usd(feesOf(order))}`,
    });
    billLine(doc, 'You received', btc(order.amountSats), { bold: true });
  } else {
    billLine(doc, 'Value before fees', usd(grossOf(order)), { detail: `You sent ${rate}` });
    billLine(doc, 'Platform fee', `– ${usd(order.platformFeeCents)}`);
    billLine(doc, 'Bank fee', `– ${usd(order.bankFeeCents)}`);
    rule(doc);
    billLine(doc, 'You received', usd(order.valueCents), {
      bold: true,
      detail: `Total fees ${usd(feesOf(order))}`,
    });
  }

  section(doc, 'Order');
  field(doc, 'Order ID', order.id, { mono: true });
  const origin = orderOriginLabel(order.origin);
  field(doc, 'Type', buy ? `${origin ?? 'Buy'} (you bought bitcoin)` : 'Sell (you sold bitcoin)');
  field(doc, 'Status', capitalised(order.status));
  field(doc, 'Placed', utc(order.createdAt));
  if (order.completedAt) field(doc, 'Completed', utc(order.completedAt));
  field(doc, 'Customer', customer.name ? `${customer.name} (${customer.email})` : customer.email);

  section(doc, 'Payment and transfer');
  field(doc, buy ? 'Paid with' : 'Paid out by', paymentMethodName(order.paymentMethod));
  const proof = lightningProofOf(order);
  const destinationLabel = buy ? (proof ? 'Paid to (Lightning)' : 'Your bitcoin address') : 'Deposit address';
  field(doc, destinationLabel, order.walletAddress ?? '—', { mono: true });
  if (proof) {
    // A Lightning payment has no chain transaction: its payment hash and the preimage prove it.
    field(doc, 'Lightning payment hash', proof.paymentHash, { mono: true });
    field(doc, 'Preimage (proof of payment)', proof.preimage, { mono: true });
  } else {
    field(doc, 'Bitcoin transaction', order.txn ?? '—', { mono: true });
  }
  // A batch pays many buys in one transaction: the receipt names this order's own output.
  const output = order.type === 'buy' ? payoutOutputOf(order, timeline) : null;
  if (output !== null) field(doc, 'Transaction output', String(output));
  field(doc, 'Bank reference', order.bankTxn ?? '—');
  const sender = depositSenderOf(timeline);
  if (sender) field(doc, 'Deposit sent by', sender);

  section(doc, 'Timeline');
  if (timeline.length === 0) field(doc, '—', 'No events recorded.');
  for (const step of timeline) field(doc, utc(step.at), `${capitalised(step.toStatus)} — ${step.reason}`);

  if (place) {
    section(doc, 'Licence and disclosures');
    if (place.licence) field(doc, 'Licence', place.licence);
    if (place.disclosures) field(doc, 'Disclosures', place.disclosures);
  }

  rule(doc);
  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor(MUTED)
    .text(
      `Issued ${utc(new Date())} by ${issuer.companyName}. Keep this receipt for your tax records. ` +
        `Questions: ${issuer.supportEmail}.`,
      MARGIN,
    );
  doc.end();
  return doc;
}

export interface StatementTotals {
  buys: number;
  boughtSats: bigint;
  /** What the customer paid for bitcoin, fees included (cost). */
  paidCents: bigint;
  sells: number;
  soldSats: bigint;
  /** What the customer received for bitcoin, fees deducted (proceeds). */
  receivedCents: bigint;
  feesCents: bigint;
}

export function emptyTotals(): StatementTotals {
  return { buys: 0, boughtSats: 0n, paidCents: 0n, sells: 0, soldSats: 0n, receivedCents: 0n, feesCents: 0n };
}

const orderCount = (n: number) => `${n} ${n === 1 ? 'order' : 'orders'}`;

const COLUMNS = [
  { title: 'Date (UTC)', width: 86 },
  // "recurring buy" and "deposit buy" name a plan's and a deposit's buys (docs/design.md, "Recurring buys").
  { title: 'Type', width: 64 },
  { title: 'BTC', width: 62 },
  { title: 'USD', width: 70 },
  { title: 'Fees', width: 56 },
  { title: 'Order ID', width: 174 },
] as const;

function tableRow(doc: Doc, cells: string[], bold = false): void {
  if (doc.y > doc.page.height - MARGIN - 20) doc.addPage();
  const y = doc.y;
  let x = MARGIN;
  doc
    .font(bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(8.5)
    .fillColor(INK);
  COLUMNS.forEach((column, i) => {
    doc.text(cells[i] ?? '', x, y, { width: column.width - 4, lineBreak: false });
    x += column.width;
  });
  doc.y = y + 13;
  doc.x = MARGIN;
}

/**
 * The year's statement. The orders arrive page by page (`pages`) and the totals come first on paper, so
 * the totals are computed beforehand by the caller from the same query (`totals`).
 */
export function renderStatement(
  issuer: Issuer,
  input: {
    year: number;
    customer: { name: string; email: string };
    totals: StatementTotals;
    pages: AsyncIterable<OrderRow[]>;
  },
): Doc {
  const { year, customer, totals } = input;
  const doc = newDocument(`OffZero statement ${year}`);
  letterhead(
    doc,
    issuer,
    `Annual statement ${year}`,
    `${customer.name ? `${customer.name} — ` : ''}${customer.email} · completed orders from 1 January to 31 December ${year} (UTC)`,
  );

  section(doc, 'Totals');
  field(
    doc,
    'Bought',
    `${orderCount(totals.buys)} · ${btc(totals.boughtSats)} for ${usd(totals.paidCents)} (fees included)`,
  );
  field(
    doc,
    'Sold',
    `${orderCount(totals.sells)} · ${btc(totals.soldSats)} for ${usd(totals.receivedCents)} (after fees)`,
  );
  field(doc, 'Fees paid', usd(totals.feesCents), { bold: true });

  section(doc, 'Orders');
  const write = async () => {
    if (totals.buys + totals.sells === 0) {
      doc
        .font('Helvetica')
        .fontSize(10)
        .fillColor(INK)
        .text(`You had no completed orders in ${year}.`, MARGIN);
    } else {
      tableRow(
        doc,
        COLUMNS.map((column) => column.title),
        true,
      );
      for await (const page of input.pages) {
        for (const order of page) {
          tableRow(doc, [
            tradeTimeOf(order).toISOString().slice(0, 16).replace('T', ' '),
            orderOriginLabel(order.origin)?.toLowerCase() ?? order.type,
            formatBtc(order.amountSats),
            usd(order.valueCents),
            usd(feesOf(order)),
            order.id,
          ]);
        }
      }
    }
    rule(doc);
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor(MUTED)
      .text(
        `Issued ${utc(new Date())} by ${issuer.companyName}. Buys are shown with their cost including fees; ` +
          `sells with their proceeds after fees. This statement is not tax advice. Questions: ${issuer.supportEmail}.`,
        MARGIN,
      );
    doc.end();
  };
  write().catch((error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))));
  return doc;
}
