/**
 * The kinds of download package: for each kind of query (the main query by area or over
 * `wkt`, a ranking by similarity, a catchment, a table computed already) the formats it
 * writes and how the writers' inputs are obtained from the method's typed value, or from the
 * result on screen when the caller has it (no query runs again then). A contract method's
 * spec names its kind (`package` of src/contract/methods/types.ts): the API, the app's
 * Download panel (the formats it offers) and the files worker all read it from there, so no
 * code here switches on method names. Light: the writers and the catchment's files load on
 * first use (src/core/package/index.ts `buildPackage` runs a kind).
 */
import type { CallOptions, CatchmentCallArgs, CellResult, Engine, GetLayerArgs, GetLayerWktArgs, IndapiArgs, SimilarArgs, TableResult } from '../api';
import type { CatchmentResult } from '../api/catchment';
import { IndapiError } from '../errors';
import { FORMATS, resolveFormat, type FormatSpec } from '../formats/registry';
import { CATCHMENT_FORMATS, resolveCatchmentFormat } from '../catchment/formats';

/** What the writers are given: the format's entry, the method named in file names and the results. */
export interface PackageInputs {
  /** The format's registry entry. */
  spec: FormatSpec;
  /** The method named in file names and in the README (`getLayer`, `getLayerWKT`, `similar`, `catchment`, `classify`). */
  method: string;
  /** The request's arguments (R names, as sent) the README and datapackage.json reproduce. */
  args: Record<string, unknown>;
  table?: TableResult;
  cells?: CellResult;
  /** The method's own result (a catchment), for formats whose input is `source`. */
  source?: unknown;
  /** Area part of file names (see GenFileInput.nameArea). */
  nameArea?: string[];
}

/** What a kind gets besides the typed value: the format's entry, the request as sent and the result on screen. */
export interface KindCall<R> {
  /** The format's entry, from {@link PackageKind.resolve}. */
  spec: FormatSpec;
  /** The request's arguments as sent (R names): what the README reproduces. */
  request: Record<string, unknown>;
  /** The result of the same query computed already (the engine worker's, on screen): used instead of running it. */
  result?: R;
}

/**
 * A kind of package. `Q` is the method's typed value (src/core/api types), `R` the result of
 * its query that a caller may hand in instead of running it again.
 */
export interface PackageKind<Q, R = unknown> {
  /** The formats written, in the Download panel's order (entries of the format registry). */
  readonly formats: readonly FormatSpec[];
  /**
   * The format's entry (any spelling the registry accepts).
   * @throws IndapiError BAD_FORMAT (naming `format`) for a format this kind does not write, before any work
   */
  resolve(format: unknown): FormatSpec;
  /**
   * The writers' inputs: the result handed in, else the query the format needs, run on `engine`.
   * @throws IndapiError as the engine's query (BAD_ARGUMENT, UNKNOWN_CODE, ABORTED, ...)
   */
  inputs(engine: Engine, q: Q, call: KindCall<R>, opts: CallOptions): Promise<PackageInputs>;
}

/** The file formats of the registry (every one but the table itself). */
const FILE_FORMATS: readonly FormatSpec[] = FORMATS.filter((f) => f.input !== 'none');
/** The table formats (csv, dta, rds, rda, gpkg). */
const TABLE_FORMATS: readonly FormatSpec[] = FORMATS.filter((f) => f.input === 'table');

/** A resolver of the table formats only, with `hint` saying which to use. @throws IndapiError BAD_FORMAT */
function tableOnly(hint: string): (format: unknown) => FormatSpec {
  return (format) => {
    const spec = resolveFormat(format);
    if (spec.input !== 'table') throw new IndapiError('BAD_FORMAT', `The ${spec.name} format needs a map query; ${hint}.`, { format: String(format), arg: 'format' });
    return spec;
  };
}

