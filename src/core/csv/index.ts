/**
 * RFC 4180 text records (papaparse) and the formula-injection rule every CSV of the product
 * follows: a base room of the core, below the bundle (which reads and writes its CSV files
 * with it) and the download formats (src/core/formats/csv.ts).
 *
 * Text that a spreadsheet would run as a formula is neutralised as OWASP's "CSV Injection"
 * advice says (https://owasp.org/www-community/attacks/CSV_Injection): a field beginning with
 * `=`, `+`, `-`, `@`, tab or carriage return gets a leading `'`; numbers (`-1.5`, `+3e2`) are
 * left alone. The product's own readers take the `'` off again ({@link restoreFormulaText}).
 */
import Papa from 'papaparse';
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

/**
 * Parses CSV text with a header row into records (papaparse, RFC 4180): a UTF-8 BOM dropped,
 * empty lines skipped, every field through {@link restoreFormulaText}.
 * @param text the file's text
 * @param what the file's name for messages (`vi.csv`)
 * @returns the header's fields in order and one record per row
 * @throws IndapiError IO when the CSV cannot be parsed
 */
export function parseCsvRecords(text: string, what: string): { fields: string[]; records: Array<Record<string, string>> } {
  const res = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true, transform: restoreFormulaText });
  const bad = res.errors.find((e) => e.type !== 'Delimiter');
  if (bad) throw new IndapiError('IO', `Cannot parse ${what}: ${bad.message} (row ${bad.row}).`);
  return { fields: res.meta.fields ?? [], records: res.data };
}

/**
 * RFC 4180 CSV text (papaparse): a header row, `\n` line ends, a final newline; `quoteAll`
 * quotes every field. Formula text gets a leading `'` ({@link FORMULA_TEXT}).
 */
export function csvRecordsText(fields: readonly string[], rows: ReadonlyArray<ReadonlyArray<string>>, quoteAll = false): string {
  return `${Papa.unparse({ fields: [...fields], data: rows.map((r) => [...r]) }, { newline: '\n', quotes: quoteAll, escapeFormulae: FORMULA_TEXT })}\n`;
}
