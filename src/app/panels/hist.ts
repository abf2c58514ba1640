/**
 * Histograms of an indicator over the selection (pure): cell counts and area (km²) in equal
 * bins between the minimum and maximum, from the engine's per-cell values.
 */
import type { CellResult } from '../../core/api';
import { cellAreaKm2 } from '../../core/area';
import { fmtNum } from './common';

/** Bins of the histogram: 10, as the engine's `hist` statistic. */
export const HIST_BINS = 10;

export { cellAreaKm2, quadAreaKm2 } from '../../core/area';

/** A group of the selection to draw one histogram of: its name and member ISO3 codes (null: every selected cell). */
export interface HistGroup { name: string; members: ReadonlySet<string> | null }

/** One bin: [lo, hi) (the last one closed), cells with a value in it, and their area (km²). */
export interface HistBin { lo: number; hi: number; cells: number; km2: number }

/** A group's histogram; empty `bins` when the group has no cell with a value. */
export interface Histogram { name: string; min: number; max: number; bins: HistBin[] }

/**
 * Histograms of layer `layer` of a per-cell result, one per group: `n` equal-width bins
 * between the group's minimum and maximum, a value v in bin floor((v − min) / width) (the
 * maximum in the last bin), as the engine's `hist` statistic counts them (one bin when
 * min = max, where the engine puts every cell in the first of ten); each cell also adds its area (km², {@link cellAreaKm2} of its row).
 * Groups by the result's ISO3 key layer (`keys[0]`); without it every group gets all cells.
 */
export function cellHistograms(cells: CellResult, groups: HistGroup[], layer = 0, n = HIST_BINS): Histogram[] {
  const { grid, mask } = cells;
  const vals = cells.layers[layer]?.values;
  const isoKey = cells.keys?.find((k) => k.code === 'ISO3');
  const isoLabel = new Map((isoKey?.classes ?? []).map((c) => [c.value, String(c.label).toUpperCase()]));
  const area = Float64Array.from({ length: grid.height }, (_, r) => cellAreaKm2(grid.rowOffset + r));
  return groups.map((g) => {
    const inGroup = (i: number) => {
      if (!g.members || !isoKey) return true;
      const lab = isoLabel.get(isoKey.values[i]);
      return lab !== undefined && g.members.has(lab);
    };
    let min = Infinity, max = -Infinity;
    const idx: number[] = [];
    if (vals) {
      for (let i = 0; i < vals.length; i++) {
        const v = vals[i];
        if (!mask[i] || !Number.isFinite(v) || !inGroup(i)) continue;
        idx.push(i);
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
    if (!idx.length) return { name: g.name, min: NaN, max: NaN, bins: [] };
    // one value everywhere: one bin (ten would share one label)
    const nb = max > min ? n : 1;
    const w = (max - min) / nb;
    const bins: HistBin[] = Array.from({ length: nb }, (_, k) => ({ lo: min + k * w, hi: k === nb - 1 ? max : min + (k + 1) * w, cells: 0, km2: 0 }));
    for (const i of idx) {
      const b = w > 0 ? Math.min(nb - 1, Math.floor((vals![i] - min) / w)) : 0;
      bins[b].cells++;
      bins[b].km2 += area[Math.floor(i / grid.width)];
    }
    return { name: g.name, min, max, bins };
  });
}

/** What a histogram's bars measure: area of the cells (km²) or the number of cells. */
export type HistMeasure = 'km2' | 'cells';

/**
 * Bars of a histogram: one row per bin, labelled "a – b" (with `dec` decimals), with `cells`
 * and `km2` (rounded to 0.1 km²). Empty for a group without values.
 */
export function histBars(h: Histogram, dec: number): Array<{ bin: string; cells: number; km2: number }> {
  return h.bins.map((b) => ({ bin: `${fmtNum(b.lo, dec)} – ${fmtNum(b.hi, dec)}`, cells: b.cells, km2: Math.round(b.km2 * 10) / 10 }));
}