/** The main query's engine arguments of a typed `indapi` / `genFile` value: by area, and over `wkt` when given. */
function layerQueries(q: IndapiArgs): { byArea: GetLayerArgs; wkt?: GetLayerWktArgs } {
  const { format: _f, pal: _p, dir: _d, ...shapes } = q;
  const { wkt, exact: _e, totals: _t, ...byArea } = shapes as GetLayerWktArgs;
  return { byArea, wkt: wkt ? { ...(shapes as GetLayerWktArgs), wkt } : undefined };
}

/**
 * The main query (`indapi`, `genFile`; the app's Summary, Table and Areas): by area, by `ids`
 * or over `wkt`; every file format. A summary table handed in is written as is; the formats
 * that map cells (tif, asc, grd, json, plot, hist) still read them.
 */
export const LAYER_PACKAGE: PackageKind<IndapiArgs, TableResult> = {
  formats: FILE_FORMATS,
  resolve: (format) => resolveFormat(format),
  async inputs(engine, q, { spec, request, result }, opts) {
    const needCells = spec.input.includes('cells');
    const needTable = !needCells || spec.input.includes('table');
    const { byArea, wkt } = layerQueries(q);
    const cq = wkt ?? byArea;
    const [table, cells] = await Promise.all([
      !needTable ? undefined : result ?? (wkt ? engine.getLayerWKT(wkt, opts) : engine.getLayerTable(byArea, opts)),
      needCells ? engine.getLayerCells(spec.cellArgs ? spec.cellArgs(cq) : cq, opts) : undefined,
    ]);
    return { spec, method: wkt ? 'getLayerWKT' : 'getLayer', args: request, table, cells };
  },
};

/** A ranking by similarity (`similar`, the app's Compare): table formats only. */
export const SIMILAR_PACKAGE: PackageKind<SimilarArgs, TableResult> = {
  formats: TABLE_FORMATS,
  resolve: tableOnly('for a comparison use csv, dta or rds'),
  async inputs(engine, q, { spec, request, result }, opts) {
    const { year, ...rest } = q as SimilarArgs & { year?: number[] | null };
    const table = result ?? await engine.similar(year === null || year === undefined ? rest : { ...rest, year }, opts);
    return { spec, method: 'similar', args: request, table };
  },
};

/**
 * A catchment (`catchment`, the app's Catchment panel): the band table, the travel-time raster
 * or the GeoJSON bands. A result handed in is written as is: no Dijkstra runs again.
 */
export const CATCHMENT_PACKAGE: PackageKind<CatchmentCallArgs, CatchmentResult> = {
  formats: CATCHMENT_FORMATS,
  resolve: resolveCatchmentFormat,
  async inputs(engine, q, { spec, request, result }, opts) {
    const { format: _f, ...query } = q;
    if (!result && !engine.catchment) throw new IndapiError('BAD_ARGUMENT', 'Catchments are not available on this server.');
    const r = result ?? await engine.catchment!(query, opts);
    // file names and the README's call: the request as sent, without format
    const args = Object.fromEntries(Object.entries(request).filter(([k, v]) => k !== 'format' && v !== undefined));
    const nameArea = [r.friction.varCode, ...(r.marketshed ? ['marketshed'] : [])];
    const cells = spec.input.includes('cells') ? (await import('../catchment/files')).travelTimeCells(r) : undefined;
    return { spec, method: 'catchment', args, table: r.table, cells, source: r, nameArea };
  },
};

/**
 * A table computed already, named `method` in file names (`classify`: the app's job over an
 * uploaded file's polygons): table formats only; the table must be handed in.
 */
export function tablePackage(method: string): PackageKind<unknown, TableResult> {
  return {
    formats: TABLE_FORMATS,
    resolve: tableOnly('for these results use csv, dta, rds, rda or gpkg'),
    inputs(_engine, _q, { spec, request, result }) {
      if (!result) return Promise.reject(new IndapiError('BAD_FORMAT', `${method} results are saved from the table computed already; this server writes no files for ${method}.`, { arg: 'format' }));
      return Promise.resolve({ spec, method, args: request, table: result });
    },
  };
}
