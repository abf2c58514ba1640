/**
 * Several cell tables of one ingest joined on `CELL5M` (issue 15 item 3: a user who
 * downloaded many single-indicator exports of the original, `<code>..SSA.csv`, ingests them
 * together). The result is one {@link TableSource}:
 *
 * - header: the first table's columns, then the value columns of each further table in order
 *   (key and coordinate columns are not repeated; a value column in two tables is refused);
 * - rows: the first table streams, row by row; each further table was read once beforehand
 *   into per-column arrays indexed by its row, with a `CELL5M -> row` map (keys dictionary-
 *   coded as Int32 ids, numeric values as doubles, other text kept aside), so no table's rows
 *   are held as row objects. A cell missing from a table is empty (NA) there. Cells that only
 *   later tables give come after the first table's rows, keys taken from the first table that
 *   gives them;
 * - the key columns (X, Y, ISO3, ADM0_NAME, ADM1/ADM2 names and codes) present in two tables
 *   must agree for every cell (X/Y within 0.0005 degrees): a disagreement is a droppable
 *   finding naming the file, its row and the column, and the cell is left out.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { IndapiError } from '../../core/errors';
import type { Finding } from '../../core/ingest/findings';
import { XY_TOLERANCE_DEG, parseCellId } from '../../core/ingest/plan';
import { openTable, type OpenTableOptions, type TableCell, type TableSource } from './table-source';

/** Key columns compared across tables (those present in both). */
export const JOIN_KEY_COLUMNS = ['X', 'Y', 'ISO3', 'ADM0_NAME', 'ADM1_NAME_ALT', 'ADM2_NAME_ALT', 'ADM1_CODE_ALT', 'ADM2_CODE_ALT'] as const;
const NOT_VALUES = new Set<string>(['CELL5M', ...JOIN_KEY_COLUMNS]);
const TABLE_EXT = /\.(csv|tsv|txt|dta|rds|rda|rdata)$/i;

/**
 * The table files of `--table` arguments: files as given, folders replaced by their table
 * files (.csv, .tsv, .txt, .dta, .rds, .rda, .RData) in name order.
 * @throws IndapiError IO when a path cannot be read or a folder holds no table
 */
export async function expandTablePaths(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    let isDir: boolean;
    try {
      isDir = (await stat(p)).isDirectory();
    } catch (e) {
      throw new IndapiError('IO', `Cannot read input: ${(e as Error).message}`);
    }
    if (!isDir) {
      out.push(p);
      continue;
    }
    const files = (await readdir(p)).filter((f) => TABLE_EXT.test(f) && !/^vi[^/]*\.csv$/i.test(f)).sort();
    if (!files.length) throw new IndapiError('IO', `The folder ${p} holds no table (.csv, .tsv, .dta, .rds).`);
    out.push(...files.map((f) => join(p, f)));
  }
  return out;
}

/** One further table, read into columns. */
interface Side {
  name: string;
  rowOf: Map<number, number>;
  /** Key column name -> ids per row (into `dict`). */
  keys: Map<string, { ids: number[]; dict: string[] }>;
  /** Value columns: numbers (NaN: empty or text) and the text of non-numeric cells by row. */
  values: Array<{ name: string; num: number[]; text: Map<number, string> }>;
  used: Uint8Array;
}

const textOf = (x: TableCell | undefined): string => (x === undefined ? '' : typeof x === 'string' ? x : x !== x ? '' : String(x));

async function readSide(t: TableSource, name: string, signal?: AbortSignal): Promise<Side> {
  const h = t.header;
  const iCell = h.indexOf('CELL5M');
  const keyCols = JOIN_KEY_COLUMNS.filter((k) => h.includes(k)).map((k) => ({ k, i: h.indexOf(k), ids: [] as number[], dict: [] as string[], map: new Map<string, number>() }));
  const valCols = h.map((c, i) => ({ c, i })).filter(({ c }) => !NOT_VALUES.has(c)).map(({ c, i }) => ({ name: c, i, num: [] as number[], text: new Map<number, string>() }));
  const rowOf = new Map<number, number>();
  let r = 0;
  const textColumns = [iCell, ...keyCols.map((k) => k.i)];
  for await (const row of t.rows({ textColumns, labelColumns: new Set() }, signal)) {
    if (row.length === 1 && row[0] === '') continue;
    const cell = parseCellId(textOf(row[iCell]));
    if (Number.isInteger(cell) && !rowOf.has(cell)) rowOf.set(cell, r);
    for (const k of keyCols) {
      const v = textOf(row[k.i]);
      let id = k.map.get(v);
      if (id === undefined) {
        id = k.dict.length;
        k.dict.push(v);
        k.map.set(v, id);
      }
      k.ids.push(id);
    }
    for (const v of valCols) {
      const x = row[v.i];
      if (typeof x === 'number') v.num.push(x);
      else if (x === undefined || x === '' || x === 'NA') v.num.push(NaN);
      else {
        const n = Number(x);
        if (x.trim() !== '' && n === n) v.num.push(n);
        else {
          v.num.push(NaN);
          v.text.set(r, x);
        }
      }
    }
    r++;
  }
  await t.close();
  return {
    name, rowOf, used: new Uint8Array(r),
    keys: new Map(keyCols.map((k) => [k.k, { ids: k.ids, dict: k.dict }])),
    values: valCols.map((v) => ({ name: v.name, num: v.num, text: v.text })),
  };
}

const sameKey = (col: string, a: string, b: string): boolean => {
  if (col === 'X' || col === 'Y') return a.trim() === b.trim() || Math.abs(Number(a) - Number(b)) <= XY_TOLERANCE_DEG;
  return a.trim() === b.trim();
};

