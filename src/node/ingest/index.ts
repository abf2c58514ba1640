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
import { closeSync, openSync } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { IndapiError, isIndapiError, throwIfAborted } from '../../core/errors';
import { GLOBAL_GRID, type GridDef } from '../../core/grid';
import { windowFromCells } from '../../core/ingest/window';
import { Findings, type Finding } from '../../core/ingest/findings';
import { DecimalTracker } from '../../core/ingest/decimals';
import { checkHeader, planColumns } from '../../core/ingest/plan';
import type { TableSource } from './table-source';
import type { Layer } from './layer';
import { ReadPass } from './read-pass';
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

/** One ingest run: its options, output, clock, findings and input names. */
interface Run {
  opts: IngestOptions;
  /** The bundle folder (absolute). */
  out: string;
  /** Start, ms since the epoch. */
  t0: number;
  found: Findings;
  /** The table's file name(s), for messages. */
  tableName: string;
  /** The table files' total size, bytes. */
  tableSize: number;
  signal?: AbortSignal;
  /** Reports progress (the run's bytes, size and seconds filled in). */
  progress(p: Pick<IngestProgress, 'phase' | 'rows' | 'columnsDone' | 'columnsTotal'> & { bytes?: number }): void;
}

/** The table, opened and planned against its catalog. */
interface Planned {
  table: TableSource;
  /** The catalog's records and field names. */
  catalog: { records: Record<string, string>[]; catFields: string[] };
  layers: Layer[];
  /** Key-layer extras per key layer code (filled by the read pass). */
  codeOf: Map<string, Map<string, string>>;
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
  const out = resolve(opts.out);
  if (!opts.force && (await isNonEmptyDir(out))) {
    throw new IndapiError('BAD_ARGUMENT', `The output folder ${out} is not empty; pass --force to replace it.`, { argument: 'out' });
  }
  const tables = await expandTablePaths(Array.isArray(opts.table) ? opts.table : [opts.table]);
  let tableSize = 0;
  try {
    for (const t of tables) tableSize += (await stat(t)).size;
    await stat(opts.catalog);
  } catch (e) {
    throw new IndapiError('IO', `Cannot read input: ${(e as Error).message}`);
  }
  const run: Run = {
    opts, out, t0, found: new Findings(), tableName: tables.map((t) => basename(t)).join(', '), tableSize, signal,
    progress: (p) => opts.onProgress?.({ bytes: tableSize, ...p, totalBytes: tableSize, seconds: (Date.now() - t0) / 1000 }),
  };
  const removed = await removeStaleTemps(out);
  if (removed.length) run.found.add({ kind: 'cleanup', severity: 'info', message: `Removed ${removed.length} leftover folder(s) of killed ingest runs: ${removed.map((r) => basename(r)).join(', ')}.` });
  const planned = await openAndPlan(run, tables);
  if ('ok' in planned) return planned;
  return spillAndWrite(run, planned);
}

/**
 * Step 1: the table's header (before any row; an .rds is spilled column by column first, its
 * names come last), then the catalog, planned against it; the layers the read pass fills.
 * @returns the plan, or a failed result (the table closed) on fatal findings
 */
async function openAndPlan(run: Run, tables: string[]): Promise<Planned | IngestResult> {
  const { opts, out, t0, found } = run;
  let table: TableSource;
  try {
    table = await openTables(tables, {
      spillParent: dirname(out), signal: run.signal,
      onProgress: (bytes) => run.progress({ phase: 'read', rows: 0, bytes, columnsDone: 0, columnsTotal: 0 }),
    }, (f) => found.addRow(f));
  } catch (e) {
    if (!isIndapiError(e) || e.code !== 'UNPARSABLE') throw e;
    return fail([{ kind: 'unreadable', severity: 'fatal', message: e.message }], out, 0, t0);
  }
  const hf = checkHeader(table.header);
  const cat = hf.length ? null : await readCatalog(opts.catalog, found);
  const planned = cat ? planColumns(table.header, cat.records) : null;
  for (const f of planned?.findings ?? []) found.add(f);
  if (!cat || !planned || found.has('fatal') || (!opts.dropInvalid && found.has('droppable'))) {
    await table.close();
    return fail(hf.length ? hf : found.list, out, 0, t0);
  }
  const layers: Layer[] = planned.columns
    .filter((p) => p.role === 'key' || p.role === 'indicator' || p.role === 'helper')
    .map((plan, j) => ({ plan, j, numN: 0, textN: 0, firstText: 0, firstNum: 0, firstBad: 0, maxValue: 0 }));
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
  return { table, catalog: cat, layers, codeOf };
}

