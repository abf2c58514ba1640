/**
 * Planning of a table ingest (issue 9 items 1 and 4): which table columns become layers
 * (indicators with a record, helper columns named by formulas, key layers), which are
 * reported; the header and catalog checks that run before any row is read; the cell check
 * of CELL5M against X/Y on the global grid.
 *
 * Table layout (HarvestChoice CELL5M tables): `CELL5M, ISO3, ADM0_NAME, ADM1_NAME_ALT,
 * ADM2_NAME_ALT, X, Y, <codes...>`, optional `ADM2_NAME_ALT` (a bundle without second-level units,
 * such as the export of the embedded one), `ADM1_CODE_ALT`, `ADM2_CODE_ALT`.
 */
import { CELL_SIZE_DEG, GLOBAL_HEIGHT, GLOBAL_WIDTH, cellToColRow, type GridDef } from '../grid';
import type { Finding } from './findings';
import { parseAggFun } from '../r/expr';

/** Columns every table must have. */
export const REQUIRED_COLUMNS = ['CELL5M', 'ISO3', 'ADM0_NAME', 'ADM1_NAME_ALT', 'X', 'Y'] as const;
/** Key columns written as class layers (those present), in this order. */
export const KEY_LAYERS = ['ISO3', 'ADM0_NAME', 'ADM1_NAME_ALT', 'ADM1_CODE_ALT', 'ADM2_NAME_ALT', 'ADM2_CODE_ALT'] as const;
/** Columns that are coordinates or the cell id, never layers. */
export const COORD_COLUMNS = ['CELL5M', 'X', 'Y'] as const;

/** Words of R formulas that are not column names (functions, argument names, constants). */
const FORMULA_WORDS = new Set([
  'sum', 'mean', 'median', 'min', 'max', 'names', 'sort', 'table', 'weighted.mean', 'dominant', 'na.rm', 'decreasing',
  'TRUE', 'FALSE', 'T', 'F', 'NA', 'c', 'length', 'unique', 'which.max', 'as.numeric', 'round',
]);

/**
 * Column names a formula (`aggFunR`) references: every identifier (R syntax: letters,
 * digits, `.` and `_`, not starting with a digit) that is not a function name, an argument
 * name or a constant, in order of first appearance. Works for any formula shape; the engine
 * parses the formula itself. Empty/NA formulas reference nothing.
 */
export function formulaColumns(aggFunR: string): string[] {
  const f = (aggFunR ?? '').trim();
  if (!f || f === 'NA') return [];
  const out: string[] = [];
  const re = /([A-Za-z.][A-Za-z0-9._]*)\s*(\(|=)?/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(f))) {
    const word = m[1];
    if (m.index > 0 && /[0-9]/.test(f[m.index - 1])) continue; // exponent of a number such as 1e3
    if (m[2] === '(' || (m[2] === '=' && f[re.lastIndex] !== '=')) continue; // function call or named argument
    if (FORMULA_WORDS.has(word) || /^\.\d/.test(word)) continue;
    if (!out.includes(word)) out.push(word);
  }
  return out;
}

/**
 * Parses a record's formula with the engine's own parser (src/core/r/expr.ts), as a query
 * would: class records are the dominant class of their own cells whatever their formula, so
 * only other records are parsed; an empty formula is the engine's default `mean(<code>)`.
 * @param r the catalog record (text fields)
 * @returns the parser's message, or null when the formula parses
 */
