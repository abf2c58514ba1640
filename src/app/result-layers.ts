/**
 * What the app draws on the map for a result: the choropleth of a summary (by country, first-
 * or second-level unit), the ranks of `similar` (units as a choropleth, cells as a raster) and
 * the bands of a catchment (a raster). Each function turns a result into the values and the
 * palette the map needs; App.tsx only puts them on the map.
 */
import { cellToColRow, type GridDef } from '../core/grid';
import { TRANSPARENT, type LegendEntry, type Palette } from '../core/map/palette';
import { unitsDomain, type CellDomain } from '../core/map/domain-mask';
import type { IsoEntry, Row, VarRecord } from '../core/types';
import { bundleFiles } from '../ui/bundle-files';
import { adminLevel, buildChoropleth, countryChoropleth, unitsWithout } from '../ui/choropleth';
import { DATA_BASE } from './bundle';
import { colLabel, prettyUnit } from './panels/common';
import type { SummaryRows } from './panels/SummaryPanel';
import { shareColumn } from './panels/two-domain';
import { getRaster } from './services';
import type { CellsLayer } from './catchment-layer';

export { catchmentExportInfo, catchmentLayer, catchmentLayerKey, SOURCE_HUES, type CellsLayer } from './catchment-layer';

/** A choropleth on the map: unit -> colour pairs, its legend, and the values by unit for the read-out. */
export interface Choro {
  /** Raster value (or code) of each unit and its colour. */
  pairs: Array<[number | string, string]>;
  /** Legend entries, low to high. */
  legend: LegendEntry[];
  /** Legend title. */
  title: string;
  /** What was mapped, as codes (e.g. "ELEVATION by ADM1_NAME_ALT"). */
  code: string;
  /** The value of each unit (same keys as `pairs`). */
  values: Map<number | string, number>;
  /** Decimals of the values. */
  dec: number;
  /** Unit of the values, as shown. */
  unit: string;
  /** Outlines: 0 countries, 1 first-level, 2 second-level units (default 1). */
  level?: 0 | 1 | 2;
  /**
   * A map of one interval: the layer and bounds whose cells are painted over the units
   * ({@link SLICE_CELLS_COLOUR}; see SummaryRows.sliceCells), only in `domain`: the outline key
   * layer's values of the summary's units (the cells of other countries and units are transparent).
   */
  sliceCells?: { code: string; lo: number; hi: number; label: string; domain: CellDomain };
}

/**
 * The choropleth of a summary: by country (ISO3 or ADM0_NAME, or one row per country) on the
 * country outlines, else by the second-level unit (when the bundle lists basemap/admin2.geojson)
 * or the first-level one; null when the summary has no such domain.
 * @param r the summary's rows and domains (null: none)
 * @param iso the bundle's countries and regions (names to ISO3)
 * @param byCode catalog records by code (labels, decimals, units)
 */
export async function summaryChoropleth(r: SummaryRows | null, iso: IsoEntry[], byCode: Map<string, VarRecord>): Promise<Choro | null> {
  if (!r) return null;
  const v = r.share ? shareColumn(r.value) : r.value;
  const dec = r.share ? 1 : byCode.get(v)?.dec ?? 2;
  const unit = r.share ? '%' : prettyUnit(byCode.get(v)?.unit ?? '');
  const what = `${r.share ? `Share (%) of the unit's ${colLabel(byCode, r.value)}` : colLabel(byCode, v)}`;
  const slice = `${r.slice ? `, ${r.slice}` : ''}${r.year !== undefined ? `, ${r.year}` : ''}`; // a result over several years: the map's one year
  const byCountry = !r.by.some((x) => adminLevel(x)) && (r.by.some((x) => x === 'ISO3' || x === 'ADM0_NAME') || (!r.by.length && new Set(r.rows.map((x) => x.ISO3)).size > 1));
  if (byCountry) {
    const names = new Map(iso.map((e) => [e.name, e.code]));
    const isUnit = (row: Row) => row.total !== 1 && r.by.every((k) => k === 'ISO3' || k === 'ADM0_NAME' || row[k] === undefined); // a country's total row repeats it
    const units = r.rows.filter(isUnit);
    const c = countryChoropleth(units.length ? units : r.rows, v, names, dec);
    if (!c.pairs.length) return null;
    const all = r.slice && r.units ? countryChoropleth(r.units.filter(isUnit).map((u) => ({ ...u, __one: 1 })), '__one', names, 0).values : new Map<string, number>();
    const without = [...all.keys()].filter((u) => !c.values.has(u));
    const s = await withSlice(r, c, without, 'ISO3');
    return { ...s, title: `${what} by country${slice}`, code: `${r.value} by ${r.by.find((x) => x === 'ISO3' || x === 'ADM0_NAME') ?? 'ISO3'}`, values: c.values, dec, unit, level: 0 };
  }
  if (!r.by.some((x) => adminLevel(x))) return null;
  const files = await bundleFiles(DATA_BASE);
  const has = (l: 1 | 2) => (files ? files.has(`basemap/admin${l}.geojson`) : l === 1);
  const b = r.by.find((x) => adminLevel(x) === 2 && has(2)) ?? r.by.find((x) => adminLevel(x) === 1 && has(1));
  if (!b) return null;
  const level = adminLevel(b)!;
  const key = `ADM${level}_NAME_ALT`;
  const t = await getRaster().classTable(key);
  const match = b === key ? 'label' : 'code';
  const c = buildChoropleth(r.rows.filter((row) => r.by.every((k) => k === b || row[k] === undefined)), b, v, t, dec, undefined, match);
  const without = r.slice && r.units ? unitsWithout(r.units, b, t, match, c.values) : [];
  const s = await withSlice(r, c, without, key);
  return { ...s, title: `${what} by ${level === 2 ? 'district' : 'province'}${slice}`, code: `${r.value} by ${b}`, values: c.values, dec, unit, level };
}

