/**
 * RFC 4180 text records and the formula-injection rule every CSV of the product follows: a
 * base room of the core, below the bundle (which reads its CSV files with it) and the download
 * formats (src/core/formats/csv.ts). Writing bundle CSV text is in ./write.ts (papaparse), kept
 * apart so that the page, which only reads the bundle's files, does not load papaparse at start.
 *
 * Text that a spreadsheet would run as a formula is neutralised as OWASP's "CSV Injection"
 * advice says (https://owasp.org/www-community/attacks/CSV_Injection): a field beginning with
 * `=`, `+`, `-`, `@`, tab or carriage return gets a leading `'`; numbers (`-1.5`, `+3e2`) are
 * left alone. The product's own readers take the `'` off again ({@link restoreFormulaText}).
 */
import { IndapiError } from '../errors';

/**
 * Text a spreadsheet would run as a formula: beginning with `=`, `+`, `-`, `@`, tab or CR
 * (after any `'`, so that {@link restoreFormulaText} undoes exactly one), unless the whole
 * text is a plain decimal number. For papaparse's `escapeFormulae` option too.
 */
export const FORMULA_TEXT = /^(?![+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$)'*[=+\-@\t\r]/;

/** A text field neutralised against formula injection: `'` prepended when {@link FORMULA_TEXT} matches. */
export function neutraliseFormulaText(s: string): string {
  return FORMULA_TEXT.test(s) ? `'${s}` : s;
}

/** The inverse of {@link neutraliseFormulaText} for the product's readers: one leading `'` removed before a formula character. */
export function restoreFormulaText(s: string): string {
  return /^'+[=+\-@\t\r]/.test(s) ? s.slice(1) : s;
}

/** One quoted field from `text[start]` (a `"`): its value and the index after the closing quote. */
function quotedField(text: string, start: number, what: string, row: number): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q < 0) throw new IndapiError('IO', `Cannot parse ${what}: a quoted field is not closed (row ${row}).`);
    value += text.slice(i, q);
    if (text[q + 1] !== '"') return { value, end: q + 1 };
    value += '"';
    i = q + 2;
  }
}

/**
 * The rows of RFC 4180 text as arrays of fields: `,` between fields, `"` quoting (a `""` inside
 * is one `"`), rows ended by CRLF, LF or CR; empty lines are skipped.
 * @throws IndapiError IO for an unclosed quote or text after a closing quote
 */
export function csvRows(text: string, what: string): string[][] {
  const rows: string[][] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const row: string[] = [];
    for (;;) {
      let value: string;
      if (text[i] === '"') {
        const f = quotedField(text, i, what, rows.length);
        value = f.value;
        i = f.end;
        if (i < n && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') throw new IndapiError('IO', `Cannot parse ${what}: text after a closing quote (row ${rows.length}).`);
      } else {
        let j = i;
        while (j < n && text[j] !== ',' && text[j] !== '\n' && text[j] !== '\r') j++;
        value = text.slice(i, j);
        i = j;
      }
      row.push(value);
      if (i < n && text[i] === ',') { i++; continue; }
      break;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    if (!(row.length === 1 && row[0] === '')) rows.push(row);
  }
  return rows;
}

/**
 * Parses CSV text with a header row into records (RFC 4180 as {@link csvRows} reads it, the
 * product's own files: comma-separated): a UTF-8 BOM dropped, empty lines skipped, every field
 * through {@link restoreFormulaText}. A short reader of its own rather than papaparse (kept for
 * user files and for writing): the page reads the bundle's catalog at start, and papaparse was
 * 6.9 KB gzipped of its first download.
 * @param text the file's text
 * @param what the file's name for messages (`vi.csv`)
 * @returns the header's fields in order and one record per row
 * @throws IndapiError IO when the CSV cannot be parsed, a header name repeats or a row's field count differs from the header's
 */
export function parseCsvRecords(text: string, what: string): { fields: string[]; records: Array<Record<string, string>> } {
  const [fields = [], ...rows] = csvRows(text.replace(/^\uFEFF/, ''), what);
  if (new Set(fields).size !== fields.length) throw new IndapiError('IO', `Cannot parse ${what}: a column name repeats in its header.`);
  const records = rows.map((r, k) => {
    if (r.length !== fields.length) throw new IndapiError('IO', `Cannot parse ${what}: ${r.length} fields where the header has ${fields.length} (row ${k + 1}).`);
    const rec: Record<string, string> = {};
    for (let c = 0; c < fields.length; c++) rec[fields[c]] = restoreFormulaText(r[c]);
    return rec;
  });
  return { fields, records };
}
