import { describe, expect, it } from 'vitest';
import { parseCsv } from './parse-csv';

describe('parseCsv', () => {
  it('reads quoted cells with commas, doubled quotes and line breaks, CRLF between rows', () => {
    const text =
      '"Legal Name","Address","W-9 Status"\r\n' +
      '"Ada, ""Countess"" Lovelace","12 Engine Row\nFlat 2","on file"\r\n' +
      '"","","missing"\r\n';
    const { header, records } = parseCsv(text);
    expect(header).toEqual(['Legal Name', 'Address', 'W-9 Status']);
    expect(records).toEqual([
      { 'Legal Name': 'Ada, "Countess" Lovelace', Address: '12 Engine Row\nFlat 2', 'W-9 Status': 'on file' },
      { 'Legal Name': '', Address: '', 'W-9 Status': 'missing' },
    ]);
  });

  it('reads unquoted cells, LF rows and a last row without a line break', () => {
    expect(parseCsv('a,b\n1,2\n3,').records).toEqual([
      { a: '1', b: '2' },
      { a: '3', b: '' },
    ]);
  });

  it('answers no records for a header-only file or an empty one', () => {
    expect(parseCsv('"a","b"\r\n')).toEqual({ header: ['a', 'b'], records: [] });
    expect(parseCsv('')).toEqual({ header: [], records: [] });
  });
});
