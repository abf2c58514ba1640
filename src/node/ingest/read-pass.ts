/**
 * Step 2 of the table ingest (./index.ts): one streaming pass over the table's rows that
 * checks each row's cell (CELL5M vs X/Y, off grid, outside the window, duplicates) and text
 * (control characters), counts each country's cells and extent, gives key layers their
 * dictionary ids, and spills the layer values to a file in blocks of {@link BLOCK_ROWS} rows,
 * column-major inside each block (Float64, the values as read; text classes as dictionary ids).
 */
import { writeSync } from 'node:fs';
import type { GridDef } from '../../core/grid';
import { KEY_SEP, numericClasses, type CountryCells } from '../../core/ingest/classes';
import type { Findings } from '../../core/ingest/findings';
import { checkCell, firstControlChar } from '../../core/ingest/plan';
import type { TableSource } from './table-source';
import { BLOCK_ROWS, layerValue, type Layer } from './layer';

/** Positions of the key and coordinate columns in the header (-1: absent). */
export interface KeyColumns {
  iCell: number; iX: number; iY: number; iIso: number; iAdm0: number;
  iAdm1: number; iAdm2: number; iAdm1c: number; iAdm2c: number;
}

/** The key and coordinate columns of a header. */
export function keyColumns(header: string[]): KeyColumns {
  const col = (name: string) => header.indexOf(name);
  return {
    iCell: col('CELL5M'), iX: col('X'), iY: col('Y'), iIso: col('ISO3'), iAdm0: col('ADM0_NAME'),
    iAdm1: col('ADM1_NAME_ALT'), iAdm2: col('ADM2_NAME_ALT'), iAdm1c: col('ADM1_CODE_ALT'), iAdm2c: col('ADM2_CODE_ALT'),
  };
}

/** What the read pass needs. */
export interface ReadPassInput {
  table: TableSource;
  header: string[];
  layers: Layer[];
  /** Key-layer extras (the key's other columns), per key layer code; filled. */
  codeOf: Map<string, Map<string, string>>;
  /** The grid cells are checked on (the fixed window, else the global lattice). */
  grid: GridDef;
  found: Findings;
  /** The table's name(s) for messages. */
  tableName: string;
  /** The spill file, open for writing. */
  spillFd: number;
  /** Called about every 1024 rows with the rows read so far. */
  onRows?: (rows: number) => void;
  signal?: AbortSignal;
}

/**
 * A read pass (see the module comment) and what it found so far: rows read, spill blocks
 * written, each row's window cell and the countries' cells. Findings go to `input.found`.
 */
export class ReadPass {
  /** Data rows read (so far, when {@link run} threw). */
  rows = 0;
  /** Spill blocks written. */
  nBlocks = 0;
  /** Per data row (0-based) its window cell (row * width + col), -1 when the row was dropped; longer than `rows`. */
  cellOf = new Int32Array(1 << 16);
  /** Per grid cell the 1-based row that gave it (0: none); without a fixed window the global lattice: 37 MB. */
  readonly seen: Int32Array;
  /** Cells and extent per ISO3 code. */
  readonly countries = new Map<string, CountryCells>();
  private readonly block: Float64Array;

  constructor(private readonly input: ReadPassInput) {
    this.block = new Float64Array(BLOCK_ROWS * input.layers.length).fill(NaN);
    this.seen = new Int32Array(input.grid.width * input.grid.height);
  }

  /** Writes the block being filled to the spill file and starts an empty one. */
  flush(): void {
    writeSync(this.input.spillFd, new Uint8Array(this.block.buffer));
    this.nBlocks++;
    this.block.fill(NaN);
  }

  /** Writes the last, partial block (after {@link run}). */
  flushLast(): void {
    if (this.rows % BLOCK_ROWS !== 0) this.flush();
  }

  /**
   * Reads every row.
   * @throws what the table's rows throw (UNPARSABLE, ABORTED, stream errors); {@link rows} says how far it got
   */
  async run(): Promise<void> {
    const { table, header, layers, found, tableName, signal } = this.input;
    const k = keyColumns(header);
    const L = layers.length;
    // Key and coordinate columns as text; a .dta class column whose record has no labels takes its value labels as text.
    const textColumns = [k.iCell, k.iX, k.iY, k.iIso, k.iAdm0, k.iAdm1, k.iAdm2, k.iAdm1c, k.iAdm2c].filter((i) => i >= 0);
    const labelColumns = new Set(layers.filter((l) => l.plan.role === 'indicator' && l.plan.type === 'class' && table.valueLabels.has(l.plan.index) && numericClasses(l.plan.record ?? {}, []).table.length === 0).map((l) => l.plan.index));
    const checkText = (text: string | undefined, rn: number, column: string) => {
      const at = text ? firstControlChar(text) : -1;
      if (at < 0) return;
      const code = text!.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0');
      found.addRow({ kind: 'control-character', severity: 'fatal', file: tableName, row: rn, column, message: `The table ${tableName}, row ${rn}, column ${column}: the text holds the control character U+${code} at character ${at + 1}; remove it from the table.` });
    };
    for await (const cells of table.rows({ textColumns, labelColumns }, signal)) {
      const row = cells as string[]; // key and coordinate columns come as text (textColumns); layer values may be numbers
      if (row.length === 1 && row[0] === '') continue;
      const rn = ++this.rows;
      const b = (rn - 1) % BLOCK_ROWS;
      if (row.length !== header.length) {
        found.addRow({ kind: 'bad-row', severity: 'droppable', row: rn, message: `Row ${rn} has ${row.length} fields; the header has ${header.length}.` });
        this.setCell(rn, -1);
      } else {
        for (const i of textColumns) checkText(row[i], rn, header[i]);
        this.setCell(rn, this.place(row, rn, k));
        for (let j = 0; j < L; j++) {
          const l = layers[j];
          let x: number;
          if (l.plan.role === 'key') x = keyId(l, row, k, this.input.codeOf);
          else {
            const known = l.keys?.length;
            x = layerValue(l, cells[l.plan.index], rn);
            if (known !== l.keys?.length) checkText(l.keys![l.keys!.length - 1], rn, header[l.plan.index]); // a new class text
          }
          this.block[j * BLOCK_ROWS + b] = x;
        }
      }
      if (b === BLOCK_ROWS - 1) this.flush();
      if ((rn & 1023) === 0) this.input.onRows?.(rn);
    }
  }

