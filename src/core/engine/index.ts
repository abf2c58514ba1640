/**
 * The query engine: every data method of the service (catalog, category, describe, the main
 * query, WKT areas, classify, similar) over the bundle's COGs, pure over injected I/O.
 *
 * Create one with {@link createEngine}; it works unchanged in Web Workers, service workers,
 * Node and tests. This module is the wiring; the seams are modules of their own:
 * `context.ts` (catalog, grid, layer reads), `select.ts` (cells of a query), `compute.ts`
 * (reading and accumulating), `rows.ts` (rows and columns), `cells.ts` (per-cell layers),
 * `domains.ts` (WKT features and classify domains), `similar.ts`; `plan.ts` (arguments),
 * `accumulate.ts` (aggregation semantics) and `../wkt/raster.ts` (geometry selection).
 */
import type { CallOptions, CategoryRow, ColumnInfo, Engine, GetLayerWktArgs, TableResult } from '../api';
import { Catalog, describeRecord } from '../catalog';
import { CogStore } from '../cog/store';
import type { Inflate } from '../cog/tiff';
import { IndapiError, throwIfAborted } from '../errors';
import type { GridDef } from '../grid';
import type { SourceFactory, TextLoader } from '../io/source';
import type { PixelWindow } from '../cog/store';
import type { GetLayerArgs, Row, VarRecord } from '../types';
import { geometryCells } from '../wkt/raster';
import { parseWkt } from '../wkt/parse';
import { runCatchment } from '../catchment/query';
import { cellResult } from './cells';
import { compute, type Computed } from './compute';
import { loadContext, type Ctx } from './context';
import { features, gridText, parseDomains, summariseDomains, type Domain } from './domains';
import { asList, byCodesOf } from '../args';
import { checkStats, digLabOf, planBy, planVars, type BySpec, type VarSpec } from './plan';
import { cellRows, columns, metaOf, tableRows, valueFields, withCells } from './rows';
import { select, selectionUsed, unweighted, type Selection } from './select';
import { similar } from './similar';

export { aggFormulaText, parseAggFun, simpleAggregate } from './expr';
export { cutLabels, formatG, labelDigits, roundR } from './labels';
export { DEFAULT_DIG_LAB, digLabOf, STAT_NAMES } from './plan';
export { MAX_IDS } from './select';
export { parseDomains } from './domains';

/** Options of {@link createEngine}. */
export interface EngineOptions {
  /** Opens COGs relative to the bundle root. */
  source: SourceFactory;
  /** Reads text files (vi.csv, iso.csv, classes/*.csv, manifest.json) relative to the bundle root. */
  text: TextLoader;
  /** Block cache bound in bytes (decoded samples); default 256 MB. */
  cacheBytes?: number;
  /** zlib decompressor for DEFLATE tiles; default fflate. */
  inflate?: Inflate;
  /** Date written as DownloadedOn in describe records (ISO 8601); default today. */
  today?: () => string;
}

/** Arguments of {@link IndapiEngine.summariseGroups}. */
export interface GroupSummaryArgs {
  /** Indicator codes, summarised with their catalog formulas. */
  var: string[];
  /** Pixel window of the bundle grid [col0, row0, col1, row1). */
  win: PixelWindow;
  /** Group per window cell (row-major), 0 .. groups - 1, or -1 for none. */
  group: Int32Array;
  /** Number of groups. */
  groups: number;
}

/** The engine with its internals exposed for adapters, tests and the benchmark. */
export interface IndapiEngine extends Engine {
  /**
   * Summaries of `var` over caller-defined groups of cells, all groups in one pass over the
   * window (the catchment's bands x sources): per group the value fields as the main query
   * writes them (`{}` for a group without cells), the value columns and the records. Cells
   * without an ISO3 value are left out, as `getLayer(ids = ...)` leaves them out.
   * @throws IndapiError UNKNOWN_CODE, TOO_LARGE over 16,000,000 groups, IO, ABORTED
   */
  summariseGroups(args: GroupSummaryArgs, opts?: CallOptions): Promise<{ rows: Row[]; columns: ColumnInfo[]; meta: VarRecord[] }>;
  /** The COG window store (cache statistics, clearing). */
  readonly store: CogStore;
  /** The bundle grid (from manifest.json, else SSA_GRID). */
  grid(opts?: CallOptions): Promise<GridDef>;
  /** The loaded catalog. */
  loadCatalog(opts?: CallOptions): Promise<Catalog>;
}

/** A query's plan: the context, its variables and its by dimensions (`by` parsed here, once). */
interface Prepared { c: Ctx; varSpecs: VarSpec[]; bys: BySpec[] }

/** The main query as a table, with what it computed. */
type TableOut = TableResult & { computed: Computed; ctx: Ctx };

/**
 * Creates an engine over a bundle.
 * @param opts injected I/O and cache size
 */
