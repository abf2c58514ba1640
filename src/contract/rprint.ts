/**
 * Text renderings of a session value as R shows them: `print()` of a data frame, a vector
 * or a list (R/.val, R/.val/print, stdout, console), and `write.csv()` (R/.val/csv).
 * Data frames are arrays of row objects (spec part 2.3); lists are objects.
 */
import { deparseName, deparseString } from './deparse';
import { neutraliseFormulaText } from '../core/formats/csv';

/** True when `v` looks like a data frame: a non-empty array of plain objects with scalar fields. */
export function isTable(v: unknown): v is Record<string, unknown>[] {
  return (
    Array.isArray(v) &&
    v.length > 0 &&
    v.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r) && Object.values(r).every((x) => x === null || typeof x !== 'object'))
  );
}

/** Column names of a table: union of row keys in first-seen order. */
export function tableColumns(rows: Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
}

/** Formats one number with at most 7 significant digits, as R's default print does. */
function sig7(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Inf';
  if (x === -Infinity) return '-Inf';
  if (x !== 0 && (Math.abs(x) >= 1e15 || Math.abs(x) < 1e-4)) return x.toExponential(6).replace(/\.?0+e/, 'e').replace(/e([+-])(\d)$/, 'e$10$2');
  return String(Number(x.toPrecision(7)));
}

/** Formats a numeric column with a common number of decimals (R's formatting of a vector). */
function formatNumbers(xs: (number | null | undefined)[]): string[] {
  const finite = xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
  let dec = 0;
  for (const x of finite) {
    const s = sig7(x);
    if (s.includes('e')) return xs.map((v) => (typeof v === 'number' ? sig7(v) : 'NA'));
    const d = s.includes('.') ? s.length - s.indexOf('.') - 1 : 0;
    dec = Math.max(dec, d);
  }
  return xs.map((x) => (typeof x !== 'number' ? 'NA' : Number.isFinite(x) ? x.toFixed(dec) : sig7(x)));
}

function formatColumn(values: unknown[]): { cells: string[]; right: boolean } {
  if (values.every((v) => v === null || v === undefined || typeof v === 'number')) {
    return { cells: formatNumbers(values as (number | null)[]), right: true };
  }
  return {
    cells: values.map((v) => (v === null || v === undefined ? '<NA>' : typeof v === 'boolean' ? (v ? 'TRUE' : 'FALSE') : String(v))),
    right: true,
  };
}

/** R's default `getOption("max.print")`: entries printed before the rest is omitted. */
export const MAX_PRINT = 99999;

/**
 * Prints a data frame like R: row names 1..n, columns right-aligned under their names;
 * beyond {@link MAX_PRINT} entries the rest is omitted with R's note.
 */
export function printTable(all: Record<string, unknown>[]): string {
  const cols = tableColumns(all);
  const maxRows = Math.max(1, Math.floor(MAX_PRINT / Math.max(1, cols.length)));
  const rows = all.length > maxRows ? all.slice(0, maxRows) : all;
  const rowNames = rows.map((_, i) => String(i + 1));
  const rnWidth = Math.max(...rowNames.map((s) => s.length));
  const formatted = cols.map((c) => formatColumn(rows.map((r) => r[c])));
  const widths = cols.map((c, j) => Math.max(c.length, ...formatted[j].cells.map((s) => s.length)));
  const lines: string[] = [];
  lines.push(' '.repeat(rnWidth) + cols.map((c, j) => ' ' + c.padStart(widths[j])).join(''));
  rows.forEach((_, i) => {
    lines.push(rowNames[i].padEnd(rnWidth) + cols.map((_, j) => ' ' + formatted[j].cells[i].padStart(widths[j])).join(''));
  });
  if (rows.length < all.length) lines.push(` [ reached 'max' / getOption("max.print") -- omitted ${all.length - rows.length} rows ]`);
  return lines.join('\n');
}

