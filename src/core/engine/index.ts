/**
 * The query engine: every data method of the service (catalog, category, describe, the main
 * query, WKT areas, classify, similar) over the bundle's COGs, pure over injected I/O.
 *
 * Create one with {@link createEngine}; it works unchanged in Web Workers, service workers,
 * Node and tests. This module is the wiring of the methods; the seams are modules of their own:
 * `context.ts` (catalog, grid, layer reads), `query.ts` (planning and running a query), `select.ts` (cells of a query), `compute.ts`
 * (reading and accumulating), `rows.ts` (rows and columns), `cells.ts` (per-cell layers),
 * `domains.ts` (WKT features and classify domains), `similar.ts`; `plan.ts` (arguments),
 * `accumulate.ts` (aggregation semantics) and `../wkt/raster.ts` (geometry selection).
 */
import type { CallOptions, CategoryRow, ColumnInfo, Engine, GetLayerArgs, GetLayerWktArgs, SimilarArgs, TableResult } from '../api';
import { asList } from '../args';
import { openBundle, type Bundle } from '../bundle';
import type { Catalog } from '../catalog';
import { describeRecord } from '../catalog';
import { CogStore } from '../cog/store';
import type { PixelWindow } from '../cog/store';
import type { Inflate } from '../cog/tiff';
import { IndapiError, throwIfAborted } from '../errors';
import type { GridDef } from '../grid';
import type { SourceFactory, TextLoader } from '../io/source';
import type { Row, VarRecord } from '../types';
import { parseWkt } from '../wkt/parse';
import { cellResult } from './cells';
import { compute } from './compute';
import { loadContext, type Ctx } from './context';
import { features, parseDomains, type Domain } from './domains';
import { columns, metaOf, valueFields } from './rows';
import { domains, prepare, selectionOf, table, type QueryScope } from './query';
import { select, selectionUsed, type Selection } from './select';
import { similar } from './similar';
import { perYear, planYears, type YearPlan } from './years';

export { aggFormulaText, parseAggFun, simpleAggregate, cutLabels, formatG, labelDigits, roundR } from '../r';
export { DEFAULT_DIG_LAB, digLabOf, STAT_NAMES } from './plan';
export { MAX_IDS } from './select';
export { parseDomains } from './domains';
export { checkZonalArgs, ZONAL_OPS } from './zonal';

