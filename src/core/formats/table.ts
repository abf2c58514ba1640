/**
 * Column preparation shared by the tabular writers (CSV, Stata, RDS): resolves each
 * {@link ColumnInfo} of a {@link TableResult} to a storage kind and, for class columns,
 * to integer codes with a label table (Stata value labels, R factor levels).
 */
import type { ColumnInfo, TableResult } from '../api';
import type { Cell } from '../types';

/** Storage kind of a prepared column. */
export type ColumnKind = 'string' | 'double' | 'integer' | 'factor';

/** A column ready to be written. */
export interface PreparedColumn {
  /** The engine's column description. */
  info: ColumnInfo;
  /** How the writers store it. */
  kind: ColumnKind;
  /** Raw cells in row order (undefined = missing). */
  cells: Array<Cell | undefined>;
  /**
   * Factor levels (labels), in the class table's order, then unknown labels in order of
   * appearance. Tables of more than {@link MAX_UNUSED_LEVELS} classes keep only the classes present.
   */
  levels?: string[];
  /**
   * Integer value of each level for Stata value labels: the class table's raster values when
   * they are distinct integers in int32 range, else 1..n.
   */
  levelValues?: number[];
  /** 0-based level index per row, -1 when missing. */
  codes?: Int32Array;
}

/** Label of a column as written in file metadata: `"<label> (<unit>)"`, or the label alone when there is no unit. */
export function labelWithUnit(info: ColumnInfo): string {
  const label = info.label || info.name;
  return info.unit ? `${label} (${info.unit})` : label;
}

/** True for a finite number. */
function isNum(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/**
 * Prepares every column of a table.
 * Class columns (those with `classes`) become factors; `type: 'integer'` columns stay
 * integers when every value fits int32 (else doubles); numbers that are not finite are missing.
 */
export function prepareColumns(table: TableResult): PreparedColumn[] {
  return table.columns.map((info) => {
    const cells = table.rows.map((r) => {
      const v = r[info.name];
      if (v === undefined || v === null) return undefined;
      if (typeof v === 'number' && !Number.isFinite(v)) return undefined;
      return v;
    });
    if (info.classes && info.classes.length > 0) return prepareFactor(info, cells);
    if (info.type === 'string') return { info, kind: 'string' as const, cells: cells.map((v) => (v === undefined ? undefined : String(v))) };
    const nums = cells.map((v) => (v === undefined ? undefined : typeof v === 'number' ? v : Number(v))).map((v) => (isNum(v) ? v : undefined));
    const allInt = nums.every((v) => v === undefined || (Number.isInteger(v) && Math.abs(v) <= 2147483620));
    return { info, kind: info.type === 'integer' && allInt ? ('integer' as const) : ('double' as const), cells: nums };
  });
}

/** Class tables longer than this keep only the classes that occur (e.g. 759 admin-1 units in a one-country table). */
export const MAX_UNUSED_LEVELS = 64;

function prepareFactor(info: ColumnInfo, cells: Array<Cell | undefined>): PreparedColumn {
  let classes = info.classes ?? [];
  if (classes.length > MAX_UNUSED_LEVELS) {
    const present = new Set(cells.filter((v) => v !== undefined).map((v) => String(v)));
    classes = classes.filter((c) => present.has(String(c.label)) || present.has(String(c.value)));
  }
  const levels: string[] = [];
  const firstValue: number[] = [];
  const index = new Map<string, number>();
  for (const c of classes) {
    const l = String(c.label);
    if (index.has(l)) continue;
    index.set(l, levels.length);
    levels.push(l);
    firstValue.push(Number(c.value));
  }
  // Cells may hold the label (usual) or the raster value of a class.
  const byValue = new Map<number, number>();
  classes.forEach((c) => byValue.set(Number(c.value), index.get(String(c.label)) as number));
  const codes = new Int32Array(cells.length);
  cells.forEach((v, r) => {
    if (v === undefined) {
      codes[r] = -1;
      return;
    }
    const s = String(v);
    let k = index.get(s);
    if (k === undefined && typeof v === 'number') k = byValue.get(v);
    if (k === undefined) {
      k = levels.length;
      levels.push(s);
      index.set(s, k);
    }
    codes[r] = k;
  });
  const vals = firstValue;
  const usable =
    vals.length === levels.length &&
    vals.every((v) => Number.isInteger(v) && v >= -2147483647 && v <= 2147483620) &&
    new Set(vals).size === vals.length;
  const levelValues = usable ? vals : levels.map((_, i) => i + 1);
  return { info, kind: 'factor', cells, levels, levelValues, codes };
}
