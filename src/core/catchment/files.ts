/**
 * Writers' inputs for a catchment: the travel-time raster as a per-cell result (for the
 * engine's tif / asc / grd writers) and one GeoJSON polygon per band (cell outlines traced
 * with the writers' {@link traceGroups}). Its formats: ./formats.ts.
 */
import type { CellResult } from '../api';
import { traceGroups } from '../formats/geojson';
import type { VarRecord } from '../types';
import type { CatchmentResult } from './query';

/** Code of the travel-time layer in files. */
export const TRAVEL_TIME_CODE = 'TRAVEL_TIME';

/** A catalog-like record of the travel-time raster, for the writers (README, meta.csv, side-cars). */
export function travelTimeRecord(r: CatchmentResult): VarRecord {
  const f = r.friction;
  return {
    ...f,
    varCode: TRAVEL_TIME_CODE,
    varLabel: `Travel time (minutes) over ${f.varCode}`,
    varTitle: 'Accumulated travel time from the source points',
    varDesc: `Least accumulated travel time in minutes from the nearest of ${r.sources.length} source point(s) over the friction layer ${f.varCode} (${f.varLabel}): Dijkstra over the 8-neighbour grid, each step the WGS84 geodesic distance between cell centres times the mean friction of the two cells; no-data cells are barriers. Cells beyond ${r.breaks[r.breaks.length - 1]} minutes are no-data.`,
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

/** The travel-time raster as a per-cell result (window of the largest band; NaN elsewhere). */
export function travelTimeCells(r: CatchmentResult): CellResult {
  const n = r.minutes.length;
  const mask = new Uint8Array(n);
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    values[i] = r.minutes[i];
    if (!Number.isNaN(r.minutes[i])) mask[i] = 1;
  }
  return { grid: r.grid, mask, layers: [{ code: TRAVEL_TIME_CODE, type: 'continuous', values }], meta: [travelTimeRecord(r)] };
}

/**
 * GeoJSON (RFC 7946) FeatureCollection text: one MultiPolygon per band with cells (the union
 * of the band's 5-arc-minute cells, EPSG:4326, longitude first), properties = the band's row
 * of the summary table (band, minutes_from, minutes_to, cells, area_km2, summaries).
 */
export function catchmentGeoJson(r: CatchmentResult): string {
  const { grid } = r;
  const groups = Int32Array.from(r.band);
  const polys = traceGroups(groups, grid.width, grid.height, r.bands.length);
  const cs = grid.cellSizeDeg;
  const pt = ([c, row]: [number, number]): [number, number] => [roundDeg(grid.xmin + c * cs), roundDeg(grid.ymax - row * cs)];
  const features = r.bands.flatMap((b, k) => {
    if (!polys[k].length) return [];
    const coordinates = polys[k].map((p) => [p.exterior.map(pt), ...p.holes.map((h) => h.map(pt))]);
    return [{ type: 'Feature', geometry: { type: 'MultiPolygon', coordinates }, properties: r.table.rows[k] }];
  });
  return JSON.stringify({ type: 'FeatureCollection', features }) + '\n';
}

/** Degrees rounded to 1e-9 (lattice vertices are multiples of 1/12). */
function roundDeg(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}