/** Prints an atomic vector like R: `[1] "a" "b"` wrapped at 80 columns with index prefixes. */
export function printVector(all: unknown[]): string {
  if (all.length === 0) return 'character(0)';
  const xs = all.length > MAX_PRINT ? all.slice(0, MAX_PRINT) : all;
  let items: string[];
  if (xs.every((x) => x === null || typeof x === 'number')) items = formatNumbers(xs as (number | null)[]);
  else if (xs.every((x) => x === null || typeof x === 'boolean')) items = xs.map((x) => (x === null ? 'NA' : x ? 'TRUE' : 'FALSE'));
  else items = xs.map((x) => (x === null ? 'NA' : deparseString(String(x))));
  const w = Math.max(...items.map((s) => s.length));
  const prefixW = `[${xs.length}]`.length;
  const perLine = Math.max(1, Math.floor((80 - prefixW) / (w + 1)));
  // R right-justifies numbers and left-justifies quoted strings.
  const left = xs.some((x) => typeof x === 'string');
  const lines: string[] = [];
  for (let i = 0; i < items.length; i += perLine) {
    const prefix = `[${i + 1}]`.padStart(prefixW);
    lines.push((prefix + items.slice(i, i + perLine).map((s) => ' ' + (left ? s.padEnd(w) : s.padStart(w))).join('')).trimEnd());
  }
  if (xs.length < all.length) lines.push(` [ reached getOption("max.print") -- omitted ${all.length - xs.length} entries ]`);
  return lines.join('\n');
}

/**
 * Prints any session value as R's `print()` would show the equivalent R object.
 * @param v null (NULL), scalar or array of scalars (vector), array of row objects (data frame), object (named list).
 */
export function printValue(v: unknown, path = ''): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v !== 'object') return printVector([v]);
  if (Array.isArray(v)) {
    if (v.length === 0) return 'list()';
    if (isTable(v)) return printTable(v);
    if (v.every((x) => x === null || typeof x !== 'object')) return printVector(v);
    return v.map((x, i) => `${path}[[${i + 1}]]\n${printValue(x, `${path}[[${i + 1}]]`)}\n`).join('\n');
  }
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length === 0) return 'named list()';
  return entries.map(([k, x]) => `${path}$${deparseName(k)}\n${printValue(x, `${path}$${deparseName(k)}`)}\n`).join('\n');
}

/** The short form OpenCPU writes to the console for a list value: `List of length n` and the names. */
export function consoleValue(v: unknown): string {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const names = Object.keys(v);
    return `List of length ${names.length}\n${names.map((n) => `[${n}]`).join('\n')}`;
  }
  return printValue(v);
}

/**
 * The rows of a value written as a table (`/csv`, `/tab`, `/md`): a data frame as it is, a
 * vector as one column `x`, the `data` of `list(meta, data)`.
 * @returns undefined when the value is not tabular (NULL, nested lists).
 */
export function tableRowsOf(v: unknown): Record<string, unknown>[] | undefined {
  if (isTable(v)) return v;
  if (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object')) return v.map((x) => ({ x }));
  if (v !== null && v !== undefined && typeof v !== 'object') return [{ x: v }];
  if (v && typeof v === 'object' && !Array.isArray(v) && isTable((v as { data?: unknown }).data)) return (v as { data: Record<string, unknown>[] }).data;
  return undefined;
}

function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : Number.isNaN(v) ? 'NaN' : v > 0 ? 'Inf' : '-Inf';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return '"' + neutraliseFormulaText(String(v)).replace(/"/g, '""') + '"'; // text a spreadsheet would run as a formula gets a leading ' (csv.ts)
}

/**
 * Writes a value as R's `write.csv(x, row.names = FALSE, na = "")` does (OpenCPU's
 * `/csv`): quoted header and text fields, CRLF line ends, empty fields for missing values.
 * Vectors become one column `x`; a named list of vectors is not tabular and throws.
 * @throws Error when the value cannot be written as a table.
 */
export function toCsv(v: unknown): string {
  const rows = tableRowsOf(v);
  if (!rows) throw new Error('This value is not a table and cannot be written as CSV.');
  return delimitedTable(rows, ',');
}

/**
 * Table rows as delimited text in the style of R's `write.table(row.names = FALSE, na = "")`:
 * a quoted header, quoted text fields (inner quotes doubled), TRUE/FALSE, NaN/Inf/-Inf,
 * empty fields for missing values, CRLF line ends.
 * @param rows the table's rows; columns are their union in first-seen order
 * @param sep the field separator ("," for `/csv`, "\t" for `/tab`)
 */
export function delimitedTable(rows: Record<string, unknown>[], sep: string): string {
  const cols = tableColumns(rows);
  const lines = [cols.map(csvField).join(sep)];
  for (const r of rows) lines.push(cols.map((c) => csvField(r[c])).join(sep));
  return lines.join('\r\n') + '\r\n';
}
