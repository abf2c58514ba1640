/**
 * Table ingest (issue 9 items 1, 4, 6): a CELL5M table (CSV or TSV, UTF-8 or Latin-1; Stata .dta;
 * R .rds, read by ./table-source.ts) and its
 * catalog (`vi.csv` with the original's 40+ fields) become a bundle folder in the layout the
 * app and server read (cog/, classes/, vi.csv, iso.csv, manifest.json, README.md).
 *
 * Design (memory bound, one pass over the table):
 * 1. The header is read and checked first (fails within a second on any file size), then the
 *    catalog is planned against it (formulas, records, helper columns, colliding codes).
 * 2. One streaming pass (papaparse over a Node stream, or the rows of a .dta / spilled .rds) checks every row's cell (CELL5M vs X/Y,
 *    off grid, outside the window, duplicates) and column types, and spills the values of the
 *    layer columns to a temporary file in blocks of {@link BLOCK_ROWS} rows, column-major
 *    inside each block (Float32; text classes as dictionary ids).
 * 3. When nothing fatal was found (or --drop-invalid), the layers are written in column
 *    batches: each batch reads its contiguous slice of every block back, builds the grid
 *    arrays and writes COGs (src/core/formats/cog.ts, native zlib).
 * 4. The ADM1/ADM2 name key layers are also traced into admin outlines (basemap/admin1.geojson,
 *    basemap/admin2.geojson; src/core/formats/outlines.ts) from their grid, already in memory.
 * 5. Everything is written into a temporary folder next to `out`, renamed into place at the
 *    end; a failed or aborted run removes it.
 *
 * Memory: block buffer (BLOCK_ROWS x layers x 4 bytes, 24 MB for 750 layers) plus one column
 * batch (rows x batch x 4 bytes) plus dictionaries; peak well under 1.5 GB at 303,000 x 750.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { deflate } from 'node:zlib';
import { promisify } from 'node:util';
import Papa from 'papaparse';
import { VI_FIELDS } from '../../core/catalog';
import { IndapiError, isIndapiError, throwIfAborted } from '../../core/errors';
import { writeCogAsync } from '../../core/formats/cog';
import { GLOBAL_GRID, gridText, type GridDef } from '../../core/grid';
import { windowFromCells } from '../../core/ingest/window';
import { KEY_SEP, classTableCsv, isoCsv, numericClasses, textClasses, type CountryCells } from '../../core/ingest/classes';
import { Findings, type Finding } from '../../core/ingest/findings';
import { OUTLINE_FILES, OUTLINE_KEY, outlineAttribution, outlineDescription, outlineUnits, writeOutlines } from '../../core/formats/outlines';
import { checkCell, checkHeader, formulaColumns, planColumns, type ColumnPlan } from '../../core/ingest/plan';
import type { ClassEntry } from '../../core/types';
import { openTable, type TableSource } from './table-source';
import { decodeWhole } from './text';

export type { Finding } from '../../core/ingest/findings';

/** Rows per spill block. */
export const BLOCK_ROWS = 8192;
/** Layers being compressed at once (their tiles on zlib's thread pool). */
const WRITE_CONCURRENCY = 3;
const deflateP = promisify(deflate);
const deflateAsync = async (d: Uint8Array): Promise<Uint8Array> => new Uint8Array(await deflateP(d, { level: 6 }));

/** Progress of an ingest, reported through {@link IngestOptions.onProgress}. */
export interface IngestProgress {
  /** "read" while the table streams, "write" while layers are written. */
  phase: 'read' | 'write';
  /** Table rows read so far. */
  rows: number;
  /** Table bytes read so far. */
  bytes: number;
  /** Table size in bytes. */
  totalBytes: number;
  /** Layers written so far. */
  columnsDone: number;
  /** Layers to write. */
  columnsTotal: number;
  /** Seconds since the start. */
  seconds: number;
}

/** Options of {@link ingestTable}. */
export interface IngestOptions {
  /** Table path: CSV or TSV (delimiter taken from the header line), Stata .dta or R .rds (format from the first bytes). */
  table: string;
  /** Catalog (vi.csv) path. */
  catalog: string;
  /** Bundle folder to create. */
  out: string;
  /** Write the valid rest when droppable findings occur, listing what was dropped. */
  dropInvalid?: boolean;
  /** Replace a non-empty `out`. */
  force?: boolean;
  /** Progress callback (called about once a second and at phase ends). */
  onProgress?: (p: IngestProgress) => void;
  /** Layers written per batch (default: chosen so a batch holds about 160 MB of values). */
  columnBatch?: number;
  /**
   * A fixed bundle window (e.g. SSA_ALL_GRID); cells outside it are `outside-window` findings.
   * Default: the bounding box of the table's valid cells on the 5-arc-minute lattice, so no cell is dropped.
   */
  grid?: GridDef;
}