/**
 * Opens one table, or several joined on CELL5M (see the module comment).
 * @param paths table files (at least one)
 * @param opts as {@link openTable}
 * @param onFinding receives the key disagreements (droppable, with file, row and column)
 * @returns the (joined) table; its `format` is the first table's
 * @throws IndapiError UNPARSABLE as {@link openTable}, or when a table lacks CELL5M or two
 *   tables share a value column; IO; ABORTED
 */
export async function openTables(paths: string[], opts: OpenTableOptions, onFinding: (f: Finding) => void): Promise<TableSource> {
  if (paths.length === 1) return openTable(paths[0], opts);
  const opened: TableSource[] = [];
  try {
    for (const p of paths) opened.push(await openTable(p, opts));
  } catch (e) {
    for (const t of opened) await t.close();
    throw e;
  }
  const [first, ...rest] = opened;
  const names = paths.map((p) => basename(p));
  const header = [...first.header];
  const owner = new Map(header.map((c) => [c, names[0]]));
  for (let k = 0; k < rest.length; k++) {
    if (!rest[k].header.includes('CELL5M')) {
      for (const t of opened) await t.close();
      throw new IndapiError('UNPARSABLE', `The table ${names[k + 1]} has no CELL5M column; tables are joined on CELL5M.`);
    }
    for (const c of rest[k].header) {
      if (NOT_VALUES.has(c)) continue;
      if (owner.has(c)) {
        for (const t of opened) await t.close();
        throw new IndapiError('UNPARSABLE', `The column ${c} is in both ${owner.get(c)} and ${names[k + 1]}; each value column must come from one table.`);
      }
      owner.set(c, names[k + 1]);
      header.push(c);
    }
  }
  const totalBytes = opened.reduce((s, t) => s + t.totalBytes, 0);
  let restBytes = 0;
  let sidesDone = false;
  return {
    format: first.format, header, totalBytes, valueLabels: first.valueLabels,
    bytesRead: () => (sidesDone ? restBytes : 0) + first.bytesRead(),
    encoding: () => {
      const all = opened.map((t) => t.encoding());
      return all.find((e) => e.mode === 'latin1') ?? all[0];
    },
    decodeError: () => opened.map((t) => t.decodeError()).find((e) => e) ?? null,
    close: async () => {
      for (const t of opened) await t.close();
    },
    async *rows(ro, signal) {
      const sides: Side[] = [];
      for (let k = 0; k < rest.length; k++) {
        sides.push(await readSide(rest[k], names[k + 1], signal));
        restBytes += rest[k].totalBytes;
      }
      sidesDone = true;
      const fh = first.header;
      const iCell = fh.indexOf('CELL5M');
      const keyIdx = JOIN_KEY_COLUMNS.map((k) => [k, fh.indexOf(k)] as const).filter(([, i]) => i >= 0);
      /** Appends the sides' values for `cell` to `out`; false when a key disagrees (finding sent). */
      const join = (cell: number, keyText: (col: string) => string | undefined, from: number, out: TableCell[]): boolean => {
        for (let s = from; s < sides.length; s++) {
          const side = sides[s];
          const r = side.rowOf.get(cell);
          if (r === undefined) {
            for (let v = 0; v < side.values.length; v++) out.push('');
            continue;
          }
          side.used[r] = 1;
          for (const [col, k] of side.keys) {
            const mine = keyText(col);
            const theirs = k.dict[k.ids[r]];
            if (mine !== undefined && !sameKey(col, mine, theirs)) {
              onFinding({ kind: 'key-mismatch', severity: 'droppable', file: side.name, row: r + 1, column: col, message: `${side.name} row ${r + 1}: cell ${cell} has ${col} '${theirs}', but an earlier table gives '${mine}'; the cell is left out.` });
              return false;
            }
          }
          for (const v of side.values) out.push(v.text.get(r) ?? (v.num[r] === v.num[r] ? v.num[r] : ''));
        }
        return true;
      };
      for await (const row of first.rows({ textColumns: [...new Set([...ro.textColumns.filter((i) => i < fh.length), iCell, ...keyIdx.map(([, i]) => i)])], labelColumns: ro.labelColumns }, signal)) {
        if (row.length === 1 && row[0] === '') continue;
        const cell = parseCellId(textOf(row[iCell]));
        const out = [...row];
        if (out.length !== fh.length || !Number.isInteger(cell)) {
          yield out; // the ingest reports it (field count, CELL5M)
          continue;
        }
        if (join(cell, (c) => (fh.includes(c) ? textOf(row[fh.indexOf(c)]) : undefined), 0, out)) yield out;
      }
      // Cells only later tables give.
      for (let s = 0; s < sides.length; s++) {
        const side = sides[s];
        for (const [cell, r] of side.rowOf) {
          if (side.used[r]) continue;
          side.used[r] = 1;
          const keyText = (c: string) => {
            const k = side.keys.get(c);
            return k ? k.dict[k.ids[r]] : undefined;
          };
          const out: TableCell[] = fh.map((c) => (c === 'CELL5M' ? String(cell) : (keyText(c) ?? '')));
          for (let q = 0; q < s; q++) for (let v = 0; v < sides[q].values.length; v++) out.push('');
          for (const v of side.values) out.push(v.text.get(r) ?? (v.num[r] === v.num[r] ? v.num[r] : ''));
          if (join(cell, keyText, s + 1, out)) yield out;
        }
      }
    },
  };
}
