/**
 * CSV writer for summary tables.
 *
 * Format: RFC 4180 (https://www.rfc-editor.org/rfc/rfc4180): a header row of column
 * names, no row names, CRLF line breaks, fields quoted with `"` (and inner `"` doubled)
 * only when they hold a comma, a quote, CR or LF. UTF-8 without a byte-order mark.
 * Missing values are empty fields (as R's `write.csv(na = "")`). Numbers are written in
 * the shortest decimal form that reads back to the same double.
 *
 * Text that a spreadsheet would run as a formula is neutralised as OWASP's "CSV Injection"
 * advice says (https://owasp.org/www-community/attacks/CSV_Injection): a field beginning with
 * `=`, `+`, `-`, `@`, tab or carriage return gets a leading `'` and is quoted, so Excel,
 * LibreOffice and Google Sheets show it as text; numbers (`-1.5`, `+3e2`) are left alone.
 * The product's own readers take the `'` off again (`restoreFormulaText` of src/core/csv).
 */
import type { TableResult } from '../api';
import { neutraliseFormulaText } from '../csv';
import { fmtNum, utf8 } from './bytes';

export { FORMULA_TEXT, neutraliseFormulaText, restoreFormulaText } from '../csv';

/** One text field: neutralised ({@link neutraliseFormulaText}), then quoted per RFC 4180 when needed. */
export function csvField(text: string): string {
  const s = neutraliseFormulaText(text);
  return /[",\r\n]/.test(s) || s !== text ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Builds CSV text from a header and rows of cells.
 * @param header column names
 * @param rows cells; `undefined`, `null` and non-finite numbers are written as empty fields
 */
export function csvText(header: string[], rows: Array<Array<string | number | undefined | null>>): string {
  const lines = [header.map(csvField).join(',')];
  for (const r of rows) {
    lines.push(r.map((v) => (v === undefined || v === null ? '' : typeof v === 'number' ? fmtNum(v) : csvField(v))).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

/**
 * Writes a summary table as CSV bytes (UTF-8).
 * @param table the engine's table; columns in `table.columns` order
 */
export function writeCsv(table: TableResult): Uint8Array {
  const names = table.columns.map((c) => c.name);
  return utf8(csvText(names, table.rows.map((r) => names.map((n) => r[n]))));
}
