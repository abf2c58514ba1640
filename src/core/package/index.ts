/**
 * Building a download package, the one use case behind every download: the contract's file
 * formats (`indapi`, `genFile`, `catchment` with `format`, src/contract) and the app's
 * Download panel (workers/files.worker.ts) call {@link buildPackage}, so the browser and the
 * API build packages by the same code. It resolves the format in the registry
 * (src/core/formats/registry.ts; 400 for an unknown one, before any work), runs the query
 * the format's input needs (summary table, per-cell result, the method's own result) and
 * writes the files.
 */
import type { CallOptions, CellResult, Engine, GeneratedFile, Graphic, GetLayerWktArgs, TableResult } from '../api';
import { IndapiError, throwIfAborted } from '../errors';
import { genFile as coreGenFile, resolveFormat, type FormatSpec, type GenFileInput, type GenFileResult } from '../formats';
import { resolveCatchmentFormat } from '../catchment/formats';
import { travelTimeCells } from '../catchment/files';
import { catchmentArgs } from '../catchment/query';
import { layerArgs } from './layer-args';

export { layerArgs };

/** The writers of a realm: the core's `genFile`, or a wrapper adding the bundle version (src/node, workers/sw.ts). */
export type PackageWriter = (input: GenFileInput, opts?: CallOptions) => Promise<GenFileResult>;

/** A package to build. */
export interface PackageCall {
  /** The contract method: `indapi`, `genFile`, `getLayer`, `getLayerWKT` (a query by area or `wkt`), `similar` or `catchment`. */
  method: string;
  /** The request's arguments as the contract names them (var, iso3, by, wkt, exact, ids, collapse, as.list, dig.lab, pal; x; xy, minutes, friction). */
  args: Record<string, unknown>;
  /** The requested format (any spelling the registry accepts). */
  format: string;
  /** The URL the request is sent to, for the README. */
  requestUrl?: string;
  /** Creation time (default now). */
  now?: Date;
  /** Bundle version, written as the package version. */
  version?: string;
  /** What the writers also get (basemap, rasterize, ...). */
  extra?: Partial<GenFileInput>;
  /** The realm's writers (default the core's `genFile`). */
  write?: PackageWriter;
  /**
   * A summary table computed already (the app's job over an uploaded file's polygons, method
   * `classify`): written as is, no query runs; only formats whose input is a table.
   */
  table?: TableResult;
}

/** A built package. */
export interface PackageResult {
  /** The method's value: the names of the files, or (plot, hist) the summary table drawn. */
  value: unknown;
  /** The files, in listing order. */
  files: GeneratedFile[];
  /** Graphics (plot, hist). */
  graphics: Graphic[];
  /** Name of the package's ZIP. */
  zipName: string;
}

/** What the writers are given: the format's spec, the method named in file names and the results. */
interface Inputs {
  spec: FormatSpec;
  method: string;
  args: Record<string, unknown>;
  table?: TableResult;
  cells?: CellResult;
  source?: unknown;
  /** Area part of file names (see GenFileInput.nameArea). */
  nameArea?: string[];
}

/** Query progress (0..1) to the call's percent (query 2..66, writing 66..100). */
function stepper(onProgress?: (done: number, total: number) => void) {
  return (p: number) => onProgress?.(Math.round(p), 100);
}

/** A query by area, by `ids` or over `wkt`: the table, the cells, or both, as the format needs. */
async function layerInputs(engine: Engine, call: PackageCall, opts: CallOptions): Promise<Inputs> {
  const spec = resolveFormat(call.format);
  const a = call.args;
  const needCells = spec.input.includes('cells');
  const needTable = !needCells || spec.input.includes('table');
  const wkt = a.wkt as string | undefined;
  const ga = layerArgs(a);
  const wktArgs: GetLayerWktArgs | undefined = wkt ? { ...layerArgs(a, true), wkt } : undefined;
  const q = wktArgs ?? ga;
  const [table, cells] = await Promise.all([
    needTable ? (wktArgs ? engine.getLayerWKT(wktArgs, opts) : engine.getLayerTable(ga, opts)) : undefined,
    needCells ? engine.getLayerCells(spec.cellArgs ? spec.cellArgs(q) : q, opts) : undefined,
  ]);
  return { spec, method: wkt ? 'getLayerWKT' : 'getLayer', args: a, table, cells };
}

