/**
 * The bands of a catchment (issues 19, 24) as a per-cell layer for the raster worker: one source
 * as band shades, several (marketsheds) as one hue per source with its bands as shades. Pure (no
 * DOM), so it is tested in Node; result-layers.ts re-exports it.
 */
import type { CatchmentResult } from '../core/api';
import { hashText } from '../core/hash';
import type { GridDef } from '../core/grid';
import type { Palette } from '../core/map/palette';
import type { CellsExportInfo } from './map-export';

/**
 * Which figures a catchment's table, chart and map legend show (one state for the three,
 * useResultLayers.ts): 'within' each band's upper limit (running totals: a time's cells are its
 * band and the nearer ones) or 'band' (each band alone). Cumulative bands are "within" already.
 */
export type BandView = 'within' | 'band';

/** A per-cell layer for the raster worker: one value per cell of the bundle grid (NaN: none) and its palette. */
export interface CellsLayer {
  /** Row-major values on the bundle grid (`grid.width * grid.height`). */
  values: Float64Array;
  /** How values are coloured, with the legend. */
  palette: Palette;
}

/** Hues of the marketsheds, one per source (cycled past 10): Tableau 10, readable on the basemap. */
export const SOURCE_HUES = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

/** `hex` mixed with white: t = 0 the colour, 1 white. */
function tint(hex: string, t: number): string {
  const n = parseInt(hex.slice(1), 16);
  const ch = (s: number) => Math.round(((n >> s) & 255) + (255 - ((n >> s) & 255)) * t).toString(16).padStart(2, '0');
  return `#${ch(16)}${ch(8)}${ch(0)}`;
}

/** Shades of the single-source bands, nearest darkest (RdPu, ColorBrewer). */
const RAMP = ['#49006a', '#7a0177', '#ae017e', '#dd3497', '#f768a1', '#fa9fb5', '#fcc5c0', '#fde0dd'];
/** Colour of the cells within reach that no source's capacity covers. */
export const UNCOVERED_COLOUR = '#8c8c8c';

/** True when the map shows one hue per source: several sources (a marketshed), or any capacity (coverage). */
function perSource(r: CatchmentResult): boolean {
  return (r.sources.length > 1 && !!r.source) || !!r.coverage;
}

/**
 * The colour of each band of source `s` as the map draws it (the per-source charts use them):
 * one source without coverage: the RdPu ramp; else the source's hue ({@link SOURCE_HUES},
 * cycled past 10) with its bands as lighter shades (nearest darkest).
 * @param r the result
 * @param s source index (0-based)
 * @returns one CSS colour per band of `r.bands`
 */
export function bandColours(r: Pick<CatchmentResult, 'bands' | 'sources' | 'source' | 'coverage'>, s: number): string[] {
  const nb = r.bands.length;
  if (!perSource(r as CatchmentResult)) return r.bands.map((_, i) => RAMP[Math.round((i * (RAMP.length - 1)) / Math.max(1, nb - 1))]);
  return r.bands.map((_, j) => tint(SOURCE_HUES[s % SOURCE_HUES.length], nb > 1 ? (0.7 * j) / (nb - 1) : 0));
}

/**
 * The style key of a catchment's cells layer ("cells:catchment:" and 16 hex digits): equal for
 * the results of equal runs, so a run again with unchanged sources, bands and friction reuses the
 * layer on the map (nothing rasterised or drawn again; useResultLayers.ts). It hashes
 * ({@link hashText}, 64 bits) what decides the layer's cells and legend: the sources (names,
 * points, cells, snapping), the band breaks, cumulative or not, marketshed, the friction layer,
 * neighbours, origin, the result's window of the grid and the coverage's capacities and
 * population layer. The indicators summarised do not change the bands, so they are not in it.
 */