/**
 * Steps 2 to 5 in a temporary folder next to `out`: the read pass into a spill file, the
 * column decisions, the layers, the bundle files, then the folder into place. A failure or an
 * abort removes the folder.
 * @returns the result (failed, with the findings, when the rows were not fit to write)
 */
async function spillAndWrite(run: Run, p: Planned): Promise<IngestResult> {
  const { opts, out, t0, found, tableName, signal } = run;
  const { table, layers } = p;
  // cells are checked on the fixed window, else on the global lattice; the window from the data is cut after the read pass
  let grid = opts.grid ?? GLOBAL_GRID;
  const tmp = join(dirname(out), `.${basename(out)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(tmp, { recursive: true });
  const cleanup = () => rm(tmp, { recursive: true, force: true });
  const spillPath = join(tmp, '.spill');
  let spillFd = -1;
  try {
    spillFd = openSync(spillPath, 'w+');
    const throttle = { last: 0 };
    const pass = new ReadPass({
      table, header: table.header, layers, codeOf: p.codeOf, grid, found, tableName, spillFd, signal,
      onRows: opts.onProgress && ((rows) => throttled(throttle, () => run.progress({ phase: 'read', rows, bytes: table.bytesRead(), columnsDone: 0, columnsTotal: layers.length }))),
    });
    try {
      await pass.run();
    } catch (e) {
      throwIfAborted(signal);
      await table.close();
      const finding = readFailure(e, table, tableName, pass.rows);
      found.add(finding);
      await cleanup();
      return fail(found.list, out, pass.rows, t0);
    }
    await table.close();
    throwIfAborted(signal);
    pass.flushLast();
    const nRows = pass.rows;
    const decoder = table.encoding();
    if (decoder.mode === 'latin1') {
      found.add({ kind: 'encoding', severity: 'info', message: `The table ${tableName} is not valid UTF-8 (from byte ${decoder.switchedAt}); it was read as Latin-1.` });
    }
    run.progress({ phase: 'read', rows: nRows, columnsDone: 0, columnsTotal: layers.length });

    // Column decisions (./columns-decide.ts).
    decideColumns(layers, p.codeOf, found);
    for (const f of found.summaries()) found.add(f);
    const cellOf = pass.cellOf.subarray(0, nRows);
    if (!opts.grid) grid = windowFromCells(grid, cellOf, pass.countries.values());
    const validRows = cellOf.reduce((n, c) => (c >= 0 ? n + 1 : n), 0);
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
    const addFile = fileAdder(tmp, files);
    const done = await writeLayers({
      kept, layerCount: layers.length, nBlocks: pass.nBlocks, spillFd, cellOf: pass.cellOf, rows: nRows, grid, addFile, columnBatch: opts.columnBatch, source: tableName, signal,
      onLayer: opts.onProgress && ((n) => throttled(throttle, () => run.progress({ phase: 'write', rows: nRows, columnsDone: n, columnsTotal: kept.length }))),
    });
    closeSync(spillFd);
    spillFd = -1;
    await rm(spillPath, { force: true });
    run.progress({ phase: 'write', rows: nRows, columnsDone: done, columnsTotal: kept.length });

    // 4. Catalog, iso.csv, README, manifest (./bundle-files.ts).
    const { catFields, records } = p.catalog;
    const droppedFindings = await writeBundleFiles({ catFields, records, kept, source: tableName, catalog: basename(opts.catalog), rows: nRows, validRows, found, encoding: decoder.mode, grid, fixedWindow: !!opts.grid, countries: pass.countries, addFile, files, tmp });
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

/** Runs `f` when a second has passed since the last run. */
function throttled(t: { last: number }, f: () => void): void {
  const now = Date.now();
  if (now - t.last <= 1000) return;
  t.last = now;
  f();
}

/**
 * The fatal finding of a read pass that threw: mixed encodings, an unreadable table.
 * @throws IndapiError IO for any other failure
 */
function readFailure(e: unknown, table: TableSource, tableName: string, rows: number): Finding {
  if (table.decodeError()) return { kind: 'encoding', severity: 'fatal', message: `The table ${tableName} mixes encodings (${table.decodeError()}).` };
  if (isIndapiError(e) && e.code === 'UNPARSABLE') return { kind: 'unreadable', severity: 'fatal', row: rows, message: e.message };
  throw new IndapiError('IO', `Cannot read the table ${tableName}: ${(e as Error).message}`);
}

/** Writes a file into the temporary folder and lists it with its size and SHA-256. */
function fileAdder(tmp: string, files: Array<{ path: string; bytes: number; sha256: string }>): (rel: string, data: Uint8Array | string) => Promise<void> {
  return async (rel, data) => {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    await writeFile(join(tmp, rel), buf);
    files.push({ path: rel, bytes: buf.length, sha256: createHash('sha256').update(buf).digest('hex') });
  };
}
