/**
 * Summaries over a list of (key, geometry) domains: the features of a WKT (`getLayerWKT`)
 * and the named shapes of `classify`, each rasterised to cell weights and summarised, the
 * rows tagged with the domain's key.
 */
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import type { CallOptions, ColumnInfo, TableResult } from '../api';
import type { CogStore } from '../cog/store';
import { IndapiError, throwIfAborted } from '../errors';
import { gridText } from '../grid';
import type { Row } from '../types';
import { parseWkt } from '../wkt/parse';
import { geometryCells } from '../wkt/raster';
import { compute, type Computed } from './compute';
import type { Ctx } from './context';
import type { BySpec, VarSpec } from './plan';
import { binRows, columns, metaOf, tableRows, withCells } from './rows';
import { emptySelection, select } from './select';
import { summariseMany } from './bulk';

/** A domain: the key written on its rows and its geometry (EPSG:4326). */
export interface Domain { key: Row; geom: Geometry }

/** Splits a geometry into features (members of a top-level collection). */
export function features(g: Geometry): Geometry[] {
  return g.type === 'GeometryCollection' ? g.geometries : [g];
}

export { gridText } from '../grid';

/**
 * Summaries over domains, rows tagged with each domain's key; a domain outside the grid is
 * skipped, one that selects no cell gives a row of its key only (pooled).
 * @param exact exact coverage fractions (true) or cell centres (false)
 * @param perCountry rows per country inside each domain (WKT) or one pool (classify)
 * @throws IndapiError OUTSIDE_GRID when every domain lies outside the grid, and what compute throws
 */
export async function summariseDomains(
  store: CogStore, c: Ctx, list: Domain[], spec: { vars: VarSpec[]; bys: BySpec[]; exact: boolean }, perCountry: boolean, keyCols: ColumnInfo[], o: CallOptions,
): Promise<TableResult> {
  // pooled per domain without `by` (classify): all domains at once, coverage cached
  if (!perCountry && spec.bys.length === 0) return summariseMany(store, c, list, spec.vars, spec.exact, keyCols, o);
  return perDomain(store, c, list, spec, perCountry, keyCols, o);
}

/** {@link summariseDomains} one domain at a time (rows per country, or `by`). */
async function perDomain(
  store: CogStore, c: Ctx, list: Domain[], spec: { vars: VarSpec[]; bys: BySpec[]; exact: boolean }, perCountry: boolean, keyCols: ColumnInfo[], o: CallOptions,
): Promise<TableResult> {
  const rows: Row[] = [];
  let any = false;
  let last: Computed | null = null;
  for (let k = 0; k < list.length; k++) {
    throwIfAborted(o.signal);
    const cells = geometryCells(list[k].geom, c.grid, spec.exact);
    if (!cells) continue;
    any = true;
    // a WKT selection is a cell filter: the country filter (iso3) is ignored, as with ids
    const cp = await compute(store, c, select(c, {}, cells, perCountry), spec.vars, spec.bys, true, o.signal);
    last = cp;
    const r = binRows(cp, tableRows(c, cp));
    if (!r.length && !perCountry) rows.push({ ...list[k].key });
    for (const row of r) rows.push({ ...list[k].key, ...row });
    o.onProgress?.(k + 1, list.length);
  }
  if (!any) throw new IndapiError('OUTSIDE_GRID', `The geometry lies outside the grid of the bundle ${gridText(c.grid)} (EPSG:4326, longitude first).`);
  const cp = last ?? await compute(store, c, emptySelection(perCountry), spec.vars, spec.bys, true, o.signal);
  const shown = { ...cp, sel: { ...cp.sel, blocks: perCountry ? [c.isoClasses[0]] : [null] } };
  return { rows, columns: withCells(columns(c, shown, keyCols), rows), meta: metaOf(c, shown) };
}

/**
 * Domains of `classify`: a GeoJSON FeatureCollection (key = a property, default `name`,
 * else the feature's 1-based position) or an object / list of named WKT strings.
 * @throws IndapiError BAD_ARGUMENT for any other shape, BAD_WKT for bad WKT
 */
export function parseDomains(domains: unknown, key?: string): { list: Array<{ key: Row; geom: Geometry }>; keyName: string } {
  let d = domains;
  if (typeof d === 'string') {
    const s = d.trim();
    if (s.startsWith('{') || s.startsWith('[')) {
      try { d = JSON.parse(s); } catch { throw new IndapiError('UNPARSABLE', "'domains' is not valid JSON."); }
    } else d = [s];
  }
  if (d && typeof d === 'object' && (d as FeatureCollection).type === 'FeatureCollection') {
    const fc = d as FeatureCollection;
    if (!Array.isArray(fc.features)) throw new IndapiError('BAD_ARGUMENT', "'domains' FeatureCollection has no features.");
    const keyName = key ?? (fc.features.some((f) => f?.properties && 'name' in f.properties) ? 'name' : 'feature');
    return {
      keyName,
      list: fc.features.map((f: Feature, i) => {
        if (!f || !f.geometry) throw new IndapiError('BAD_ARGUMENT', `Feature ${i + 1} of 'domains' has no geometry.`);
        const v = keyName === 'feature' && !(f.properties && keyName in f.properties) ? i + 1 : f.properties?.[keyName];
        return { key: { [keyName]: v === undefined || v === null ? String(i + 1) : typeof v === 'number' ? v : String(v) }, geom: f.geometry };
      }),
    };
  }
  if (Array.isArray(d)) {
    const keyName = key ?? 'feature';
    return { keyName, list: d.map((w, i) => ({ key: { [keyName]: i + 1 }, geom: parseWkt(String(w)) })) };
  }
  if (d && typeof d === 'object') {
    const keyName = key ?? 'name';
    return { keyName, list: Object.entries(d as Record<string, unknown>).map(([k, w]) => ({ key: { [keyName]: k }, geom: parseWkt(String(w)) })) };
  }
  throw new IndapiError('BAD_ARGUMENT', "'domains' must be a GeoJSON FeatureCollection or a named list of WKT.");
}
