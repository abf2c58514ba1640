/**
 * The bundle's CSV files, written: `vi.csv`, class tables and `iso.csv` (RFC 4180 via papaparse,
 * src/core/csv/write.ts): `\n` line ends and a final newline; text a spreadsheet would run as a
 * formula gets a leading `'` that the readers (./tables.ts) take off again. Apart from the
 * readers so that the page, which only reads these files, does not load papaparse.
 */
import { csvRecordsText } from '../csv/write';
import type { ClassEntry } from '../types';
import { ISO_FIELDS } from './tables';

/**
 * vi.csv text: the catalog records as rows of `fields` (a missing field is empty).
 * @param fields column order (varCode first by convention)
 * @param records records as text fields
 * @param opts `quoteAll`: quote every field, as the original service's vi.csv export did
 */
export function serialiseVi(fields: readonly string[], records: ReadonlyArray<Readonly<Record<string, string | undefined>>>, opts: { quoteAll?: boolean } = {}): string {
  return csvRecordsText(fields, records.map((r) => fields.map((f) => r[f] ?? '')), opts.quoteAll);
}

/**
 * Class table text (`classes/<code>.csv`): `value,label,color`, then `extras` columns.
 * @param table one entry per class value
 * @param extras further columns, in order
 */
export function serialiseClassTable(table: readonly ClassEntry[], extras: readonly string[] = []): string {
  const fields = ['value', 'label', 'color', ...extras];
  return csvRecordsText(fields, table.map((e) => fields.map((f) => (e[f] === undefined ? '' : String(e[f])))));
}

/**
 * iso.csv text: one row per country or region, in {@link ISO_FIELDS} order (members `|`-separated,
 * extent in degrees, cells of the grid).
 */
export function serialiseIso(rows: ReadonlyArray<ReadonlyArray<string>>): string {
  return csvRecordsText(ISO_FIELDS, rows);
}