  /** Records the window cell of data row `rn` (1-based), growing the table as needed. */
  private setCell(rn: number, win: number): void {
    if (rn > this.cellOf.length) {
      const n = new Int32Array(this.cellOf.length * 2);
      n.set(this.cellOf);
      this.cellOf = n;
    }
    this.cellOf[rn - 1] = win;
  }

  /**
   * The window cell of a row (row * width + col), or -1 with a finding when its cell is off
   * the grid, disagrees with X/Y or was already given; counts the cell on its country.
   */
  private place(row: string[], rn: number, k: KeyColumns): number {
    const { grid, found } = this.input;
    const cc = checkCell(grid, row[k.iCell], row[k.iX], row[k.iY]);
    if ('kind' in cc) {
      found.addRow({ kind: cc.kind, severity: 'droppable', row: rn, column: 'CELL5M', message: `Row ${rn}: ${cc.message}` });
      return -1;
    }
    const win = cc.row * grid.width + cc.col;
    if (this.seen[win] !== 0) {
      found.addRow({ kind: 'duplicate-cell', severity: 'droppable', row: rn, column: 'CELL5M', message: `Row ${rn}: cell ${row[k.iCell]} was already given by row ${this.seen[win]}.` });
      return -1;
    }
    this.seen[win] = rn;
    const iso = row[k.iIso];
    if (iso) {
      let c = this.countries.get(iso);
      if (!c) this.countries.set(iso, (c = { name: row[k.iAdm0] || iso, cells: 0, ext: [cc.col, cc.row, cc.col, cc.row] }));
      c.cells++;
      if (cc.col < c.ext[0]) c.ext[0] = cc.col;
      if (cc.row < c.ext[1]) c.ext[1] = cc.row;
      if (cc.col > c.ext[2]) c.ext[2] = cc.col;
      if (cc.row > c.ext[3]) c.ext[3] = cc.row;
    }
    return win;
  }
}

/** The dictionary id (1-based, first appearance) of a key layer's key in a row, NaN without one; a new key's extras go to `codeOf`. */
function keyId(l: Layer, row: string[], k: KeyColumns, codeOf: Map<string, Map<string, string>>): number {
  const key = keyOf(l.plan.code, row, k);
  if (key === null) return NaN;
  let id = l.dict!.get(key);
  if (id === undefined) {
    l.keys!.push(key);
    id = l.keys!.length;
    l.dict!.set(key, id);
    const extra = keyExtra(l.plan.code, row, k);
    if (extra !== null) codeOf.get(l.plan.code)!.set(key, extra);
  }
  return id;
}

function keyOf(code: string, row: string[], k: KeyColumns): string | null {
  const iso = row[k.iIso];
  switch (code) {
    case 'ISO3':
      return iso || null;
    case 'ADM0_NAME':
      return row[k.iAdm0] ? iso + KEY_SEP + row[k.iAdm0] : null;
    case 'ADM1_NAME_ALT':
      return row[k.iAdm1] ? iso + KEY_SEP + row[k.iAdm1] : null;
    case 'ADM2_NAME_ALT':
      return row[k.iAdm2] ? iso + KEY_SEP + row[k.iAdm1] + KEY_SEP + row[k.iAdm2] : null;
    case 'ADM1_CODE_ALT':
      return row[k.iAdm1c] ? iso + KEY_SEP + row[k.iAdm1c] : null;
    case 'ADM2_CODE_ALT':
      return row[k.iAdm2c] ? iso + KEY_SEP + row[k.iAdm2c] : null;
    default:
      return null;
  }
}

function keyExtra(code: string, row: string[], k: KeyColumns): string | null {
  switch (code) {
    case 'ISO3':
      return row[k.iAdm0] ?? '';
    case 'ADM1_NAME_ALT':
      return k.iAdm1c >= 0 ? row[k.iAdm1c] : null;
    case 'ADM2_NAME_ALT':
      return k.iAdm2c >= 0 ? row[k.iAdm2c] : null;
    case 'ADM1_CODE_ALT':
      return row[k.iAdm1] ?? '';
    case 'ADM2_CODE_ALT':
      return (row[k.iAdm2] ?? '') + KEY_SEP + (row[k.iAdm1] ?? '');
    default:
      return null;
  }
}