/** Result of {@link ingestTable}. */
export interface IngestResult {
  /** false: fatal findings, nothing written. */
  ok: boolean;
  /** The bundle folder (absolute). */
  out: string;
  /** Table data rows read. */
  rows: number;
  /** Codes written as COGs. */
  layers: string[];
  /** Every finding. */
  findings: Finding[];
  /** Findings whose row, column or record was dropped (with dropInvalid). */
  dropped: Finding[];
  /** Wall time, seconds. */
  seconds: number;
}

/** One layer column during the read pass. */
interface Layer {
  plan: ColumnPlan;
  /** Position among the layers (column in the spill blocks). */
  j: number;
  numN: number;
  textN: number;
  firstText: number;
  firstNum: number;
  firstBad: number;
  dict?: Map<string, number>;
  keys?: string[];
  present?: Set<number>;
  maxValue: number;
  // decided after the read pass
  classes?: { table: ClassEntry[]; extras: string[]; remap?: Int32Array };
  sampleType?: 'Float32' | 'Byte' | 'UInt16';
  noData?: number;
}

function fail(findings: Finding[], out: string, rows: number, t0: number): IngestResult {
  return { ok: false, out, rows, layers: [], findings, dropped: [], seconds: (Date.now() - t0) / 1000 };
}

async function isNonEmptyDir(p: string): Promise<boolean> {
  try {
    const s = await stat(p);
    if (!s.isDirectory()) return true;
    return (await readdir(p)).length > 0;
  } catch {
    return false;
  }
}

const KEY_LABEL: Record<string, [string, string]> = {
  ISO3: ['Country code (ISO3)', 'Country'],
  ADM0_NAME: ['Country name', 'Country'],
  ADM1_NAME_ALT: ['Admin-1 unit name', 'Admin-1'],
  ADM1_CODE_ALT: ['Admin-1 unit code', 'Admin-1'],
  ADM2_NAME_ALT: ['Admin-2 unit name', 'Admin-2'],
  ADM2_CODE_ALT: ['Admin-2 unit code', 'Admin-2'],
};

/**
 * Ingests a CELL5M table and its catalog into a bundle folder.
 * @param opts paths and options
 * @param signal aborts the run (the temporary folder is removed)
 * @returns the result; `ok` false with fatal findings when nothing was written
 * @throws IndapiError BAD_ARGUMENT when `out` is not empty and `force` is not set;
 *   IO when the table or catalog cannot be opened or the bundle cannot be written;
 *   ABORTED when aborted
 */