export function createEngine(opts: EngineOptions): IndapiEngine {
  const store = new CogStore({ source: opts.source, inflate: opts.inflate, cacheBytes: opts.cacheBytes });
  const today = opts.today ?? (() => new Date().toISOString().slice(0, 10));
  let ctxP: Promise<Ctx> | null = null;

  function ctx(signal?: AbortSignal): Promise<Ctx> {
    throwIfAborted(signal);
    if (!ctxP) {
      const p = loadContext(opts.text);
      ctxP = p;
      p.catch(() => { if (ctxP === p) ctxP = null; });
    }
    return ctxP;
  }

  async function prepare(args: GetLayerArgs, signal?: AbortSignal): Promise<Prepared> {
    if (!args || typeof args !== 'object') throw new IndapiError('BAD_ARGUMENT', 'Arguments must be an object.');
    const c = await ctx(signal);
    const vars = asList(args.var, 'var');
    const stats = checkStats(args.stats);
    const byCodes = byCodesOf(args.by as never);
    const varSpecs = await planVars(c.cat, vars, byCodes, stats, signal);
    const bys = await planBy(c.cat, args.by as never, signal, digLabOf(args.digLab));
    for (const b of bys) if (varSpecs.some((v) => v.code === b.code)) b.key = `${b.code}_by`;
    return { c, varSpecs, bys };
  }

  /** Several codes with a region among them: one block of rows per code, in code order; a region's rows pool its members and carry its code and name. */
  async function regionBlocks(p: Prepared, codes: string[], o: CallOptions): Promise<TableOut> {
    const { c, varSpecs, bys } = p;
    const rows: Row[] = [];
    let last: Computed | null = null;
    for (const [k, code] of codes.entries()) {
      const e = c.cat.isoEntry(code)!;
      const progress = o.onProgress && ((d: number, t: number) => o.onProgress!(k * t + d, codes.length * t));
      const cp = await compute(store, c, select(c, { iso3: [code] }, null, null), varSpecs, bys, true, o.signal, progress);
      rows.push(...tableRows(c, cp, e.type === 'region' ? { ISO3: code, ADM0_NAME: e.name } : undefined));
      last = cp;
    }
    const shown = { ...last!, sel: { ...last!.sel, blocks: [c.isoClasses[0]] } };
    return { rows, columns: withCells(columns(c, shown), rows), meta: metaOf(c, shown), computed: last!, ctx: c };
  }

  /**
   * The selection of `args`: a geometry (`wkt`, its cells unweighted: per-cell rows), ids, or
   * countries and regions, pooled as `pooled` says (default: see {@link select}).
   * @throws IndapiError OUTSIDE_GRID for a geometry off the grid, BAD_WKT, and what select throws
   */
  function selectionOf(c: Ctx, args: GetLayerArgs): Selection {
    const perCountry = args.pooled === undefined || args.pooled === null ? null : !args.pooled;
    if (typeof args.wkt === 'string' && args.wkt !== '') {
      const geom = geometryCells(parseWkt(args.wkt), c.grid, !!args.exact);
      if (!geom) throw new IndapiError('OUTSIDE_GRID', `The geometry lies outside the grid of the bundle ${gridText(c.grid)}.`);
      // a WKT selection is a cell filter: the country filter (iso3) is ignored, as with ids
      return select(c, {}, geom, perCountry ?? false);
    }
    return select(c, args, null, perCountry);
  }

  /**
   * The main query as a table.
   * @param union true: several `iso3` codes select the union of their cells (similar); else,
   *   collapsed, several codes with a region among them give one block of rows per code
   *   (unless `pooled` says otherwise)
   */
  async function table(args: GetLayerArgs, o: CallOptions = {}, union = false): Promise<TableOut> {
    const p = await prepare(args, o.signal);
    const { c, varSpecs, bys } = p;
    const collapse = args.collapse !== false;
    const hasIds = args.ids !== undefined && args.ids !== null && (!Array.isArray(args.ids) || args.ids.length > 0);
    if (collapse && !union && !hasIds && args.pooled === undefined && !args.wkt && args.iso3 !== undefined && args.iso3 !== null) {
      const codes = [...new Set(asList(args.iso3, 'iso3').map((x) => x.toUpperCase()))].sort();
      if (codes.length > 1 && codes.every((x) => c.cat.isoEntry(x)) && codes.some((x) => c.cat.isoEntry(x)!.type === 'region')) {
        return { ...(await regionBlocks(p, codes, o)), selection: selectionUsed(args, null, false) };
      }
    }
    const sel = args.wkt ? unweighted(selectionOf(c, args)) : selectionOf(c, args);
    const cp = await compute(store, c, sel, varSpecs, bys, collapse || bys.length > 0, o.signal, o.onProgress);
    const rows = collapse ? tableRows(c, cp) : cellRows(c, cp);
    return { rows, columns: withCells(columns(c, cp, [], !collapse), rows), meta: metaOf(c, cp), computed: cp, ctx: c, selection: selectionUsed(args, sel) };
  }

  /** Summaries over domains with the plan of `args` (var, stats, by, exact). */
  async function domains(c: Ctx, list: Domain[], args: GetLayerArgs & { exact?: boolean }, perCountry: boolean, keyCols: ColumnInfo[], o: CallOptions): Promise<TableResult> {
    const { varSpecs, bys } = await prepare(args, o.signal);
    return summariseDomains(store, c, list, { vars: varSpecs, bys, exact: !!args.exact }, perCountry, keyCols, o);
  }

  const engine: IndapiEngine = {
    store,
    async grid(o = {}) { return (await ctx(o.signal)).grid; },
    async loadCatalog(o = {}) { return (await ctx(o.signal)).cat; },
    // travel-time catchments: src/core/catchment/query.ts, over this engine's public methods
    catchment(args, o = {}) { return runCatchment(engine, args, o); },

    async summariseGroups(args, o = {}) {
      const { c, varSpecs } = await prepare({ var: args.var }, o.signal);
      if (args.group.length !== Math.max(0, args.win[2] - args.win[0]) * Math.max(0, args.win[3] - args.win[1])) throw new IndapiError('INTERNAL', 'summariseGroups: group and window sizes differ.');
      const sel: Selection = { ...select(c, {}, null, false), win: args.win, blocks: new Array<null>(args.groups).fill(null) };
      const cp = await compute(store, c, sel, varSpecs, [], true, o.signal, o.onProgress, args.group);
      const rows = Array.from({ length: args.groups }, (_, t) => {
        const row: Row = {};
        if (cp.frame.groupN[t] > 0) valueFields(cp, t, row);
        return row;
      });
      return { rows, columns: columns(c, cp).filter((x) => x.role === 'value'), meta: metaOf(c, cp) };
    },

    async catalog(o = {}) {
      return (await ctx(o.signal)).cat.records;
    },

    async catalogCsv(o = {}) {
      return (await ctx(o.signal)).viText;
    },

    async category(args = {}, o = {}) {
      const c = await ctx(o.signal);
      const q = asList(args?.q, 'q');
      return c.cat.category(q, !!args?.asList);
    },

    async describe(args = {}, o = {}) {
      const c = await ctx(o.signal);
      return c.cat.describe(asList(args?.var, 'var'), asList(args?.q, 'q'), today());
    },

    /**
     * The main query: one summary row per country or pool, then one row per present group.
     *
     * Values: each variable's catalog formula evaluated per group as R evaluates it (see
     * `accumulate.ts`): `sum(x, na.rm = TRUE)` over cells that are all NA is 0, as R (e.g.
     * `PN14_POP` of a country without source data is 0; terra's zonal sum would give NA);
     * where R gives NA, NaN or ±Inf (mean or median of nothing, 0/0, x/0, weighted.mean with
     * an NA weight) the field is absent from the row, NaN in {@link Engine.getLayerCells}.
     * Extra stats: `<CODE>_count` and `<CODE>_sum` are 0 over no value, the others absent.
     */
    async getLayer(args, o = {}) {
      if (args.wkt && args.collapse !== false) return engine.getLayerWKT(args as GetLayerWktArgs, o).then((t) => (args.asList ? { meta: t.meta.map((r) => describeRecord(r, today())), data: t.rows } : t.rows));
      const t = await table(args, o);
      if (args.asList) return { meta: t.meta.map((r) => describeRecord(r, today())), data: t.rows };
      return t.rows;
    },

    async getLayerTable(args, o = {}) {
      if (args.wkt && args.collapse !== false) return engine.getLayerWKT(args as GetLayerWktArgs, o);
      const { rows, columns: cols, meta, selection } = await table(args, o);
      return { rows, columns: cols, meta, selection };
    },

    async getLayerCells(args, o = {}) {
      const { c, varSpecs, bys } = await prepare(args, o.signal);
      const sel = selectionOf(c, args);
      const cp = await compute(store, c, sel, varSpecs, bys, bys.length > 0, o.signal, o.onProgress);
      return { ...(await cellResult(c, cp)), selection: selectionUsed(args, sel) };
    },

    async getLayerWKT(args, o = {}) {
      const c = await ctx(o.signal);
      if (typeof args?.wkt !== 'string') throw new IndapiError('BAD_ARGUMENT', "'wkt' must be WKT text.");
      const g = parseWkt(args.wkt);
      const list = features(g).map((geom, i) => ({ key: { feature: i + 1 } as Row, geom }));
      const keyCol: ColumnInfo = { name: 'feature', role: 'key', label: 'Feature (1-based position in the WKT)', unit: '', type: 'integer' };
      return domains(c, list, args, true, [keyCol], o);
    },

    async classify(args, o = {}) {
      const c = await ctx(o.signal);
      const { list, keyName } = parseDomains(args?.domains, args?.key);
      const keyCol: ColumnInfo = { name: keyName, role: 'key', label: `Domain (${keyName})`, unit: '', type: 'string' };
      return domains(c, list, { var: args.var, stats: args.stats, exact: args.exact }, false, [keyCol], o);
    },

    async similar(args, o = {}) {
      return similar(await ctx(o.signal), args, table, o);
    },
  };
  return engine;
}

export type { CategoryRow };
