/**
 * CSV as spreadsheets and tax tools read it (RFC 4180): every cell quoted, quotes doubled, CRLF between
 * rows. A cell starting with = + - @ (or a tab or carriage return, which some spreadsheets skip first)
 * would run as a formula when opened: it gets a leading apostrophe and is shown as text.
 */
export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function csvRow(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
