import { createRequire } from 'node:module';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

// The metrics of PDF's standard fonts (Helvetica…), which pdf.js reads from its own package.
const standardFontDataUrl = `${path.join(
  path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')),
  'standard_fonts',
)}/`;

/** The text of every page of a PDF, as a reader's copy-and-paste would see it (pdf.js). */
export async function pdfText(bytes: Buffer): Promise<string> {
  const loading = getDocument({ data: new Uint8Array(bytes), standardFontDataUrl });
  const pdf = await loading.promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n += 1) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(
      content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : '')).join(''),
    );
  }
  await loading.destroy();
  return pages.join('\n');
}

/** A CSV file read back by a real CSV parser: the header row and the records keyed by it. */
export function csvRecords(text: string): { header: string[]; records: Record<string, string>[] } {
  const rows: string[][] = parse(text);
  const [header = [], ...body] = rows;
  return {
    header,
    records: body.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? '']))),
  };
}