export async function ingestTable(opts: IngestOptions, signal?: AbortSignal): Promise<IngestResult> {
  const t0 = Date.now();
  // cells are checked on the fixed window, else on the global lattice; the window from the data is cut after the read pass
  let grid = opts.grid ?? GLOBAL_GRID;
  const out = resolve(opts.out);
  if (!opts.force && (await isNonEmptyDir(out))) {
    throw new IndapiError('BAD_ARGUMENT', `The output folder ${out} is not empty; pass --force to replace it.`, { argument: 'out' });
  }
  let tableSize: number;
  try {
    tableSize = (await stat(opts.table)).size;
    await stat(opts.catalog);
  } catch (e) {
    throw new IndapiError('IO', `Cannot read input: ${(e as Error).message}`);
  }
  const found = new Findings();

  // 1. Header (before any row; an .rds is spilled column by column first, its names come last), then the catalog.
  let table: TableSource;
  try {
    table = await openTable(opts.table, {
      spillParent: dirname(out), signal,
      onProgress: (bytes) => opts.onProgress?.({ phase: 'read', rows: 0, bytes, totalBytes: tableSize, columnsDone: 0, columnsTotal: 0, seconds: (Date.now() - t0) / 1000 }),
    });
  } catch (e) {
    if (!isIndapiError(e) || e.code !== 'UNPARSABLE') throw e;
    return fail([{ kind: 'unreadable', severity: 'fatal', message: e.message }], out, 0, t0);
  }
  const header = table.header;
  const hf = checkHeader(header);
  if (hf.length) {
    await table.close();
    return fail(hf, out, 0, t0);
  }

  let records: Record<string, string>[];
  let catFields: string[];
  {
    const { text, encoding } = decodeWhole(await readFile(opts.catalog).catch((e) => {
      throw new IndapiError('IO', `Cannot read the catalog ${opts.catalog}: ${(e as Error).message}`);
    }));
    if (encoding === 'latin1') found.add({ kind: 'encoding', severity: 'info', field: 'catalog', message: `The catalog ${basename(opts.catalog)} is not valid UTF-8; it was read as Latin-1.` });
    const res = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
    const bad = res.errors.find((e) => e.type !== 'Delimiter');
    catFields = (res.meta.fields ?? []).map((f) => f.trim());
    if (bad || !catFields.includes('varCode') || !catFields.includes('aggFunR')) {
      await table.close();
      found.add({ kind: 'unreadable', severity: 'fatal', field: bad ? undefined : 'varCode', row: bad ? (bad.row ?? 0) + 1 : undefined, message: bad ? `Cannot parse the catalog ${basename(opts.catalog)}: ${bad.message} (record ${(bad.row ?? 0) + 1}).` : `The catalog ${basename(opts.catalog)} lacks the varCode or aggFunR field.` });
      return fail(found.list, out, 0, t0);
    }
    records = res.data.map((r) => {
      const o: Record<string, string> = {};
      for (const [k, v] of Object.entries(r)) o[k.trim()] = (v ?? '').trim();
      if (o.aggFunR === 'NA') o.aggFunR = '';
      return o;
    });
  }
  const planned = planColumns(header, records);
  for (const f of planned.findings) found.add(f);
  if (found.has('fatal') || (!opts.dropInvalid && found.has('droppable'))) {
    await table.close();
    return fail(found.list, out, 0, t0);
  }

  const col = (name: string) => header.indexOf(name);
  const iCell = col('CELL5M');
  const iX = col('X');
  const iY = col('Y');
  const iIso = col('ISO3');
  const iAdm0 = col('ADM0_NAME');
  const iAdm1 = col('ADM1_NAME_ALT');
  const iAdm2 = col('ADM2_NAME_ALT');
  const iAdm1c = col('ADM1_CODE_ALT');
  const iAdm2c = col('ADM2_CODE_ALT');
  const layers: Layer[] = planned.columns
    .filter((p) => p.role === 'key' || p.role === 'indicator' || p.role === 'helper')
    .map((plan, j) => ({ plan, j, numN: 0, textN: 0, firstText: 0, firstNum: 0, firstBad: 0, maxValue: 0 }));
  const L = layers.length;
  const codeOf = new Map<string, Map<string, string>>(); // key-layer extras
  for (const l of layers) {
    if (l.plan.role === 'key' || l.plan.type === 'class') {
      l.dict = new Map();
      l.keys = [];
    }
    if (l.plan.role === 'key') codeOf.set(l.plan.code, new Map());
    if (l.plan.role === 'indicator' && l.plan.type === 'class') l.present = new Set();
  }

  // 2. Read pass into a spill file inside the temporary folder.
  const tmp = join(dirname(out), `.${basename(out)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(tmp, { recursive: true });
  const cleanup = () => rm(tmp, { recursive: true, force: true });
  const spillPath = join(tmp, '.spill');
  let spillFd = -1;
  try {
    spillFd = openSync(spillPath, 'w+');
    const block = new Float32Array(BLOCK_ROWS * L);
    let nBlocks = 0;
    let cellOf = new Int32Array(1 << 16);
    const seen = new Int32Array(grid.width * grid.height); // without a fixed window the global lattice: 37 MB
    const countries = new Map<string, CountryCells>();
    let r = 0; // data rows
    let lastReport = 0;
    // Key and coordinate columns as text; a .dta class column whose record has no labels takes its value labels as text.
    const textColumns = [iCell, iX, iY, iIso, iAdm0, iAdm1, iAdm2, iAdm1c, iAdm2c].filter((i) => i >= 0);
    const labelColumns = new Set(layers.filter((l) => l.plan.role === 'indicator' && l.plan.type === 'class' && table.valueLabels.has(l.plan.index) && numericClasses(l.plan.record ?? {}, []).table.length === 0).map((l) => l.plan.index));
    const rowsOf = table.rows({ textColumns, labelColumns }, signal);
    const flush = () => {
      writeSync(spillFd, new Uint8Array(block.buffer));
      nBlocks++;
      block.fill(NaN);
    };
    block.fill(NaN);
    try {
      for await (const cells of rowsOf) {
        const row = cells as string[]; // key and coordinate columns come as text (textColumns); layer values may be numbers
        if (row.length === 1 && row[0] === '') continue;
        const rn = r + 1;
        if (r >= cellOf.length) {
          const n = new Int32Array(cellOf.length * 2);
          n.set(cellOf);
          cellOf = n;
        }
        const b = r % BLOCK_ROWS;
        r++;
        if (row.length !== header.length) {
          found.addRow({ kind: 'bad-row', severity: 'droppable', row: rn, message: `Row ${rn} has ${row.length} fields; the header has ${header.length}.` });
          cellOf[rn - 1] = -1;
          if (b === BLOCK_ROWS - 1) flush();
          continue;
        }
        const cc = checkCell(grid, row[iCell], row[iX], row[iY]);
        let win = -1;
        if ('kind' in cc) {
          found.addRow({ kind: cc.kind, severity: 'droppable', row: rn, column: 'CELL5M', message: `Row ${rn}: ${cc.message}` });
        } else {
          win = cc.row * grid.width + cc.col;
          if (seen[win] !== 0) {
            found.addRow({ kind: 'duplicate-cell', severity: 'droppable', row: rn, column: 'CELL5M', message: `Row ${rn}: cell ${row[iCell]} was already given by row ${seen[win]}.` });
            win = -1;
          } else {
            seen[win] = rn;
            const iso = row[iIso];
            if (iso) {
              let c = countries.get(iso);
              if (!c) countries.set(iso, (c = { name: row[iAdm0] || iso, cells: 0, ext: [cc.col, cc.row, cc.col, cc.row] }));
              c.cells++;
              if (cc.col < c.ext[0]) c.ext[0] = cc.col;
              if (cc.row < c.ext[1]) c.ext[1] = cc.row;
              if (cc.col > c.ext[2]) c.ext[2] = cc.col;
              if (cc.row > c.ext[3]) c.ext[3] = cc.row;
            }
          }
        }
        cellOf[rn - 1] = win;
        for (let j = 0; j < L; j++) {
          const l = layers[j];
          const v = cells[l.plan.index];
          let x = NaN;
          if (l.plan.role === 'key') {
            const key = keyOf(l.plan.code, row, iIso, iAdm0, iAdm1, iAdm2, iAdm1c, iAdm2c);
            if (key !== null) {
              let id = l.dict!.get(key);
              if (id === undefined) {
                l.keys!.push(key);
                id = l.keys!.length;
                l.dict!.set(key, id);
                const m = codeOf.get(l.plan.code)!;
                const extra = keyExtra(l.plan.code, row, iAdm0, iAdm1, iAdm2, iAdm1c, iAdm2c);
                if (extra !== null) m.set(key, extra);
              }
              x = id;
            }
          } else if (typeof v === 'number' ? v === v : v !== '' && v !== 'NA') {
            x = +v;
            if (typeof v === 'string' && (x !== x || v.trim() === '')) {
              if (l.textN++ === 0) l.firstText = rn;
              if (l.dict) {
                let id = l.dict.get(v);
                if (id === undefined) {
                  l.keys!.push(v);
                  id = l.keys!.length;
                  l.dict.set(v, id);
                }
                x = id;
              } else x = NaN;
            } else {
              if (l.numN++ === 0) l.firstNum = rn;
              if (l.present) {
                if (x % 1 !== 0 || x < 0 || x > 65534) {
                  if (!l.firstBad) l.firstBad = rn;
                } else {
                  l.present.add(x);
                  if (x > l.maxValue) l.maxValue = x;
                }
              }
            }
          }
          block[j * BLOCK_ROWS + b] = x;
        }
        if (b === BLOCK_ROWS - 1) flush();
        if (opts.onProgress && (r & 1023) === 0) {
          const now = Date.now();
          if (now - lastReport > 1000) {
            lastReport = now;
            opts.onProgress({ phase: 'read', rows: r, bytes: table.bytesRead(), totalBytes: tableSize, columnsDone: 0, columnsTotal: L, seconds: (now - t0) / 1000 });
          }
        }
      }
    } catch (e) {
      throwIfAborted(signal);
      await table.close();
      if (table.decodeError()) {
        found.add({ kind: 'encoding', severity: 'fatal', message: `The table ${basename(opts.table)} mixes encodings (${table.decodeError()}).` });
        await cleanup();
        return fail(found.list, out, r, t0);
      }
      if (isIndapiError(e) && e.code === 'UNPARSABLE') {
        found.add({ kind: 'unreadable', severity: 'fatal', row: r, message: e.message });
        await cleanup();
        return fail(found.list, out, r, t0);
      }
      throw new IndapiError('IO', `Cannot read the table ${opts.table}: ${(e as Error).message}`);
    }
    await table.close();
    throwIfAborted(signal);
    if (r % BLOCK_ROWS !== 0) flush();
    const nRows = r;
    const decoder = table.encoding();
    if (decoder.mode === 'latin1') {
      found.add({ kind: 'encoding', severity: 'info', message: `The table ${basename(opts.table)} is not valid UTF-8 (from byte ${decoder.switchedAt}); it was read as Latin-1.` });
    }
    opts.onProgress?.({ phase: 'read', rows: nRows, bytes: tableSize, totalBytes: tableSize, columnsDone: 0, columnsTotal: L, seconds: (Date.now() - t0) / 1000 });

    // Column decisions.
    const dropped = new Set<string>();
    const dropCol = (l: Layer, f: Finding) => {
      found.add(f);
      dropped.add(l.plan.code);
      l.plan.dropped = true;
    };
    for (const l of layers) {
      const code = l.plan.code;
      if (l.plan.role === 'key') {
        const k = textClasses(code, l.keys!, codeOf.get(code));
        l.classes = k;
      } else if (l.textN > 0 && l.numN > 0) {
        dropCol(l, { kind: 'mixed-types', severity: 'droppable', column: code, row: l.firstText, message: `Column ${code} mixes numbers (first in row ${l.firstNum}) and text (first in row ${l.firstText}).` });
        continue;
      } else if (l.plan.type === 'continuous' && l.textN > 0) {
        dropCol(l, { kind: 'text-in-continuous', severity: 'droppable', column: code, row: l.firstText, message: `Column ${code} holds text (first in row ${l.firstText}) but its record is continuous.` });
        continue;
      } else if (l.plan.type === 'class' && l.textN > 0) {
        l.classes = textClasses(code, l.keys!);
      } else if (l.plan.type === 'class') {
        if (l.firstBad) {
          dropCol(l, { kind: 'class-not-integer', severity: 'droppable', column: code, row: l.firstBad, message: `Column ${code} is a class layer but holds a value that is not an integer 0..65534 (row ${l.firstBad}).` });
          continue;
        }
        const nc = numericClasses(l.plan.record ?? {}, l.present!);
        if (nc.unlabelled.length) {
          dropCol(l, { kind: 'class-without-label', severity: 'droppable', column: code, code, field: 'classLabels', message: `Column ${code}: class value(s) ${nc.unlabelled.slice(0, 10).join(', ')}${nc.unlabelled.length > 10 ? ', ...' : ''} have no label in the record's classBreaks/classLabels.` });
          continue;
        }
        l.classes = { table: nc.table, extras: [] };
        for (const e of nc.table) if (e.value > l.maxValue) l.maxValue = e.value;
      }
      if (l.classes) {
        if (l.classes.remap) l.maxValue = l.classes.table.length;
        if (l.maxValue > 65534) {
          dropCol(l, { kind: 'too-many-classes', severity: 'droppable', column: code, message: `Column ${code} has ${l.maxValue} classes; at most 65,534 fit a UInt16 layer.` });
          continue;
        }
        l.sampleType = l.maxValue <= 254 ? 'Byte' : 'UInt16';
        l.noData = l.sampleType === 'Byte' ? 255 : 65535;
      } else {
        l.sampleType = 'Float32';
        l.noData = -9999;
      }
    }
    // Records whose formula names a dropped column go too (repeat until stable).
    let changed = true;
    while (changed) {
      changed = false;
      for (const l of layers) {
        if (l.plan.dropped || l.plan.role !== 'indicator') continue;
        const gone = formulaColumns(l.plan.record?.aggFunR ?? '').filter((c) => dropped.has(c));
        if (gone.length) {
          dropCol(l, { kind: 'formula-column', severity: 'droppable', code: l.plan.code, field: 'aggFunR', message: `The formula of ${l.plan.code} names ${gone.join(', ')}, dropped above; the record is dropped.` });
          changed = true;
        }
      }
    }
    if (!opts.grid) grid = windowFromCells(grid, cellOf.subarray(0, nRows), countries.values());
    for (const f of found.summaries()) found.add(f);
    const validRows = Array.from(cellOf.subarray(0, nRows)).filter((c) => c >= 0).length;
    if (validRows === 0) found.add({ kind: 'no-rows', severity: 'fatal', message: `The table ${basename(opts.table)} has no valid row.` });
    if (found.has('fatal') || (!opts.dropInvalid && found.has('droppable'))) {
      closeSync(spillFd);
      spillFd = -1;
      await cleanup();
      return fail(found.list, out, nRows, t0);
    }

    // 3. Write the layers in column batches.
    const kept = layers.filter((l) => !l.plan.dropped);
    await mkdir(join(tmp, 'cog'), { recursive: true });
    await mkdir(join(tmp, 'classes'), { recursive: true });
    await mkdir(join(tmp, 'basemap'), { recursive: true });
    const files: Array<{ path: string; bytes: number; sha256: string }> = [];
    const addFile = async (rel: string, data: Uint8Array | string) => {
      const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      await writeFile(join(tmp, rel), buf);
      files.push({ path: rel, bytes: buf.length, sha256: createHash('sha256').update(buf).digest('hex') });
    };
    const padded = nBlocks * BLOCK_ROWS;
    const batch = Math.max(1, opts.columnBatch ?? Math.floor((160 * 1024 * 1024) / (4 * padded)));
    const cells = grid.width * grid.height;
    let done = 0;
    lastReport = 0;
    const inflight: Promise<void>[] = [];
    for (let k0 = 0; k0 < kept.length; k0 += batch) {
      throwIfAborted(signal);
      const group = kept.slice(k0, k0 + batch);
      // Read the spilled values of the group's layers (contiguous runs of layer indexes).
      const vals = new Map<Layer, Float32Array>();
      for (const l of group) vals.set(l, new Float32Array(padded));
      for (let bi = 0; bi < nBlocks; bi++) {
        let g = 0;
        while (g < group.length) {
          let h = g + 1;
          while (h < group.length && group[h].j === group[h - 1].j + 1) h++;
          const run = new Float32Array(BLOCK_ROWS * (h - g));
          readSync(spillFd, new Uint8Array(run.buffer), 0, run.byteLength, (bi * L + group[g].j) * BLOCK_ROWS * 4);
          for (let q = g; q < h; q++) vals.get(group[q])!.set(run.subarray((q - g) * BLOCK_ROWS, (q - g + 1) * BLOCK_ROWS), bi * BLOCK_ROWS);
          g = h;
        }
      }
      for (const l of group) {
        throwIfAborted(signal);
        const v = vals.get(l)!;
        vals.delete(l);
        const nd = l.noData!;
        const data = l.sampleType === 'Float32' ? new Float32Array(cells) : l.sampleType === 'UInt16' ? new Uint16Array(cells) : new Uint8Array(cells);
        data.fill(nd);
        const remap = l.classes?.remap;
        for (let i = 0; i < nRows; i++) {
          const c = cellOf[i];
          if (c < 0) continue;
          const x = v[i];
          if (x !== x) continue;
          data[c] = remap ? remap[x] : x;
        }
        // Admin outlines of the first- and second-level key layers (basemap/admin1.geojson, admin2.geojson).
        const level = l.plan.code === OUTLINE_KEY[1] ? 1 : l.plan.code === OUTLINE_KEY[2] ? 2 : 0;
        if (level && l.classes?.table.length) {
          const text = writeOutlines(grid, data, outlineUnits(l.classes.table, level), { noData: nd, description: outlineDescription(l.plan.code, basename(opts.table)), attribution: outlineAttribution(level, basename(opts.table)), signal });
          await addFile(OUTLINE_FILES[level], text);
        }
        // Tiles compress on zlib's thread pool while the next layer is prepared (both cores busy).
        const job = writeCogAsync(
          { width: grid.width, height: grid.height, data, sampleType: l.sampleType!, xmin: grid.xmin, ymax: grid.ymax, cellSize: grid.cellSizeDeg, noData: nd },
          deflateAsync,
        ).then(async (tif) => {
          await addFile(`cog/${l.plan.code}.tif`, tif);
          if (l.classes) await addFile(`classes/${l.plan.code}.csv`, classTableCsv(l.classes.table, l.classes.extras));
          done++;
          const now = Date.now();
          if (opts.onProgress && now - lastReport > 1000) {
            lastReport = now;
            opts.onProgress({ phase: 'write', rows: nRows, bytes: tableSize, totalBytes: tableSize, columnsDone: done, columnsTotal: kept.length, seconds: (now - t0) / 1000 });
          }
        });
        job.catch(() => undefined); // awaited below; this only keeps an early failure from being "unhandled"
        inflight.push(job);
        if (inflight.length >= WRITE_CONCURRENCY) await inflight.shift();
      }
    }
    await Promise.all(inflight);
    closeSync(spillFd);
    spillFd = -1;
    await rm(spillPath, { force: true });
    opts.onProgress?.({ phase: 'write', rows: nRows, bytes: tableSize, totalBytes: tableSize, columnsDone: done, columnsTotal: kept.length, seconds: (Date.now() - t0) / 1000 });

    // 4. Catalog, iso.csv, README, manifest.
    const fields = [...catFields];
    for (const f of VI_FIELDS) if (!fields.includes(f)) fields.push(f);
    const source = basename(opts.table);
    const today = new Date().toISOString().slice(0, 10);
    const outRecs: Record<string, string>[] = [];
    const keptByCode = new Map(kept.map((l) => [l.plan.code, l]));
    const finish = (rec: Record<string, string>, l: Layer) => {
      rec.dataType = l.sampleType!;
      rec.noData = String(l.noData);
      rec.classTable = l.classes ? `classes/${l.plan.code}.csv` : '';
      if (l.classes) rec.type = 'class';
      return rec;
    };
    for (const rec of records) {
      const l = keptByCode.get(rec.varCode);
      if (l && l.plan.record === rec) outRecs.push(finish({ ...rec }, l));
    }
    for (const l of kept) {
      if (l.plan.record) continue;
      const code = l.plan.code;
      if (l.plan.role === 'key') {
        const [label, item] = KEY_LABEL[code] ?? [code, code];
        outRecs.push(finish({
          varCode: code, varLabel: label, varTitle: label, varDesc: `Key column ${code} of the ingested table ${source}; one class per unit, identified by its whole key (country, admin-1, admin-2).`,
          unit: 'class', type: 'class', dec: '0', aggFunR: `dominant(${code})`, cat1: 'Administrative', cat2: 'Boundaries', cat3: item,
          sources: source, sourceMini: source, version: '', published: '', year: '', yearEnd: '',
        }, l));
      } else {
        const users = records.filter((x) => formulaColumns(x.aggFunR ?? '').includes(code)).map((x) => x.varCode);
        outRecs.push(finish({
          varCode: code, varLabel: `${code} (helper column)`, varTitle: `${code} (helper column)`,
          varDesc: `Helper column ${code} of the ingested table ${source}, without a catalog record; formulas of ${users.join(', ')} use it. Not listed by category().`,
          unit: '', type: 'continuous', dec: '2', aggFunR: `sum(${code}, na.rm=TRUE)`, cat1: 'Helper columns', cat2: '', cat3: '',
          sources: source, sourceMini: source, published: 'FALSE',
        }, l));
      }
    }
    // Country outlines and place names for the map (Natural Earth, keyed by ISO3; GeoNames places of the
    // 49 countries; independent of the table), when this package has them.
    for (const f of ['basemap/countries.geojson', 'basemap/places.csv']) {
      try {
        await addFile(f, await readFile(new URL(`../../../public/data/${f}`, import.meta.url)));
      } catch {
        // not shipped with this installation: the map draws without outlines / place search
      }
    }
    const viCsv = Papa.unparse({ fields, data: outRecs.map((rec) => fields.map((f) => rec[f] ?? '')) }, { newline: '\n' }) + '\n';
    await addFile('vi.csv', viCsv);
    await addFile('iso.csv', isoCsv(grid, countries));
    const droppedFindings = found.list.filter((f) => f.severity === 'droppable');
    await addFile('README.md', bundleReadme({ grid, fixed: !!opts.grid, source, catalog: basename(opts.catalog), today, rows: nRows, validRows, layers: kept.length, records: outRecs.length, dropped: droppedFindings, encoding: decoder.mode }));
    files.sort((a, b) => (a.path < b.path ? -1 : 1));
    const manifest = { name: 'indapi3-bundle', version: `${today.slice(0, 4)}.${today.slice(5, 7)}.1`, created: today, source: { table: source, catalog: basename(opts.catalog), ingested: new Date().toISOString() }, grid: { ...grid }, files };
    await writeFile(join(tmp, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    throwIfAborted(signal);

    // 5. Into place.
    if (await isNonEmptyDir(out)) {
      const old = `${tmp}.old`;
      await rename(out, old);
      await rename(tmp, out);
      await rm(old, { recursive: true, force: true });
    } else {
      await rm(out, { recursive: true, force: true });
      await rename(tmp, out);
    }
    return { ok: true, out, rows: nRows, layers: kept.map((l) => l.plan.code), findings: found.list, dropped: droppedFindings, seconds: (Date.now() - t0) / 1000 };
  } catch (e) {
    if (spillFd >= 0) closeSync(spillFd);
    await cleanup();
    if (e instanceof IndapiError) throw e;
    throw new IndapiError('IO', `Ingest failed: ${(e as Error).message}`);
  }
}

