/**
 * The engine's queries over a bundle: planning a query (`var`, `stats`, `by` against the
 * catalog), its selection (countries and regions, ids, a WKT geometry) and running it as a
 * table, by region blocks or over domains. The methods of src/core/engine/index.ts call these.
 */
import type { CallOptions, ColumnInfo, TableResult } from '../api';
import { asList, byCodesOf, iso3Codes } from '../args';
import type { CogStore } from '../cog/store';
import { IndapiError } from '../errors';
import { layerPath } from '../bundle';
import type { GetLayerArgs, Row } from '../types';
import { geometryCells } from '../wkt/raster';
import { parseWkt } from '../wkt/parse';
import { compute, type Computed } from './compute';
import type { Ctx } from './context';
import { gridText, summariseDomains, type Domain } from './domains';
import { checkStats, digLabOf, planBy, planVars, type BySpec, type VarSpec } from './plan';
import { checkZonalApplies, zonalPlanOf } from './zonal';
import { binRows, cellRows, columns, metaOf, tableRows, withCells } from './rows';
import { select, selectionUsed, unweighted, type Selection } from './select';

/** What a query runs against: the engine's COG store and its bundle context (loaded once). */
export interface QueryScope {
  /** The COG window store. */
  store: CogStore;
  /** The bundle context. @throws IndapiError IO, ABORTED */
  ctx(signal?: AbortSignal): Promise<Ctx>;
}

/** A query's plan: the context, its variables and its by dimensions (`by` parsed here, once). */
export interface Prepared { c: Ctx; varSpecs: VarSpec[]; bys: BySpec[] }

/** The main query as a table, with what it computed. */
export type TableOut = TableResult & { computed: Computed; ctx: Ctx };

/**
 * A query's plan: the context, the variables of `var` with their stats, the by dimensions.
 * @throws IndapiError BAD_ARGUMENT, UNKNOWN_CODE, and what loading the context throws
 */
export async function prepare(q: QueryScope, args: GetLayerArgs, signal?: AbortSignal): Promise<Prepared> {
  if (!args || typeof args !== 'object') throw new IndapiError('BAD_ARGUMENT', 'Arguments must be an object.');
  const c = await q.ctx(signal);
  const vars = asList(args.var, 'var');
  const stats = checkStats(args.stats);
  const byCodes = byCodesOf(args.by as never);
  startReads(q.store, c, ['ISO3', ...vars.map(String), ...byCodes]);
  const varSpecs = await planVars(c.cat, vars, byCodes, stats, signal);
  startReads(q.store, c, varSpecs.flatMap((v) => v.columnRecs.map((r) => r.varCode))); // weights, areas the formulas name
  const zonal = zonalPlanOf(stats, args, (code) => c.cat.get(code));
  checkZonalApplies(zonal.ops, varSpecs);
  if (zonal.ops.length) for (const v of varSpecs) v.zonal = zonal;
  const bys = await planBy(c.cat, args.by as never, signal, digLabOf(args.digLab));
  for (const b of bys) if (varSpecs.some((v) => v.code === b.code)) b.key = `${b.code}_by`;
  return { c, varSpecs, bys };
}

/**
 * Starts reading, side by side, what planning and computing a query over `codes` will wait for:
 * the class tables of its class layers and the COG headers of its layers (not of national
 * series, which have no COG). Without it each class table is read after the one before and the
 * headers after all of them: on a 150 ms link, a round trip each. Codes the catalog does not
 * know are left to the plan to report; read failures are left to the reads that need them.
 */
function startReads(store: CogStore, c: Ctx, codes: string[]): void {
  for (const code of new Set(codes)) {
    const rec = c.cat.get(code);
    if (!rec || rec.dataType === 'national') continue;
    if (rec.type === 'class') c.cat.classes(code).catch(() => undefined);
    store.info(layerPath(rec.varCode)).catch(() => undefined);
  }
}

/** Several codes with a region among them: one block of rows per code, in code order; a region's rows pool its members and carry its code and name. */
async function regionBlocks(q: QueryScope, p: Prepared, codes: string[], o: CallOptions): Promise<TableOut> {
  const { c, varSpecs, bys } = p;
  const rows: Row[] = [];
  let last: Computed | null = null;
  for (const [k, code] of codes.entries()) {
    const e = c.cat.isoEntry(code)!;
    const progress = o.onProgress && ((d: number, t: number) => o.onProgress!(k * t + d, codes.length * t));
    const cp = await compute(q.store, c, select(c, { iso3: [code] }, null, null), varSpecs, bys, true, o.signal, progress);
    rows.push(...binRows(cp, tableRows(c, cp, e.type === 'region' ? { ISO3: code, ADM0_NAME: e.name } : undefined)));
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
export function selectionOf(c: Ctx, args: GetLayerArgs): Selection {
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
export async function table(q: QueryScope, args: GetLayerArgs, o: CallOptions = {}, union = false): Promise<TableOut> {
  const p = await prepare(q, args, o.signal);
  const { c, varSpecs, bys } = p;
  const collapse = args.collapse !== false;
  const hasIds = args.ids !== undefined && args.ids !== null && (!Array.isArray(args.ids) || args.ids.length > 0);
  if (collapse && !union && !hasIds && args.pooled === undefined && !args.wkt && args.iso3 !== undefined && args.iso3 !== null) {
    const codes = [...new Set(iso3Codes(args.iso3))].sort();
    if (codes.length > 1 && codes.every((x) => c.cat.isoEntry(x)) && codes.some((x) => c.cat.isoEntry(x)!.type === 'region')) {
      return { ...(await regionBlocks(q, p, codes, o)), selection: selectionUsed(args, null, false) };
    }
  }
  const sel = args.wkt ? unweighted(selectionOf(c, args)) : selectionOf(c, args);
  const cp = await compute(q.store, c, sel, varSpecs, bys, collapse || bys.length > 0, o.signal, o.onProgress);
  const rows = collapse ? binRows(cp, tableRows(c, cp)) : cellRows(c, cp);
  return { rows, columns: withCells(columns(c, cp, [], !collapse), rows), meta: metaOf(c, cp), computed: cp, ctx: c, selection: selectionUsed(args, sel) };
}

/** Summaries over domains with the plan of `args` (var, stats, by, exact). */
export async function domains(q: QueryScope, c: Ctx, list: Domain[], args: GetLayerArgs & { exact?: boolean }, perCountry: boolean, keyCols: ColumnInfo[], o: CallOptions): Promise<TableResult> {
  const { varSpecs, bys } = await prepare(q, args, o.signal);
  return summariseDomains(q.store, c, list, { vars: varSpecs, bys, exact: !!args.exact }, perCountry, keyCols, o);
}