/** A ranking by similarity: table formats only. */
async function similarInputs(engine: Engine, call: PackageCall, opts: CallOptions): Promise<Inputs> {
  const spec = resolveFormat(call.format);
  if (spec.input !== 'table') throw new IndapiError('BAD_FORMAT', `The ${spec.name} format needs a map query; for a comparison use csv, dta or rds.`, { format: call.format, arg: 'format' });
  const a = call.args;
  const table = await engine.similar({ x: a.x as string | number, var: a.var as string[], by: a.by as number | undefined, iso3: a.iso3 as string[] | undefined, year: a.year === null ? undefined : a.year as number[] | undefined }, opts);
  return { spec, method: 'similar', args: a, table };
}

/** A table computed already: table formats only. @throws IndapiError BAD_FORMAT for the others */
function givenTable(call: PackageCall, table: TableResult): Inputs {
  const spec = resolveFormat(call.format);
  if (spec.input !== 'table') throw new IndapiError('BAD_FORMAT', `The ${spec.name} format needs a map query; for these results use csv, dta, rds, rda or gpkg.`, { format: call.format, arg: 'format' });
  return { spec, method: call.method, args: call.args, table };
}

/** A catchment: the band table, the travel-time raster or the result itself. */
async function catchmentInputs(engine: Engine, call: PackageCall, opts: CallOptions): Promise<Inputs> {
  const spec = resolveCatchmentFormat(call.format);
  if (!engine.catchment) throw new IndapiError('BAD_ARGUMENT', 'Catchments are not available on this server.');
  const r = await engine.catchment(catchmentArgs(call.args), opts);
  // file names and the README's call: the request as sent, without format
  const args = Object.fromEntries(Object.entries(call.args).filter(([k, v]) => k !== 'format' && v !== undefined));
  const nameArea = [r.friction.varCode, ...(r.marketshed ? ['marketshed'] : [])];
  return { spec, method: 'catchment', args, table: r.table, cells: spec.input.includes('cells') ? travelTimeCells(r) : undefined, source: r, nameArea };
}

/**
 * Builds the package of a call: resolves the format (for the method's list of formats), runs
 * the query its input needs and writes the files.
 * @param engine the engine of the realm
 * @param call method, arguments (contract names), format, request URL, writers
 * @param opts abort signal; progress in percent (query then writing)
 * @returns the method's value, the files, graphics and the ZIP name
 * @throws IndapiError BAD_FORMAT for a format the method does not write (before any query);
 *   the query's errors (BAD_ARGUMENT, UNKNOWN_CODE, ...); the writers' (EMPTY_SELECTION, TOO_LARGE); ABORTED
 */
export async function buildPackage(engine: Engine, call: PackageCall, opts: CallOptions = {}): Promise<PackageResult> {
  const { signal } = opts;
  const step = stepper(opts.onProgress);
  step(2);
  const qOpts: CallOptions = { signal, onProgress: (d, t) => step(2 + (t ? (d / t) * 64 : 0)) };
  const inputs = call.table ? givenTable(call, call.table)
    : call.method === 'catchment' ? await catchmentInputs(engine, call, qOpts)
    : call.method === 'similar' ? await similarInputs(engine, call, qOpts)
      : await layerInputs(engine, call, qOpts);
  throwIfAborted(signal);
  step(66);
  const { spec, table, cells } = inputs;
  const write = call.write ?? coreGenFile;
  const out = await write(
    {
      ...call.extra,
      nameArea: inputs.nameArea,
      format: call.format, formats: [spec], method: inputs.method, args: inputs.args, table, cells, source: inputs.source,
      meta: spec.input === 'cells' ? (cells?.meta ?? []) : ((table ?? cells)?.meta ?? []),
      requestUrl: call.requestUrl, now: call.now, version: call.version,
    },
    { signal, onProgress: (d, t) => step(66 + (t ? (d / t) * 34 : 0)) },
  );
  step(100);
  const value = spec.input === 'table+cells' && table ? table.rows : out.files.map((f) => f.name);
  return { value, files: out.files, graphics: out.graphics, zipName: out.zipName };
}
