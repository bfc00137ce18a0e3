/**
 * Reads CSV as the server writes it (RFC 4180: quoted cells, doubled quotes, line breaks inside quoted
 * cells, CRLF or LF between rows) into records keyed by the header row. Blank trailing lines are
 * ignored. Small on purpose: it reads OffZero's own files, not arbitrary spreadsheets.
 */
export function parseCsv(text: string): { header: string[]; records: Record<string, string>[] } {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  const endRow = () => {
    endCell();
    if (!(row.length === 1 && row[0] === '')) rows.push(row);
    row = [];
  };
  while (i < text.length) {
    const char = text[i] ?? '';
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else cell += char;
      i += 1;
      continue;
    }
    if (char === '"') quoted = true;
    else if (char === ',') endCell();
    else if (char === '\r' && text[i + 1] === '\n') {
      endRow();
      i += 1;
    } else if (char === '\n' || char === '\r') endRow();
    else cell += char;
    i += 1;
  }
  if (cell !== '' || row.length > 0) endRow();
  const [header = [], ...body] = rows;
  const records = body.map((cells) =>
    Object.fromEntries(header.map((name, index) => [name, cells[index] ?? ''])),
  );
  return { header, records };
}