/**
 * The units and legend of a summary's choropleth and, on a map of one interval, its extras: the
 * units without the interval in {@link NO_SLICE_GREY} (with a legend entry) and the interval's
 * cells, drawn only inside every unit of the summary (those with the interval and those greyed).
 * @param c the choropleth of the mapped units (keys: raster values of `key`, or ISO3 codes by country)
 * @param without the summary's units without the interval (same keys)
 * @param key the class COG whose cells make the units ("ISO3", "ADM1_NAME_ALT", "ADM2_NAME_ALT")
 * @throws IndapiError IO when the key layer's class table cannot be read (a one-interval map only)
 */
async function withSlice<K extends number | string>(r: SummaryRows, c: { pairs: Array<[K, string]>; legend: LegendEntry[] }, without: K[], key: string): Promise<Pick<Choro, 'pairs' | 'legend' | 'sliceCells'>> {
  const pairs: Choro['pairs'] = [...c.pairs, ...without.map((u): [K, string] => [u, NO_SLICE_GREY])];
  const legend = [...c.legend, ...(without.length ? [{ color: NO_SLICE_GREY, label: `no cells ${r.slice}` }] : []), ...(r.sliceCells ? [{ color: SLICE_CELLS_COLOUR, label: `the cells ${r.slice} (only these are in it)` }] : [])];
  if (!r.sliceCells) return { pairs, legend };
  const domain = unitsDomain(key, pairs.map(([u]) => u), await getRaster().classTable(key));
  return { pairs, legend, sliceCells: { ...r.sliceCells, label: r.slice ?? '', domain } };
}

/**
 * Colour of the cells of a one-interval map (drawn over the units, every other cell
 * transparent): a red outside the choropleth ramps (viridis, blues) and the no-slice grey.
 */
export const SLICE_CELLS_COLOUR = '#d7191c';

/**
 * The raster style of a one-interval map's cells: the layer's values in (lo, hi] (R cut()'s
 * right-closed interval) in {@link SLICE_CELLS_COLOUR}, all others transparent; breaks open
 * to -Infinity / Infinity so no value falls outside them.
 * @param label the interval as shown ("2,000-6,000 m"), for the legend
 */
export function sliceCellsStyle(s: { lo: number; hi: number }, label: string): { breaks: number[]; colors: string[]; palette: Palette } {
  const breaks = [-Infinity, s.lo, s.hi, Infinity];
  const colors = [TRANSPARENT, SLICE_CELLS_COLOUR, TRANSPARENT];
  return { breaks, colors, palette: { kind: 'intervals', breaks, colors, labels: ['', `cells ${label}`, ''] } };
}

/** Colour of the units of a one-interval (or one-class) map that have no cell in it: grey, outside every ramp. */
export const NO_SLICE_GREY = '#c8c8c8';

/**
 * The ranks of `similar` by cell as a raster: quantile classes of the score (low = similar).
 * @param rows result rows with CELL5M and the score column
 * @param score name of the score column
 * @param grid the bundle grid
 */
export function similarCellsLayer(rows: Row[], score: string, grid: GridDef): CellsLayer {
  const values = new Float64Array(grid.width * grid.height).fill(NaN);
  const scores = rows.map((x) => Number(x[score])).filter(Number.isFinite).sort((a, b) => a - b);
  const ramp = ['#08306b', '#2171b5', '#6baed6', '#c6dbef', '#f7fbff'];
  const q = [0, 0.05, 0.2, 0.4, 0.7, 1].map((p) => scores[Math.min(scores.length - 1, Math.floor(p * (scores.length - 1)))]);
  for (const row of rows) {
    const cr = cellToColRow(grid, Number(row.CELL5M));
    if (cr) values[cr[1] * grid.width + cr[0]] = Number(row[score]);
  }
  return { values, palette: { kind: 'intervals', breaks: q, colors: ramp, labels: ['most similar (top 5%)', '5–20%', '20–40%', '40–70%', 'least similar (70–100%)'] } };
}

/**
 * The ranks of `similar` by first-level unit as a choropleth (low score = similar).
 * @param rows result rows with the unit key and the score column
 * @param score name of the score column
 * @returns null when the rows carry no first-level key
 */
export async function similarUnitsChoropleth(rows: Row[], score: string): Promise<Choro | null> {
  const keyCol = ['ADM1_CODE_ALT', 'ADM1_NAME_ALT'].find((k) => rows.some((x) => x[k] !== undefined));
  if (!keyCol) return null;
  const t = await getRaster().classTable(keyCol);
  const c = buildChoropleth(rows, keyCol, score, t, 2, ['#08306b', '#08519c', '#2171b5', '#4292c6', '#9ecae1', '#deebf7']);
  const legend = c.legend.map((e, i) => ({ ...e, label: i === 0 ? `${e.label} most similar` : i === c.legend.length - 1 ? `${e.label} least similar` : e.label }));
  return { pairs: c.pairs, legend, title: 'Similarity score (low = similar)', code: `${score} by ${keyCol}`, values: c.values, dec: 3, unit: '' };
}

