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
 *    inside each block (Float64, the values as read; text classes as dictionary ids).
 * 3. When nothing fatal was found (or --drop-invalid), the layers are written in column
 *    batches: each batch reads its contiguous slice of every block back, builds the grid
 *    arrays and writes COGs (src/core/formats/cog.ts, native zlib). Continuous columns are
 *    stored exactly (src/core/ingest/decimals.ts): integers value x 10^k (Int16/Int32, GDAL
 *    scale 10^-k) when every value has at most k <= 9 decimals, else Float32/Float64.
 * 4. The ADM1/ADM2 name key layers are also traced into admin outlines (basemap/admin1.geojson,
 *    basemap/admin2.geojson; src/core/formats/outlines.ts) from their grid, already in memory.
 * 5. Everything is written into a temporary folder next to `out`, renamed into place at the
 *    end; a failed or aborted run removes it.
 *
 * Files: ./catalog-read.ts (catalog), ./joined-source.ts (several tables joined on CELL5M),
 * ./layer.ts (layer counters, spill block size), ./columns-decide.ts (column decisions),
 * ./layers-write.ts (step 3), ./bundle-files.ts (step 4), ./housekeeping.ts (leftovers of
 * killed runs, step 5).
 *
 * Memory: block buffer (BLOCK_ROWS x layers x 8 bytes, 49 MB for 750 layers) plus one column
 * batch (rows x batch x 8 bytes, about 160 MB) plus dictionaries; peak well under 1.5 GB at
 * 303,000 x 750. The spill file is rows x layers x 8 bytes (1.8 GB at 303,000 x 750).
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { IndapiError, isIndapiError, throwIfAborted } from '../../core/errors';
import { GLOBAL_GRID, type GridDef } from '../../core/grid';
import { windowFromCells } from '../../core/ingest/window';
import { KEY_SEP, numericClasses, type CountryCells } from '../../core/ingest/classes';
import { Findings, type Finding } from '../../core/ingest/findings';
import { DecimalTracker } from '../../core/ingest/decimals';
import { checkCell, checkHeader, firstControlChar, planColumns } from '../../core/ingest/plan';
import type { TableSource } from './table-source';
import { BLOCK_ROWS, layerValue, type Layer } from './layer';
import { decideColumns } from './columns-decide';
import { writeLayers } from './layers-write';
import { writeBundleFiles } from './bundle-files';
import { expandTablePaths, openTables } from './joined-source';
import { moveIntoPlace, removeStaleTemps } from './housekeeping';
import { readCatalog } from './catalog-read';

export { BLOCK_ROWS } from './layer';

