/**
 * Writers' inputs for a catchment: the travel-time raster (and, for marketsheds, the
 * nearest-source raster with its table of names) as a per-cell result (for the engine's
 * tif / asc / grd writers) and one GeoJSON polygon per band, or per source x band (cell
 * outlines traced with the writers' {@link traceGroups}). Its formats: ./formats.ts.
 */
import type { CellResult } from '../api';
import { traceGroups } from '../formats/geojson';
import type { VarRecord } from '../types';
import type { CatchmentResult } from './query';

/** Code of the travel-time layer in files. */
export const TRAVEL_TIME_CODE = 'TRAVEL_TIME';
/** Code of the nearest-source layer in files (marketsheds): the source's 1-based `source_id`. */
export const NEAREST_SOURCE_CODE = 'NEAREST_SOURCE';

/** Code of the coverage layer in files (with capacities): the covering source's `source_id`, sources + 1 for cells within reach left uncovered. */
export const COVERED_BY_CODE = 'COVERED_BY';

/** A catalog-like record of the travel-time raster, for the writers (README, meta.csv, side-cars). */
export function travelTimeRecord(r: CatchmentResult): VarRecord {
  const f = r.friction;
  return {
    ...f,
    varCode: TRAVEL_TIME_CODE,
    varLabel: `Travel time (minutes) over ${f.varCode}`,
    varTitle: 'Accumulated travel time from the source points',
    varDesc: `Least accumulated travel time in minutes from the nearest of ${r.sources.length} source point(s) over the friction layer ${f.varCode} (${f.varLabel}): Dijkstra over the ${r.neighbours ?? 8}-neighbour grid, each step the WGS84 geodesic distance between cell centres times the mean friction of the cells it touches${r.origin === 'point' ? ', counted from the source points' : ''}; no-data cells are barriers. Cells beyond ${r.breaks[r.breaks.length - 1]} minutes are no-data.`,
    unit: 'minutes',
    dec: 1,
    aggFunR: `mean(${TRAVEL_TIME_CODE}, na.rm=TRUE)`,
    classBreaks: r.breaks.join('|'),
    classLabels: r.bands.map((b) => b.label).join('|'),
    classColors: '',
    cat1: 'Accessibility',
    cat2: 'Travel time',
    cat3: 'Catchment',
    dataType: 'Float32',
    noData: '-9999',
    classTable: '',
  };
}

/** A catalog-like record of the nearest-source raster: class values 1..n, labels the source names. */
export function nearestSourceRecord(r: CatchmentResult): VarRecord {
  return {
    ...travelTimeRecord(r),
    varCode: NEAREST_SOURCE_CODE,
    varLabel: 'Nearest source by travel time (source_id)',
    varTitle: 'Marketsheds: the source each cell is nearest to by travel time',
    varDesc: `The 1-based source_id of the source nearest to each cell by travel time over ${r.friction.varCode} (the marketshed), labelled with the source names (${r.sources.length} sources); no-data beyond ${r.breaks[r.breaks.length - 1]} minutes.`,
    type: 'class',
    unit: '',
    dec: 0,
    aggFunR: `dominant(${NEAREST_SOURCE_CODE})`,
    classBreaks: '',
    classLabels: '',
    dataType: 'UInt16',
    noData: '0',
  };
}

/** A catalog-like record of the coverage raster: class values 1..n the covering source, n + 1 within reach but not covered. */
export function coveredByRecord(r: CatchmentResult): VarRecord {
  const pop = r.coverage?.population.varCode ?? 'the population layer';
  return {
    ...nearestSourceRecord(r),
    varCode: COVERED_BY_CODE,
    varLabel: 'Coverage with capacity: covering source (source_id), or not covered',
    varTitle: 'Cells covered by each source\'s capacity, and cells within reach left uncovered',
    varDesc: `Each source takes the cells of its marketshed in travel-time order over ${r.friction.varCode}, adding their people (${pop}), until its capacity or ${r.breaks[r.breaks.length - 1]} minutes is reached (AccessMod's geographic coverage). Values 1 to ${r.sources.length}: the source_id of the covering source (the last cell taken may be covered in part); ${r.sources.length + 1}: within reach of a source but not covered; no-data beyond ${r.breaks[r.breaks.length - 1]} minutes.`,
    aggFunR: `dominant(${COVERED_BY_CODE})`,
  };
}