export function catchmentLayerKey(r: CatchmentResult): string {
  const cov = r.coverage && [r.coverage.population.varCode, r.coverage.sources.map((s) => [s.source, s.capacity])];
  const g = r.grid;
  return `cells:catchment:${hashText(JSON.stringify([r.sources, r.breaks, r.cumulative, r.marketshed, r.friction.varCode, r.neighbours, r.origin, [g.colOffset, g.rowOffset, g.width, g.height], cov ?? null]))}`;
}

/**
 * The bands of a catchment as a cells layer. One source: the band index, nearest band darkest.
 * Several (a marketshed): one hue per source ({@link SOURCE_HUES}), bands as shades of it (nearest
 * darkest); value = source * bands + band. With capacities (coverage, issue 24 item 6) only the
 * covered cells take their source's shades; the cells within reach that no capacity covers are
 * grey ({@link UNCOVERED_COLOUR}, value = sources * bands), and the legend lists the covered
 * shades of the sources with a capacity (> 0) only (the others' labels are empty: no cell takes them).
 * `view` 'within' (disjoint bands only) labels each shade by its band's upper limit, "≤ 120 min":
 * the cells within that time are its shade and the darker (nearer) ones; the colours are the same.
 */
export function catchmentLayer(r: CatchmentResult, grid: GridDef, view: BandView = 'band'): CellsLayer {
  const values = new Float64Array(grid.width * grid.height).fill(NaN);
  const c0 = r.grid.colOffset - grid.colOffset, r0 = r.grid.rowOffset - grid.rowOffset;
  const nb = r.bands.length;
  const many = perSource(r);
  const S = r.sources.length;
  const covered = r.coverage?.coveredCells;
  for (let y = 0; y < r.grid.height; y++) for (let x = 0; x < r.grid.width; x++) {
    const k = y * r.grid.width + x;
    const b = r.band[k];
    if (b < 0) continue;
    const v = !many ? b : covered && !covered[k] ? S * nb : Math.max(0, r.source[k]) * nb + b;
    values[(y + r0) * grid.width + x + c0] = v;
  }
  const colors: string[] = [], labels: string[] = [];
  const bandText = (b: CatchmentResult['bands'][number]) => (view === 'within' && !r.cumulative ? `≤ ${b.toMinutes} min` : `${b.label} min`);
  if (!many) {
    colors.push(...bandColours(r, 0));
    labels.push(...r.bands.map(bandText));
  } else {
    // With coverage only the covered cells take a source's shades: a source without a capacity has none, so no legend entry.
    const shown = (i: number) => !covered || (r.coverage?.sources?.[i]?.capacity ?? 0) > 0;
    r.sources.forEach((s, i) => { colors.push(...bandColours(r, i)); labels.push(...r.bands.map((b) => (shown(i) ? `${s.name}${covered ? ', covered' : ''}: ${bandText(b)}` : ''))); });
    if (covered) { colors.push(UNCOVERED_COLOUR); labels.push(`Within ${r.breaks[r.breaks.length - 1]} min, not covered`); }
  }
  return { values, palette: { kind: 'intervals', breaks: Array.from({ length: colors.length + 1 }, (_, i) => i - 0.5), colors, labels } };
}

/**
 * What a map export says of catchment bands: "Travel time from Nairobi" (or "from 3 sources"),
 * the friction surface and neighbourhood, and the band legend's heading.
 */
export function catchmentExportInfo(r: CatchmentResult): CellsExportInfo {
  const n = r.sources.length;
  const from = n === 1 ? r.sources[0].name : `${n} sources`;
  return {
    title: `${r.marketshed && n > 1 ? 'Marketsheds' : 'Travel time'} from ${from}`,
    subtitle: [`${r.friction.varLabel} (${r.friction.varCode})`, `${r.neighbours} neighbours`, r.coverage ? 'coverage with capacity' : ''].filter(Boolean).join(' · '),
    heading: n > 1 ? 'Nearest source and band, minutes' : 'Band, minutes',
    attribution: [`${r.friction.varCode}: ${r.friction.sourceMini || r.friction.sources}`],
    fileStem: 'catchment',
  };
}
