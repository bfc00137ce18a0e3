import PDFDocument from 'pdfkit';
import { formatBtc, formatUsd } from '@offzero/shared/money/money';

/**
 * How OffZero's PDF documents are drawn: the page, the letterhead, sections, label-value lines, bill
 * lines and the summary band, in pdfkit's built-in Helvetica (pdf-documents.ts draws the documents).
 */

export interface Issuer {
  companyName: string;
  postalAddress: string;
  supportEmail: string;
}

export const MARGIN = 50;
export const INK = '#111827';
export const MUTED = '#6b7280';
export const RULE = '#d1d5db';
/** The brand's orange (the web app's `brand-500`), for the thin bar across the top of each document. */
export const ACCENT = '#f7931a';
export const PANEL = '#f3f4f6';
export const LABEL_WIDTH = 170;

export type Doc = PDFKit.PDFDocument;

export function newDocument(title: string): Doc {
  return new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    info: { Title: title, Author: 'OffZero', Creator: 'OffZero' },
  });
}

export const usd = (cents: bigint) => `$${formatUsd(cents).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
export const btc = (sats: bigint) => `${formatBtc(sats)} BTC`;
export const utc = (date: Date) => `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
export const contentWidth = (doc: Doc) => doc.page.width - MARGIN * 2;

/**
 * The company's name and addresses at the top left, and (`meta`) the document's own references at the
 * top right, like a printed receipt's header.
 */
export function letterhead(
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

export function rule(doc: Doc): void {
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

export function section(doc: Doc, heading: string): void {
  doc.moveDown(0.4);
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(11).text(heading, MARGIN);
  doc.moveDown(0.3);
}

/** A label and its value on one line (the value wraps in its own column when long). */
export function field(
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

/** A line of the receipt's bill: what it is (and a detail under it), and its amount at the right edge. */
export function billLine(
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
export function summaryBand(doc: Doc, cells: [label: string, value: string][]): void {
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
