/**
 * The bands of a catchment (issues 19, 24) as a per-cell layer for the raster worker: one source
 * as band shades, several (marketsheds) as one hue per source with its bands as shades. Pure (no
 * DOM), so it is tested in Node; result-layers.ts re-exports it.
 */
import type { CatchmentResult } from '../core/api';
import type { GridDef } from '../core/grid';
import type { Palette } from '../core/map/palette';

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

/**
 * The bands of a catchment as a cells layer. One source: the band index, nearest band darkest.
 * Several (a marketshed): one hue per source ({@link SOURCE_HUES}), bands as shades of it (nearest
 * darkest); value = source * bands + band.
 */
export function catchmentLayer(r: CatchmentResult, grid: GridDef): CellsLayer {
  const values = new Float64Array(grid.width * grid.height).fill(NaN);
  const c0 = r.grid.colOffset - grid.colOffset, r0 = r.grid.rowOffset - grid.rowOffset;
  const nb = r.bands.length;
  const many = r.sources.length > 1 && !!r.source;
  for (let y = 0; y < r.grid.height; y++) for (let x = 0; x < r.grid.width; x++) {
    const k = y * r.grid.width + x;
    const b = r.band[k];
    if (b >= 0) values[(y + r0) * grid.width + x + c0] = many ? Math.max(0, r.source[k]) * nb + b : b;
  }
  if (!many) {
    const ramp = ['#49006a', '#7a0177', '#ae017e', '#dd3497', '#f768a1', '#fa9fb5', '#fcc5c0', '#fde0dd'];
    const palette: Palette = { kind: 'intervals', breaks: Array.from({ length: nb + 1 }, (_, i) => i - 0.5), colors: r.bands.map((_, i) => ramp[Math.round((i * (ramp.length - 1)) / Math.max(1, nb - 1))]), labels: r.bands.map((b) => `${b.label} min`) };
    return { values, palette };
  }
  const n = r.sources.length * nb;
  const colors: string[] = [], labels: string[] = [];
  r.sources.forEach((s, i) => r.bands.forEach((b, j) => {
    colors.push(tint(SOURCE_HUES[i % SOURCE_HUES.length], nb > 1 ? (0.7 * j) / (nb - 1) : 0));
    labels.push(`${s.name}: ${b.label} min`);
  }));
  return { values, palette: { kind: 'intervals', breaks: Array.from({ length: n + 1 }, (_, i) => i - 0.5), colors, labels } };
}