/**
 * The travel-time raster as a per-cell result (window of the largest band; NaN elsewhere);
 * with capacities the coverage raster ({@link COVERED_BY_CODE}); with marketsheds the
 * nearest-source raster (class values = source_id, labels = names).
 */
export function travelTimeCells(r: CatchmentResult): CellResult {
  const n = r.minutes.length;
  const mask = new Uint8Array(n);
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    values[i] = r.minutes[i];
    if (!Number.isNaN(r.minutes[i])) mask[i] = 1;
  }
  const out: CellResult = { grid: r.grid, mask, layers: [{ code: TRAVEL_TIME_CODE, type: 'continuous', values }], meta: [travelTimeRecord(r)] };
  if (r.marketshed) {
    const ids = Float64Array.from(r.source, (s, i) => (s >= 0 && mask[i] ? s + 1 : NaN));
    out.layers.push({ code: NEAREST_SOURCE_CODE, type: 'class', values: ids, classes: r.sources.map((x, k) => ({ value: k + 1, label: x.name })), valuesAreIds: true });
    out.meta.push(nearestSourceRecord(r));
  }
  if (r.coverage) {
    const cov = r.coverage.coveredCells, S = r.sources.length;
    const by = Float64Array.from(r.source, (s, i) => (!mask[i] || r.band[i] < 0 ? NaN : cov[i] ? Math.max(0, s) + 1 : S + 1));
    const classes = [...r.sources.map((x, k) => ({ value: k + 1, label: `covered by ${x.name}` })), { value: S + 1, label: 'within reach, not covered' }];
    out.layers.push({ code: COVERED_BY_CODE, type: 'class', values: by, classes, valuesAreIds: true });
    out.meta.push(coveredByRecord(r));
  }
  return out;
}

/**
 * GeoJSON (RFC 7946) FeatureCollection text: one MultiPolygon per band with cells (the union
 * of the band's 5-arc-minute cells, EPSG:4326, longitude first), or with marketsheds one per
 * source x band; properties = the row of the summary table (source, source_id, band,
 * minutes_from, minutes_to, cells, area_km2, summaries). Cumulative bands overlap: each is
 * traced on its own.
 */
export function catchmentGeoJson(r: CatchmentResult): string {
  const { grid } = r;
  const K = r.bands.length;
  const S = r.marketshed ? r.sources.length : 1;
  const cs = grid.cellSizeDeg;
  const pt = ([c, row]: [number, number]): [number, number] => [roundDeg(grid.xmin + c * cs), roundDeg(grid.ymax - row * cs)];
  const features: unknown[] = [];
  const src = (i: number) => (S > 1 ? r.source[i] : 0);
  // one trace of all groups (source x band), or one per cumulative band (groups: sources)
  const traces = r.cumulative
    ? Array.from({ length: K }, (_, k) => ({ n: S, group: (i: number) => (r.band[i] >= 0 && r.band[i] <= k ? src(i) : -1), row: (g: number) => g * K + k }))
    : [{ n: S * K, group: (i: number) => (r.band[i] >= 0 ? src(i) * K + r.band[i] : -1), row: (g: number) => g }];
  const feats: Array<[number, unknown]> = [];
  for (const t of traces) {
    const groups = new Int32Array(r.band.length);
    for (let i = 0; i < groups.length; i++) groups[i] = t.group(i);
    const polys = traceGroups(groups, grid.width, grid.height, t.n);
    polys.forEach((p, g) => {
      if (!p.length) return;
      const coordinates = p.map((x) => [x.exterior.map(pt), ...x.holes.map((h) => h.map(pt))]);
      feats.push([t.row(g), { type: 'Feature', geometry: { type: 'MultiPolygon', coordinates }, properties: r.table.rows[t.row(g)] }]);
    });
  }
  // in table order: each source's bands in turn
  for (const [, f] of feats.sort((a, b) => a[0] - b[0])) features.push(f);
  return JSON.stringify({ type: 'FeatureCollection', features }) + '\n';
}

/** Degrees rounded to 1e-9 (lattice vertices are multiples of 1/12). */
function roundDeg(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}
