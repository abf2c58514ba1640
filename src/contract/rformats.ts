/**
 * OpenCPU's other output formats of a session value (`R/.val/<format>`) besides print,
 * json and csv: `tab` (tab-separated text), `md` (a markdown table) and `rds` (R's
 * serialization, `saveRDS()`), built with the writers of `src/core/formats/rds.ts`.
 */
import type { ColumnInfo, TableResult } from '../core/api';
import { serializeR, tableToDataFrame, type RValue } from '../core/formats/rds';
import { gzipSync } from 'fflate';
import type { Cell, Row } from '../core/types';
import { delimitedTable, isTable, tableColumns, tableRowsOf } from './rprint';

/** The value cannot be written in the requested format (answered 400). */
export class FormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FormatError';
  }
}

/**
 * Writes a value as tab-separated text, as R's `write.table(x, sep = "\t", row.names = FALSE,
 * na = "", eol = "\r\n")` does: a header of quoted names, quoted text fields (inner quotes
 * doubled), empty fields for missing values. Tables as for `/csv`.
 * @throws FormatError when the value is not a table (or a vector).
 */
export function toTab(v: unknown): string {
  const rows = tableRowsOf(v);
  if (!rows) throw new FormatError('This value is not a table and cannot be written as tab-separated text.');
  return delimitedTable(rows, '\t');
}

function mdCell(v: unknown): string {
  if (v === null || v === undefined) return 'NA';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  // &, < and > as entities: raw HTML in a label (`<img onerror=...>`) is shown as text by a Markdown renderer
  return String(v).replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Writes a value as a markdown (pipe) table: header, alignment row (numbers right-aligned),
 * one line per row, `NA` for missing values. Tables as for `/csv`.
 * @throws FormatError when the value is not a table (or a vector).
 */
export function toMarkdown(v: unknown): string {
  const rows = tableRowsOf(v);
  if (!rows) throw new FormatError('This value is not a table and cannot be written as a markdown table.');
  const cols = tableColumns(rows);
  if (!cols.length) return '\n';
  const numeric = cols.map((c) => rows.every((r) => r[c] === undefined || r[c] === null || typeof r[c] === 'number'));
  const lines = [
    `| ${cols.map(mdCell).join(' | ')} |`,
    `|${numeric.map((n) => (n ? '---:' : ':---')).join('|')}|`,
    ...rows.map((r) => `| ${cols.map((c) => mdCell(r[c])).join(' | ')} |`),
  ];
  return lines.join('\n') + '\n';
}

/** A table of rows with column types inferred from the values (numbers, else text). */
function inferTable(rows: Record<string, unknown>[]): TableResult {
  const columns: ColumnInfo[] = tableColumns(rows).map((name) => {
    const xs = rows.map((r) => r[name]).filter((x) => x !== null && x !== undefined);
    const numeric = xs.every((x) => typeof x === 'number');
    const type: ColumnInfo['type'] = numeric ? (xs.every((x) => Number.isInteger(x)) ? 'integer' : 'number') : 'string';
    return { name, role: 'value', label: name, unit: '', type };
  });
  const out: Row[] = rows.map((r) => {
    const o: Row = {};
    for (const [k, x] of Object.entries(r)) {
      if (x === null || x === undefined) continue;
      o[k] = typeof x === 'number' || typeof x === 'string' ? (x as Cell) : typeof x === 'boolean' ? (x ? 'TRUE' : 'FALSE') : String(x);
    }
    return o;
  });
  return { rows: out, columns, meta: [] };
}

/** The R object of a session value, or undefined where there is none. */
function rObject(v: unknown, depth = 0): RValue | undefined {
  if (depth > 8) return undefined;
  if (Array.isArray(v)) {
    if (v.length === 0 || isTable(v)) {
      const df = tableToDataFrame(inferTable(v as Record<string, unknown>[]), { dataLabel: '', timeStamp: '' });
      // Only the data.frame's own attributes (no Stata data label or time stamp), and no
      // column labels: here they would only repeat the names.
      const columns = (df.values as RValue[]).map((col) => ({ ...col, attrs: col.attrs?.filter(([n]) => n !== 'label') }));
      return { ...df, values: columns, attrs: df.attrs!.filter(([n]) => n === 'names' || n === 'class' || n === 'row.names') } as RValue;
    }
    if (v.every((x) => x === null || typeof x === 'string')) return { type: 'character', values: v as Array<string | null> };
    if (v.every((x) => x === null || typeof x === 'number')) return { type: 'double', values: v as Array<number | null> };
    return undefined;
  }
  if (typeof v === 'string') return { type: 'character', values: [v] };
  if (typeof v === 'number') return { type: 'double', values: [v] };
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    const values: RValue[] = [];
    for (const [, x] of entries) {
      const r = rObject(x, depth + 1);
      if (!r) return undefined;
      values.push(r);
    }
    return { type: 'list', values, attrs: [['names', { type: 'character', values: entries.map(([k]) => k) }]] };
  }
  return undefined;
}

/**
 * Writes a session value as `saveRDS()` does (gzip-compressed serialization, version 3):
 * a table as a data.frame (whole-number columns integer, other numbers double, the rest
 * character), a vector as a character or double vector, a named list (`as.list = TRUE`)
 * as a list of those.
 * @throws FormatError for other values (NULL, logical or mixed values).
 */
export function toRds(v: unknown): Uint8Array {
  const obj = rObject(v);
  if (!obj) throw new FormatError('This value cannot be written as R data (rds): only tables, character or numeric vectors and named lists of them can. Use /json.');
  return gzipSync(serializeR(obj), { level: 6, mtime: 0 });
}
