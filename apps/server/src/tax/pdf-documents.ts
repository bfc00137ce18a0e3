import PDFDocument from 'pdfkit';
import { formatBtc, formatUsd } from '@offzero/shared/money/money';
import { railDocumentLabel } from '@offzero/shared/rails/rails';
import type { OrderRow } from '../db/schema';
import { feesOf, grossOf } from './tax-export-layouts';
import { tradeTimeOf, type TimelineStep } from './tax.repository';

/**
 * The PDF receipt of one order and the yearly statement (docs/design.md), drawn with pdfkit in its
 * built-in Helvetica so that the text is real text (searchable, extractable), never an image.
 */

export interface Issuer {
  companyName: string;
  postalAddress: string;
  supportEmail: string;
}

const MARGIN = 50;
const INK = '#111827';
const MUTED = '#6b7280';
const RULE = '#d1d5db';
/** The brand's orange (the web app's `brand-500`), for the thin bar across the top of each document. */
const ACCENT = '#f7931a';
const PANEL = '#f3f4f6';
const LABEL_WIDTH = 170;

type Doc = PDFKit.PDFDocument;

function newDocument(title: string): Doc {
  return new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    info: { Title: title, Author: 'OffZero', Creator: 'OffZero' },
  });
}

const usd = (cents: bigint) => `$${formatUsd(cents).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
const btc = (sats: bigint) => `${formatBtc(sats)} BTC`;
const utc = (date: Date) => `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
const contentWidth = (doc: Doc) => doc.page.width - MARGIN * 2;

/**
 * The company's name and addresses at the top left, and (`meta`) the document's own references at the
 * top right, like a printed receipt's header.
 */
function letterhead(
  doc: Doc,
  issuer: Issuer,
  title: string,
  subtitle: string,
  meta: [label: string, value: string][] = [],
): void {
  doc.rect(0, 0, doc.page.width, 6).fill(ACCENT);
  const metaWidth = 190;
  const metaX = doc.page.width - MARGIN - metaWidth;
  let metaY = MARGIN + 2;
  for (const [label, value] of meta) {
    doc.font('Helvetica').fontSize(8).fillColor(MUTED).text(label.toUpperCase(), metaX, metaY, {
      width: metaWidth,
      align: 'right',
      characterSpacing: 0.5,
    });
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .fillColor(INK)
      .text(value, metaX, doc.y + 1, {
        width: metaWidth,
        align: 'right',
      });
    metaY = doc.y + 6;
  }
  const leftWidth = contentWidth(doc) - (meta.length > 0 ? metaWidth + 20 : 0);
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(20)
    .text(issuer.companyName, MARGIN, MARGIN, { width: leftWidth });
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor(MUTED)
    .text(issuer.postalAddress, { width: leftWidth })
    .text(issuer.supportEmail, { width: leftWidth });
  doc.y = Math.max(doc.y, metaY);
  doc.moveDown(1.2);
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(15).text(title);
  doc.font('Helvetica').fontSize(10).fillColor(MUTED).text(subtitle);
  rule(doc);
}

function rule(doc: Doc): void {
  doc.moveDown(0.6);
  const y = doc.y;
  doc
    .moveTo(MARGIN, y)
    .lineTo(doc.page.width - MARGIN, y)
    .strokeColor(RULE)
    .lineWidth(0.7)
    .stroke();
  doc.moveDown(0.6);
}

function section(doc: Doc, heading: string): void {
  doc.moveDown(0.4);
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(11).text(heading, MARGIN);
  doc.moveDown(0.3);
}