/** Options of {@link createEngine}. */
export interface EngineOptions {
  /** Opens COGs relative to the bundle root. */
  source: SourceFactory;
  /** Reads text files (vi.csv, iso.csv, classes/*.csv, manifest.json) relative to the bundle root. */
  text: TextLoader;
  /** The bundle reader over `text` and `source` to share with others (src/core/bundle/open.ts); default one of its own. */
  bundle?: Bundle;
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

/**
 * Creates an engine over a bundle.
 * @param opts injected I/O and cache size
 */
export function createEngine(opts: EngineOptions): IndapiEngine {
  const store = new CogStore({ source: opts.source, inflate: opts.inflate, cacheBytes: opts.cacheBytes });
  const today = opts.today ?? (() => new Date().toISOString().slice(0, 10));
  const bundle = opts.bundle ?? openBundle({ text: opts.text, source: opts.source });
  let ctxP: Promise<Ctx> | null = null;

  function ctx(signal?: AbortSignal): Promise<Ctx> {
    throwIfAborted(signal);
    if (!ctxP) {
      const p = loadContext(bundle);
      ctxP = p;
      p.catch(() => { if (ctxP === p) ctxP = null; });
    }
    return ctxP;
  }
  const q: QueryScope = { store, ctx };

  /** The year plan of `args` (null: no series, no year: the query as before). @throws IndapiError BAD_ARGUMENT naming year or change */
  async function yearsOf(args: Pick<GetLayerArgs, 'var' | 'year' | 'change'>, signal?: AbortSignal): Promise<YearPlan | null> {
    const cat = (await ctx(signal)).cat;
    const vars = asList(args.var, 'var');
    // the national series' values are read by the first query over one (src/core/catalog loadNational)
    if (vars.some((v) => cat.isNational(String(v)))) await cat.loadNational(signal);
    return planYears(cat, { var: vars, year: args.year, change: args.change });
  }
  /**
   * The scope and arguments of a query that reads one year only (per-cell output, similar).
   * @throws IndapiError BAD_ARGUMENT naming year when several years or a change are asked
   */
  async function oneYear<A extends GetLayerArgs | SimilarArgs>(args: A, signal?: AbortSignal): Promise<{ q: QueryScope; a: A }> {
    const plan = await yearsOf(args, signal);
    if (!plan) return { q, a: args };
    if (plan.years.length !== 1 || plan.change) throw new IndapiError('BAD_ARGUMENT', "'year': this output takes one year (and no 'change'); ask for the years one by one.", { arg: 'year' });
    const year = plan.years[0];
    const cat = (await ctx(signal)).cat;
    const { year: _y, change: _c, ...rest } = args as A & { change?: unknown };
    return { q: { store, ctx: async (s) => ({ ...(await ctx(s)), year }) }, a: { ...rest, var: asList(args.var, 'var').map((v) => cat.seriesRecord(v, year).varCode) } as A };
  }
  /** The main query as a table, per year when `var` holds series (src/core/engine/years.ts). */
  async function yearTable(args: GetLayerArgs, o: CallOptions): Promise<TableResult> {
    const plan = await yearsOf(args, o.signal);
    if (!plan) return table(q, args, o);
    return perYear((await ctx(o.signal)).cat, plan, q, { ...args, var: asList(args.var, 'var') }, (qy, a) => table(qy, a, o));
  }
  /** Summaries over domains, per year when `var` holds series. */
  async function yearDomains(list: Domain[], args: GetLayerArgs, perCountry: boolean, keyCols: ColumnInfo[], o: CallOptions): Promise<TableResult> {
    const c = await ctx(o.signal);
    const plan = await yearsOf(args, o.signal);
    if (!plan) return domains(q, c, list, args, perCountry, keyCols, o);
    return perYear(c.cat, plan, q, { ...args, var: asList(args.var, 'var') }, async (qy, a) => domains(qy, await qy.ctx(o.signal), list, a, perCountry, keyCols, o));
  }

  const engine: IndapiEngine = {
    store,
    async grid(o = {}) { return (await ctx(o.signal)).grid; },
    async loadCatalog(o = {}) { return (await ctx(o.signal)).cat; },
    // travel-time catchments: src/core/catchment/query.ts, over this engine's public methods;
    // imported on the first one, so a realm's first summary does not wait for their code
    async catchment(args, o = {}) { return (await import('../catchment/query')).runCatchment(engine, args, o); },

    async summariseGroups(args, o = {}) {
      const { c, varSpecs } = await prepare(q, { var: args.var }, o.signal);
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
      const t = await yearTable(args, o);
      if (args.asList) return { meta: t.meta.map((r) => describeRecord(r, today())), data: t.rows };
      return t.rows;
    },

    async getLayerTable(args, o = {}) {
      if (args.wkt && args.collapse !== false) return engine.getLayerWKT(args as GetLayerWktArgs, o);
      const { rows, columns: cols, meta, selection } = await yearTable(args, o);
      return { rows, columns: cols, meta, selection };
    },

    async getLayerCells(argsIn, o = {}) {
      const { q, a: args } = await oneYear(argsIn, o.signal);
      const { c, varSpecs, bys } = await prepare(q, args, o.signal);
      const sel = selectionOf(c, args);
      const cp = await compute(store, c, sel, varSpecs, bys, bys.length > 0, o.signal, o.onProgress);
      return { ...(await cellResult(c, cp)), selection: selectionUsed(args, sel) };
    },

    async getLayerWKT(args, o = {}) {
      await ctx(o.signal);
      if (typeof args?.wkt !== 'string') throw new IndapiError('BAD_ARGUMENT', "'wkt' must be WKT text.");
      const g = parseWkt(args.wkt);
      const list = features(g).map((geom, i) => ({ key: { feature: i + 1 } as Row, geom }));
      const keyCol: ColumnInfo = { name: 'feature', role: 'key', label: 'Feature (1-based position in the WKT)', unit: '', type: 'integer' };
      const per = await yearDomains(list, args, true, [keyCol], o);
      return args.totals ? withShapeTotals(per, () => yearDomains(list, args, false, [keyCol], o)) : per;
    },

    async classify(args, o = {}) {
      await ctx(o.signal);
      const { list, keyName } = parseDomains(args?.domains, args?.key);
      const keyCol: ColumnInfo = { name: keyName, role: 'key', label: `Domain (${keyName})`, unit: '', type: 'string' };
      const { var: v, stats, exact, weights, q: qs, quantileType, bins, range, year, change } = args;
      return yearDomains(list, { var: v, stats, exact, weights, q: qs, quantileType, bins, range, year, change }, false, [keyCol], o);
    },

    async similar(argsIn, o = {}) {
      const { q: qy, a: args } = await oneYear(argsIn, o.signal);
      return similar(await qy.ctx(o.signal), args, (a, oo, u) => table(qy, a, oo, u), o);
    },
  };
  return engine;
}

/**
 * The per-country rows of shapes (`getLayerWKT`) with, before the rows of each shape that
 * crosses borders, that shape's own summary over all its cells (`whole`: the same query without
 * the per-country split), its ISO3 and ADM0_NAME absent; shapes within one country unchanged.
 * @param per one row per shape (`feature`) and country
 * @param whole computes one row per shape over all its cells (called only when a shape crosses borders)
 */
async function withShapeTotals(per: TableResult, whole: () => Promise<TableResult>): Promise<TableResult> {
  // a shape's rows by year (a series gives one row per year): the countries of each
  const keyOf = (r: Row) => `${r.feature}|${r.year ?? ''}`;
  const countries = new Map<string, Set<unknown>>();
  for (const row of per.rows) {
    const k = keyOf(row);
    if (!countries.has(k)) countries.set(k, new Set());
    countries.get(k)!.add(row.ISO3);
  }
  if (![...countries.values()].some((c) => c.size > 1)) return per;
  const tot = new Map((await whole()).rows.map((row) => [keyOf(row), row]));
  const rows: Row[] = [];
  const done = new Set<string>();
  for (const row of per.rows) {
    const k = keyOf(row);
    if (!done.has(k)) {
      done.add(k);
      const t = countries.get(k)!.size > 1 ? tot.get(k) : undefined;
      if (t) rows.push(t);
    }
    rows.push(row);
  }
  return { ...per, rows };
}

export type { CategoryRow };