export function formulaParseError(r: Record<string, string>): string | null {
  const f = (r.aggFunR ?? '').trim();
  if (!f || f === 'NA' || (r.type ?? '').trim().toLowerCase() === 'class') return null;
  try {
    parseAggFun(f);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Role of a table column. */
export type ColumnRole = 'coord' | 'key' | 'indicator' | 'helper' | 'unused';

/** The plan of one table column. */
export interface ColumnPlan {
  /** Index in the header. */
  index: number;
  /** Column name = layer code. */
  code: string;
  /** Role. */
  role: ColumnRole;
  /** The catalog record (all original fields, text) for indicators and keys that have one. */
  record?: Record<string, string>;
  /** "class" or "continuous" (keys are class; helpers continuous). */
  type: 'class' | 'continuous';
  /** Set when a finding drops the column (with --drop-invalid). */
  dropped?: boolean;
}

/** Longest code (column name) an ingest accepts: it names files (cog/<code>.tif), within every file system's 255-byte name limit. */
export const MAX_CODE_LENGTH = 100;

/**
 * A header name as shown in a finding: control and other non-printable characters escaped
 * (`\xNN`, `\uNNNN`), cut to 60 characters, so a garbage header never reaches a terminal raw.
 */
export function shown(name: string): string {
  const esc = name.replace(/[^\u0020-\u007e\u00a0-\ud7ff\ue000-\ufffc]/g, (c) => {
    const n = c.charCodeAt(0);
    return n < 256 ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
  });
  return esc.length > 60 ? `${esc.slice(0, 57)}...` : esc;
}

/**
 * Checks the header line before any row is read: the required key columns, empty names,
 * repeated names (also case-insensitively).
 * @returns fatal findings (empty when the header is usable)
 */
export function checkHeader(header: string[]): Finding[] {
  const out: Finding[] = [];
  if (header.length < REQUIRED_COLUMNS.length) {
    out.push({ kind: 'header', severity: 'fatal', message: `The header has ${header.length} column(s); a CELL5M table starts with ${REQUIRED_COLUMNS.join(', ')}.` });
  }
  for (const c of REQUIRED_COLUMNS) {
    if (!header.includes(c)) out.push({ kind: 'header', severity: 'fatal', column: c, message: `The header lacks the column ${c}.` });
  }
  const seen = new Map<string, string>();
  header.forEach((h, i) => {
    if (h.trim() === '') out.push({ kind: 'header', severity: 'fatal', message: `Column ${i + 1} of the header has no name.` });
    else if (!/^[A-Za-z.][A-Za-z0-9._]*$/.test(h)) out.push({ kind: 'header', severity: 'fatal', column: shown(h), message: `Column name '${shown(h)}' (column ${i + 1}) is not a code (letters, digits, '.', '_').` });
    else if (h.length > MAX_CODE_LENGTH) out.push({ kind: 'bad-code', severity: 'fatal', column: shown(h), message: `Column name '${shown(h)}' (column ${i + 1}) has ${h.length} characters; a code has at most ${MAX_CODE_LENGTH} (it names the file cog/<code>.tif).` });
    const k = h.toUpperCase();
    const prev = seen.get(k);
    if (prev !== undefined) out.push({ kind: 'code-collision', severity: 'fatal', column: h, message: prev === h ? `Column ${h} occurs twice in the header.` : `Columns ${prev} and ${h} differ only in case.` });
    else seen.set(k, h);
  });
  return out;
}

/**
 * Plans the columns from the header and the catalog records, with the catalog findings:
 * colliding record codes, formulas naming columns not in the table, records without a column,
 * columns without a record (helper when a formula names them, else unused).
 * @param header table header
 * @param records catalog rows (every field as text)
 * @returns the column plans (header order), findings, and the records kept
 */
export function planColumns(header: string[], records: Record<string, string>[]): { columns: ColumnPlan[]; findings: Finding[] } {
  const findings: Finding[] = [];
  const recByCode = new Map<string, Record<string, string>>();
  const upper = new Map<string, string>();
  for (const r of records) {
    const code = (r.varCode ?? '').trim();
    if (!code) {
      findings.push({ kind: 'unreadable', severity: 'droppable', field: 'varCode', message: 'A catalog record has no varCode; it is left out.' });
      continue;
    }
    const prev = upper.get(code.toUpperCase());
    if (prev !== undefined) {
      findings.push({
        kind: 'code-collision', severity: 'droppable', code, field: 'varCode',
        message: prev === code ? `The catalog has two records for ${code}; the first is kept.` : `Catalog records ${prev} and ${code} differ only in case; ${prev} is kept.`,
      });
      continue;
    }
    upper.set(code.toUpperCase(), code);
    recByCode.set(code, r);
  }
  const inTable = new Set(header);
  // Formulas naming columns that are not in the table.
  const used = new Map<string, string[]>(); // column -> codes of formulas naming it
  for (const [code, r] of recByCode) {
    if (!inTable.has(code) || (COORD_COLUMNS as readonly string[]).includes(code)) continue;
    const f = r.aggFunR ?? '';
    const unparsable = formulaParseError(r);
    if (unparsable) {
      findings.push({ kind: 'formula-unparsable', severity: 'droppable', code, field: 'aggFunR', message: `The formula of ${code} does not parse as the engine reads it (every query of ${code} would fail): ${unparsable}` });
      recByCode.delete(code);
      continue;
    }
    const cols = formulaColumns(f);
    if (cols.length === 0 && !(KEY_LAYERS as readonly string[]).includes(code)) {
      findings.push({ kind: 'formula', severity: 'droppable', code, field: 'aggFunR', message: `The formula of ${code} ('${f}') names no column; the record is dropped.` });
      recByCode.delete(code);
      continue;
    }
    const missing = cols.filter((c) => !inTable.has(c));
    if (missing.length) {
      findings.push({ kind: 'formula-column', severity: 'droppable', code, field: 'aggFunR', message: `The formula of ${code} ('${f}') names ${missing.join(', ')}, not a column of the table; the record is dropped.` });
      recByCode.delete(code);
      continue;
    }
    for (const c of cols) (used.get(c) ?? used.set(c, []).get(c)!).push(code);
  }
  for (const code of recByCode.keys()) {
    if (!inTable.has(code) && !(COORD_COLUMNS as readonly string[]).includes(code)) {
      findings.push({ kind: 'record-without-column', severity: 'droppable', code, message: `The catalog record ${code} has no column in the table; it is left out.` });
    }
  }
  const columns: ColumnPlan[] = header.map((code, index) => {
    if ((COORD_COLUMNS as readonly string[]).includes(code)) return { index, code, role: 'coord', type: 'continuous' };
    const record = recByCode.get(code);
    if ((KEY_LAYERS as readonly string[]).includes(code)) return { index, code, role: 'key', type: 'class', record };
    if (record) return { index, code, role: 'indicator', type: (record.type ?? '').trim().toLowerCase() === 'class' ? 'class' : 'continuous', record };
    const users = used.get(code);
    if (users) {
      findings.push({ kind: 'helper-column', severity: 'info', column: code, message: `Column ${code} has no catalog record; formulas of ${users.slice(0, 5).join(', ')}${users.length > 5 ? ', ...' : ''} use it, so it is written as a helper layer (published FALSE).` });
      return { index, code, role: 'helper', type: 'continuous' };
    }
    findings.push({ kind: 'unused-column', severity: 'info', column: code, message: `Column ${code} has no catalog record and no formula uses it; it is not written.` });
    return { index, code, role: 'unused', type: 'continuous' };
  });
  return { columns, findings };
}

/** Result of {@link checkCell}: the window column/row, or the finding kind. */
export type CellCheck = { col: number; row: number } | { kind: 'off-grid' | 'outside-window' | 'cell-xy-mismatch'; message: string };

/** Tolerance of X/Y against the cell centre, degrees: X/Y rounded to 3 decimals (0.0005) plus float slack. */
export const XY_TOLERANCE_DEG = 0.0005 + 1e-9;

/** C0 control characters other than tab, line feed and carriage return (issue 25 item 6: `Lag\0unes`). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_RE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

/**
 * Index of the first C0 control character of a text value (NUL, BEL, ESC, ...; tab, line
 * feed and carriage return are allowed, as in a quoted CSV field), or -1.
 */
export function firstControlChar(text: string): number {
  const m = CONTROL_RE.exec(text);
  return m ? m.index : -1;
}

/**
 * A CELL5M field as a cell id: decimal digits only (`^[0-9]+$`), so `0x41AF34`, ` 4304820`
 * and `4304820e0` are not cell ids (issue 25 item 6).
 * @param cell the field's text
 * @returns the id, or NaN
 */
export function parseCellId(cell: string): number {
  return /^[0-9]{1,15}$/.test(cell) ? Number(cell) : NaN;
}

/**
 * Checks one row's cell: CELL5M an integer cell of the global grid (row-major,
 * CELL5M = row * 4320 + col), X/Y its centre (x = -180 + (col + 0.5) / 12,
 * y = 90 - (row + 0.5) / 12, within {@link XY_TOLERANCE_DEG}), inside the window.
 * @param grid bundle window
 * @param cell CELL5M field (text)
 * @param xs X field (text)
 * @param ys Y field (text)
 */
export function checkCell(grid: GridDef, cell: string, xs: string, ys: string): CellCheck {
  const id = parseCellId(cell);
  if (!Number.isInteger(id) || id < 0 || id >= GLOBAL_WIDTH * GLOBAL_HEIGHT) {
    return { kind: 'off-grid', message: `CELL5M '${cell}' is not a cell of the global 5-arc-minute grid (0 .. ${GLOBAL_WIDTH * GLOBAL_HEIGHT - 1}).` };
  }
  const gc = id % GLOBAL_WIDTH;
  const gr = Math.floor(id / GLOBAL_WIDTH);
  const x = Number(xs);
  const y = Number(ys);
  const cx = -180 + (gc + 0.5) * CELL_SIZE_DEG;
  const cy = 90 - (gr + 0.5) * CELL_SIZE_DEG;
  if (xs.trim() === '' || ys.trim() === '' || !(Math.abs(x - cx) <= XY_TOLERANCE_DEG) || !(Math.abs(y - cy) <= XY_TOLERANCE_DEG)) {
    return { kind: 'cell-xy-mismatch', message: `CELL5M ${id} has its centre at X ${cx.toFixed(5)}, Y ${cy.toFixed(5)}, but the row gives X '${xs}', Y '${ys}'.` };
  }
  const cr = cellToColRow(grid, id);
  if (!cr) return { kind: 'outside-window', message: `CELL5M ${id} (X ${cx.toFixed(5)}, Y ${cy.toFixed(5)}) is outside the bundle window [${grid.xmin}, ${grid.ymin}, ${grid.xmax}, ${grid.ymax}].` };
  return { col: cr[0], row: cr[1] };
}