export type { Finding } from '../../core/ingest/findings';


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
  /**
   * Table path(s): CSV or TSV (delimiter taken from the header line), Stata .dta or R .rds
   * (format from the first bytes). Several paths, or a folder, are joined on CELL5M
   * (./joined-source.ts).
   */
  table: string | string[];
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
  const tables = await expandTablePaths(Array.isArray(opts.table) ? opts.table : [opts.table]);
  const tableName = tables.map((t) => basename(t)).join(', ');
  let tableSize = 0;
  try {
    for (const t of tables) tableSize += (await stat(t)).size;
    await stat(opts.catalog);
  } catch (e) {
    throw new IndapiError('IO', `Cannot read input: ${(e as Error).message}`);
  }
  const found = new Findings();
  const removed = await removeStaleTemps(out);
  if (removed.length) found.add({ kind: 'cleanup', severity: 'info', message: `Removed ${removed.length} leftover folder(s) of killed ingest runs: ${removed.map((r) => basename(r)).join(', ')}.` });

  // 1. Header (before any row; an .rds is spilled column by column first, its names come last), then the catalog.
  let table: TableSource;
  try {
    table = await openTables(tables, {
      spillParent: dirname(out), signal,
      onProgress: (bytes) => opts.onProgress?.({ phase: 'read', rows: 0, bytes, totalBytes: tableSize, columnsDone: 0, columnsTotal: 0, seconds: (Date.now() - t0) / 1000 }),
    }, (f) => found.addRow(f));
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

  const cat = await readCatalog(opts.catalog, found);
  if (!cat) {
    await table.close();
    return fail(found.list, out, 0, t0);
  }
  const { records, catFields } = cat;
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
    if (!l.dict && !l.present) l.dec = new DecimalTracker();
  }

  // 2. Read pass into a spill file inside the temporary folder.
  const tmp = join(dirname(out), `.${basename(out)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(tmp, { recursive: true });
  const cleanup = () => rm(tmp, { recursive: true, force: true });
  const spillPath = join(tmp, '.spill');
  let spillFd = -1;
  try {
    spillFd = openSync(spillPath, 'w+');
    const block = new Float64Array(BLOCK_ROWS * L);
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
    const checkText = (text: string | undefined, rn: number, column: string) => {
      const at = text ? firstControlChar(text) : -1;
      if (at < 0) return;
      const code = text!.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0');
      found.addRow({ kind: 'control-character', severity: 'fatal', file: tableName, row: rn, column, message: `The table ${tableName}, row ${rn}, column ${column}: the text holds the control character U+${code} at character ${at + 1}; remove it from the table.` });
    };
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
        for (const i of textColumns) checkText(row[i], rn, header[i]);
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
          } else {
            const known = l.keys?.length;
            x = layerValue(l, v, rn);
            if (known !== l.keys?.length) checkText(l.keys![l.keys!.length - 1], rn, header[l.plan.index]); // a new class text
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
        found.add({ kind: 'encoding', severity: 'fatal', message: `The table ${tableName} mixes encodings (${table.decodeError()}).` });
        await cleanup();
        return fail(found.list, out, r, t0);
      }
      if (isIndapiError(e) && e.code === 'UNPARSABLE') {
        found.add({ kind: 'unreadable', severity: 'fatal', row: r, message: e.message });
        await cleanup();
        return fail(found.list, out, r, t0);
      }
      throw new IndapiError('IO', `Cannot read the table ${tableName}: ${(e as Error).message}`);
    }
    await table.close();
    throwIfAborted(signal);
    if (r % BLOCK_ROWS !== 0) flush();
    const nRows = r;
    const decoder = table.encoding();
    if (decoder.mode === 'latin1') {
      found.add({ kind: 'encoding', severity: 'info', message: `The table ${tableName} is not valid UTF-8 (from byte ${decoder.switchedAt}); it was read as Latin-1.` });
    }
    opts.onProgress?.({ phase: 'read', rows: nRows, bytes: tableSize, totalBytes: tableSize, columnsDone: 0, columnsTotal: L, seconds: (Date.now() - t0) / 1000 });

    // Column decisions (./columns-decide.ts).
    decideColumns(layers, codeOf, found);
    for (const f of found.summaries()) found.add(f);
    if (!opts.grid) grid = windowFromCells(grid, cellOf.subarray(0, nRows), countries.values());
    const validRows = Array.from(cellOf.subarray(0, nRows)).filter((c) => c >= 0).length;
    if (validRows === 0) found.add({ kind: 'no-rows', severity: 'fatal', message: `The table ${tableName} has no valid row.` });
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
    const done = await writeLayers({
      kept, layerCount: L, nBlocks, spillFd, cellOf, rows: nRows, grid, addFile, columnBatch: opts.columnBatch, source: tableName, signal,
      onLayer: opts.onProgress && ((n) => {
        const now = Date.now();
        if (now - lastReport <= 1000) return;
        lastReport = now;
        opts.onProgress!({ phase: 'write', rows: nRows, bytes: tableSize, totalBytes: tableSize, columnsDone: n, columnsTotal: kept.length, seconds: (now - t0) / 1000 });
      }),
    });
    closeSync(spillFd);
    spillFd = -1;
    await rm(spillPath, { force: true });
    opts.onProgress?.({ phase: 'write', rows: nRows, bytes: tableSize, totalBytes: tableSize, columnsDone: done, columnsTotal: kept.length, seconds: (Date.now() - t0) / 1000 });

    // 4. Catalog, iso.csv, README, manifest (./bundle-files.ts).
    const droppedFindings = await writeBundleFiles({ catFields, records, kept, source: tableName, catalog: basename(opts.catalog), rows: nRows, validRows, found, encoding: decoder.mode, grid, fixedWindow: !!opts.grid, countries, addFile, files, tmp });
    throwIfAborted(signal);

    // 5. Into place.
    await moveIntoPlace(tmp, out);
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