function keyOf(code: string, row: string[], iIso: number, iAdm0: number, iAdm1: number, iAdm2: number, iAdm1c: number, iAdm2c: number): string | null {
  const iso = row[iIso];
  switch (code) {
    case 'ISO3':
      return iso || null;
    case 'ADM0_NAME':
      return row[iAdm0] ? iso + KEY_SEP + row[iAdm0] : null;
    case 'ADM1_NAME_ALT':
      return row[iAdm1] ? iso + KEY_SEP + row[iAdm1] : null;
    case 'ADM2_NAME_ALT':
      return row[iAdm2] ? iso + KEY_SEP + row[iAdm1] + KEY_SEP + row[iAdm2] : null;
    case 'ADM1_CODE_ALT':
      return row[iAdm1c] ? iso + KEY_SEP + row[iAdm1c] : null;
    case 'ADM2_CODE_ALT':
      return row[iAdm2c] ? iso + KEY_SEP + row[iAdm2c] : null;
    default:
      return null;
  }
}

function keyExtra(code: string, row: string[], iAdm0: number, iAdm1: number, iAdm2: number, iAdm1c: number, iAdm2c: number): string | null {
  switch (code) {
    case 'ISO3':
      return row[iAdm0] ?? '';
    case 'ADM1_NAME_ALT':
      return iAdm1c >= 0 ? row[iAdm1c] : null;
    case 'ADM2_NAME_ALT':
      return iAdm2c >= 0 ? row[iAdm2c] : null;
    case 'ADM1_CODE_ALT':
      return row[iAdm1] ?? '';
    case 'ADM2_CODE_ALT':
      return (row[iAdm2] ?? '') + KEY_SEP + (row[iAdm1] ?? '');
    default:
      return null;
  }
}