/** A label and its value on one line (the value wraps in its own column when long). */
function field(
  doc: Doc,
  label: string,
  value: string,
  options: { bold?: boolean; mono?: boolean } = {},
): void {
  const y = doc.y;
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor(MUTED)
    .text(label, MARGIN, y, { width: LABEL_WIDTH - 10 });
  const labelBottom = doc.y;
  // Identifiers (addresses, transaction ids) in a fixed-width face small enough to fit one line.
  doc
    .font(options.mono ? 'Courier' : options.bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(options.mono ? 8.5 : 10)
    .fillColor(INK)
    .text(value, MARGIN + LABEL_WIDTH, options.mono ? y + 1 : y, { width: contentWidth(doc) - LABEL_WIDTH });
  doc.y = Math.max(doc.y, labelBottom) + 3;
  doc.x = MARGIN;
}

export function paymentMethodName(method: string | null): string {
  return method ? railDocumentLabel(method) : 'Not chosen';
}

/** A line of the receipt's bill: what it is (and a detail under it), and its amount at the right edge. */
function billLine(
  doc: Doc,
  label: string,
  amount: string,
  options: { detail?: string; bold?: boolean } = {},
): void {
  const y = doc.y;
  const amountWidth = 140;
  const font = options.bold ? 'Helvetica-Bold' : 'Helvetica';
  doc
    .font(font)
    .fontSize(options.bold ? 11 : 10)
    .fillColor(INK);
  doc.text(amount, doc.page.width - MARGIN - amountWidth, y, { width: amountWidth, align: 'right' });
  const amountBottom = doc.y;
  doc
    .font(font)
    .fontSize(options.bold ? 11 : 10)
    .fillColor(INK)
    .text(label, MARGIN, y, {
      width: contentWidth(doc) - amountWidth - 10,
    });
  if (options.detail) doc.font('Helvetica').fontSize(8.5).fillColor(MUTED).text(options.detail, MARGIN);
  doc.y = Math.max(doc.y, amountBottom) + 5;
  doc.x = MARGIN;
}

/** A shaded band with the two figures that matter most: what the customer paid and what they got. */
function summaryBand(doc: Doc, cells: [label: string, value: string][]): void {
  const top = doc.y;
  const height = 46;
  doc.roundedRect(MARGIN, top, contentWidth(doc), height, 6).fill(PANEL);
  const cellWidth = contentWidth(doc) / cells.length;
  cells.forEach(([label, value], i) => {
    const x = MARGIN + 14 + i * cellWidth;
    doc
      .font('Helvetica')
      .fontSize(8.5)
      .fillColor(MUTED)
      .text(label, x, top + 9, { width: cellWidth - 28 });
    doc
      .font('Helvetica-Bold')
      .fontSize(14)
      .fillColor(INK)
      .text(value, x, top + 22, { width: cellWidth - 28 });
  });
  doc.y = top + height + 8;
  doc.x = MARGIN;
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

export function renderReceipt(
  issuer: Issuer,
  order: OrderRow,
  timeline: TimelineStep[],
  customer: { name: string; email: string },
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
  field(doc, 'Type', buy ? 'Buy (you bought bitcoin)' : 'Sell (you sold bitcoin)');
  field(doc, 'Status', capitalised(order.status));
  field(doc, 'Placed', utc(order.createdAt));
  if (order.completedAt) field(doc, 'Completed', utc(order.completedAt));
  field(doc, 'Customer', customer.name ? `${customer.name} (${customer.email})` : customer.email);

  section(doc, 'Payment and transfer');
  field(doc, buy ? 'Paid with' : 'Paid out by', paymentMethodName(order.paymentMethod));
  field(doc, buy ? 'Your bitcoin address' : 'Deposit address', order.walletAddress ?? '—', { mono: true });
  field(doc, 'Bitcoin transaction', order.txn ?? '—', { mono: true });
  // A batch pays many buys in one transaction: the receipt names this order's own output.
  const output = order.type === 'buy' ? payoutOutputOf(order, timeline) : null;
  if (output !== null) field(doc, 'Transaction output', String(output));
  field(doc, 'Bank reference', order.bankTxn ?? '—');

  section(doc, 'Timeline');
  if (timeline.length === 0) field(doc, '—', 'No events recorded.');
  for (const step of timeline) field(doc, utc(step.at), `${capitalised(step.toStatus)} — ${step.reason}`);

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
  { title: 'Date (UTC)', width: 92 },
  { title: 'Type', width: 34 },
  { title: 'BTC', width: 72 },
  { title: 'USD', width: 78 },
  { title: 'Fees', width: 62 },
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
            order.type,
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
