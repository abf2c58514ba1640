/**
 * CSV text as the bundle's files are written (papaparse's `unparse`, RFC 4180), apart from the
 * reader (./index.ts) so that what only reads CSV does not load papaparse.
 */
import Papa from 'papaparse';
import { FORMULA_TEXT } from './index';

/**
 * RFC 4180 CSV text (papaparse): a header row, `\n` line ends, a final newline; `quoteAll`
 * quotes every field. Formula text gets a leading `'` ({@link FORMULA_TEXT}).
 */
export function csvRecordsText(fields: readonly string[], rows: ReadonlyArray<ReadonlyArray<string>>, quoteAll = false): string {
  return `${Papa.unparse({ fields: [...fields], data: rows.map((r) => [...r]) }, { newline: '\n', quotes: quoteAll, escapeFormulae: FORMULA_TEXT })}\n`;
}