function bundleReadme(o: { grid: GridDef; fixed: boolean; source: string; catalog: string; today: string; rows: number; validRows: number; layers: number; records: number; dropped: Finding[]; encoding: string }): string {
  const lines = [
    `# indapi3 data bundle (ingested)`,
    '',
    `Ingested on ${o.today} by \`npm run ingest\` (src/node/ingest) from the table \`${o.source}\` (${o.rows} rows, ${o.validRows} cells written, read as ${o.encoding === 'utf8' ? 'UTF-8' : 'Latin-1'}) and the catalog \`${o.catalog}\` (${o.records} records written).`,
    '',
    'The values are those of the input table; this bundle adds nothing. Layout as the embedded bundle (public/data/README.md):',
    '',
    `- \`cog/<code>.tif\`: one Cloud-Optimized GeoTIFF per layer on the 5-arc-minute grid (EPSG:4326, cell-registered, window ${gridText(o.grid)} degrees, ${o.grid.width} x ${o.grid.height} cells, global column offset ${o.grid.colOffset} and row offset ${o.grid.rowOffset} of CELL5M's 4320 x 2160 lattice; ${o.fixed ? 'a fixed window given to the ingest' : "the bounding box of the table's cells"}), 256 x 256 tiles, DEFLATE with predictor, internal overviews (average for continuous layers, mode for classes). Continuous: Float32, no-data -9999; classes: Byte (no-data 255) or UInt16 (no-data 65535).`,
    '- `classes/<code>.csv`: class tables `value,label,color` and extras. Text classes are numbered 1..n in sorted label order; numeric class codes keep their value. Key layers identify a unit by its whole key: ADM1 by (ISO3, ADM1 name), ADM2 by (ISO3, ADM1, ADM2).',
    '- `vi.csv`: every field of the input catalog, then the bundle fields (dataType, noData, classTable, ...). Helper columns named by formulas but without a record carry `published` FALSE and are not listed by category().',
    '- `iso.csv`: countries of the ISO3 column (names from ADM0_NAME), regions SSA, EAF, MAF, SAF, WAF limited to the countries present.',
    '- `basemap/admin1.geojson` (and `basemap/admin2.geojson` when the table has ADM2 units): one (Multi)Polygon per unit of ADM1_NAME_ALT (ADM2_NAME_ALT), the union of its cells traced along the cell edges (vertices on the 1/12-degree lattice, 6 decimals), properties `value` (the unit\'s raster value), `code` (when the table has codes), `name`, `iso3` (and `adm1`); `basemap/countries.geojson` and `basemap/places.csv`: Natural Earth country outlines and GeoNames places (CC BY 4.0) copied from this package.',
    '- `manifest.json`: grid, every file with size and sha256.',
    '',
    `## Dropped (${o.dropped.length})`,
    '',
    ...(o.dropped.length ? o.dropped.map((f) => `- ${f.kind}: ${f.message}`) : ['Nothing was dropped.']),
    '',
  ];
  return lines.join('\n');
}
