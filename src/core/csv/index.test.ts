import Papa from 'papaparse';
import { describe, expect, test } from 'vitest';
import { csvRows, parseCsvRecords, restoreFormulaText } from './index';
import { csvRecordsText } from './write';

/** papaparse's reading of the same text (the library the writer uses), as the reference. */
function papa(text: string) {
  const r = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true, transform: restoreFormulaText });
  return { fields: r.meta.fields ?? [], records: r.data };
}

describe('the bundle CSV reader', () => {
  const cases: Record<string, string> = {
    plain: 'a,b,c\n1,2,3\n4,5,6\n',
    'no final newline': 'a,b\n1,2',
    crlf: 'a,b\r\n"x, y",2\r\n\r\n3,4\r\n',
    'quotes and newlines in fields': 'varCode,varDesc\nX,"Line one\nline two, with ""quotes"""\nY,""\n',
    'empty fields': 'a,b,c\n,,\n1,,3\n',
    bom: '\uFEFFcode,name\nKEN,Kenya\n',
    'formula text written by the writer': csvRecordsText(['k', 'v'], [['=1+1', "'@x"], ['-1.5', '+ 2'], ['a "b"', ' lead']]),
    'quote all': csvRecordsText(['k', 'v'], [['1', 'two, three'], ['', 'x\r\ny']], true),
  };
  for (const [name, text] of Object.entries(cases)) {
    test(`reads ${name} as papaparse does`, () => {
      expect(parseCsvRecords(text, 't.csv')).toEqual(papa(text));
    });
  }

  test('writer and reader round-trip formula text and quotes', () => {
    const rows = [['=HYPERLINK("x")', '@SUM(1)'], ['-3e2', 'tab\tin'], ['"', '']];
    const back = parseCsvRecords(csvRecordsText(['a', 'b'], rows), 'rt.csv').records;
    expect(back.map((r) => [r.a, r.b])).toEqual(rows);
  });

  test('rows are split on CR, LF and CRLF; empty lines skipped', () => {
    expect(csvRows('a\rb\n\nc\r\nd', 'x')).toEqual([['a'], ['b'], ['c'], ['d']]);
  });

  test('malformed text is an IO error naming the file', () => {
    const code = (f: () => unknown) => { try { f(); } catch (e) { return `${(e as { code: string }).code}: ${(e as Error).message}`; } return 'no error'; };
    expect(code(() => parseCsvRecords('a,b\n"x,2\n', 'vi.csv'))).toMatch(/^IO: Cannot parse vi\.csv: a quoted field is not closed/);
    expect(code(() => parseCsvRecords('a,b\n"x"y,2\n', 'vi.csv'))).toMatch(/^IO: Cannot parse vi\.csv: text after a closing quote/);
    expect(code(() => parseCsvRecords('a,b\n1\n', 'iso.csv'))).toMatch(/^IO: Cannot parse iso\.csv: 1 fields where the header has 2 \(row 1\)/);
    expect(code(() => parseCsvRecords('a,b\n1,2,3\n', 'iso.csv'))).toMatch(/^IO: .*3 fields/);
    expect(code(() => parseCsvRecords('a,a\n1,2\n', 'c.csv'))).toMatch(/^IO: .*column name repeats/);
  });
});
