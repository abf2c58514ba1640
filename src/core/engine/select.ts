/**
 * Cell selection of a query: countries or regions (`iso3`), CELL5M ids, or the cell weights of
 * a geometry, resolved into a window of the grid and its summary blocks.
 */
import type { PixelWindow } from '../cog/store';
import { IndapiError } from '../errors';
import { cellToColRow } from '../grid';
import type { SelectionUsed } from '../api';
import type { ClassEntry } from '../types';
import type { CellWeights } from '../wkt/raster';
import type { Ctx } from './context';
import { iso3Codes } from '../args';
import { deparse, SHORT } from '../r/deparse';

/** Most CELL5M ids a query may pass. */
export const MAX_IDS = 1_000_000;

/** A resolved selection of cells on the grid. */
export interface Selection {
  /** Pixel window of the grid read. */
  win: PixelWindow;
  /** Per window cell weight from a geometry (coverage fraction), or null. */
  weight: Float32Array | null;
  /** Per window cell 1 = requested cell id, or null. */
  mask: Uint8Array | null;
  /** ISO3 value -> summary block (-1: not selected). */
  isoBlock: Int32Array;
  /** Summary blocks: countries (sorted by ISO3) when per country, else one pool (null). */
  blocks: Array<ClassEntry | null>;
}

/** A selection of no cell (an empty window) with per-country or pooled blocks. */
export function emptySelection(perCountry: boolean): Selection {
  return { win: [0, 0, 0, 0], weight: null, mask: null, isoBlock: new Int32Array(0), blocks: perCountry ? [] : [null] };
}

/**
 * Resolves `iso3` / `ids` (or a geometry's cell weights) into a selection: the window, the
 * cell weights or id mask, and the summary blocks (one per country, or one pool).
 * @param perCountryDefault true / false forces blocks per country / one pool; null: countries
 *   give blocks per country, a region (or SSA, or ids) one pool
 * @throws IndapiError UNKNOWN_ISO3, BAD_ARGUMENT (ids not integers), TOO_LARGE (over MAX_IDS ids),
 *   EMPTY_SELECTION (no id on the grid)
 */
export function select(c: Ctx, args: { iso3?: unknown; ids?: unknown }, geom: CellWeights | null, perCountryDefault: boolean | null): Selection {
  const { grid, isoClasses } = c;
  const nIso = c.isoIndex.length;
  const full: PixelWindow = [0, 0, grid.width, grid.height];
  let iso3 = iso3Codes(args.iso3 ?? 'SSA');
  if (!iso3.length) iso3 = ['SSA'];
  const unknown = iso3.filter((s) => !c.cat.isoEntry(s));
  if (unknown.length) {
    throw new IndapiError('UNKNOWN_ISO3', `Unknown country or region code ${unknown.join(', ')}. Use ISO3 country codes of the bundle or the regions ${c.cat.iso.filter((e) => e.type === 'region').map((e) => e.code).join(', ')}.`, { codes: unknown });
  }
  const ids = args.ids === undefined || args.ids === null ? [] : Array.isArray(args.ids) ? args.ids : [args.ids];
  let members: Set<string> | null = null; // null = all
  let perCountry = false;
  if (ids.length === 0 && !iso3.includes('SSA')) {
    members = new Set<string>();
    let anyRegion = false;
    for (const s of iso3) {
      const e = c.cat.isoEntry(s)!;
      if (e.type === 'region') anyRegion = true;
      for (const m of e.members) members.add(m.toUpperCase());
    }
    perCountry = !anyRegion;
  }
  if (perCountryDefault !== null) perCountry = perCountryDefault;
  // summary blocks
  const isoBlock = new Int32Array(nIso).fill(-1);
  const blocks: Array<ClassEntry | null> = [];
  if (perCountry) {
    for (const e of isoClasses) {
      if (members && !members.has(e.label.toUpperCase())) continue;
      isoBlock[e.value] = blocks.length;
      blocks.push(e);
    }
  } else {
    blocks.push(null);
    for (const e of isoClasses) if (!members || members.has(e.label.toUpperCase())) isoBlock[e.value] = 0;
  }
  let win: PixelWindow = full;
  let mask: Uint8Array | null = null;
  let weight: Float32Array | null = null;
  if (geom) {
    win = geom.win;
    weight = geom.weight;
  } else if (ids.length) {
    if (ids.length > MAX_IDS) throw new IndapiError('TOO_LARGE', `At most ${MAX_IDS} cell ids may be given.`);
    const cells: number[] = [];
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const raw of ids) {
      const id = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
      if (typeof id !== 'number' || !Number.isInteger(id)) throw new IndapiError('BAD_ARGUMENT', `'ids' must be integer CELL5M ids, got ${raw === null ? 'NA' : deparse(raw, SHORT)}.`);
      const cr = cellToColRow(grid, id);
      if (!cr) continue;
      const [col, row] = cr;
      cells.push(col, row);
      if (col < x0) x0 = col; if (col > x1) x1 = col;
      if (row < y0) y0 = row; if (row > y1) y1 = row;
    }
    if (!cells.length) throw new IndapiError('EMPTY_SELECTION', 'None of the cell ids lies on the grid of the bundle.');
    win = [x0, y0, x1 + 1, y1 + 1];
    const w = x1 + 1 - x0;
    mask = new Uint8Array(w * (y1 + 1 - y0));
    for (let k = 0; k < cells.length; k += 2) mask[(cells[k + 1] - y0) * w + (cells[k] - x0)] = 1;
  } else if (members) {
    // union of member bboxes (degrees) -> pixel window
    let bx0 = Infinity, by0 = Infinity, bx1 = -Infinity, by1 = -Infinity;
    for (const m of members) {
      const e = c.cat.isoEntry(m);
      if (!e || !(e.bboxDeg[2] > e.bboxDeg[0])) continue;
      const cs = grid.cellSizeDeg;
      bx0 = Math.min(bx0, Math.floor((e.bboxDeg[0] - grid.xmin) / cs + 1e-6));
      bx1 = Math.max(bx1, Math.ceil((e.bboxDeg[2] - grid.xmin) / cs - 1e-6));
      by0 = Math.min(by0, Math.floor((grid.ymax - e.bboxDeg[3]) / cs + 1e-6));
      by1 = Math.max(by1, Math.ceil((grid.ymax - e.bboxDeg[1]) / cs - 1e-6));
    }
    if (bx0 === Infinity) win = [0, 0, 0, 0];
    else win = [Math.max(0, bx0), Math.max(0, by0), Math.min(grid.width, bx1), Math.min(grid.height, by1)];
  }
  return { win, weight, mask, isoBlock, blocks };
}

/**
 * A geometry selection without its weights: every cell the geometry touches counts once
 * (per-cell rows with `wkt` and `collapse = FALSE`: their by summaries are not coverage-weighted).
 */
export function unweighted(sel: Selection): Selection {
  if (!sel.weight) return sel;
  return { ...sel, weight: null, mask: Uint8Array.from(sel.weight, (w) => (w > 0 ? 1 : 0)) };
}

/** What a query selected, as returned to callers (`TableResult.selection`, `CellResult.selection`). */
export function selectionUsed(args: { iso3?: unknown; ids?: unknown; wkt?: unknown }, sel: Selection | null, pooled?: boolean): SelectionUsed {
  const hasIds = args.ids !== undefined && args.ids !== null && (!Array.isArray(args.ids) || args.ids.length > 0);
  const wkt = typeof args.wkt === 'string' && args.wkt !== '';
  const iso3 = hasIds || wkt ? [] : iso3Codes(args.iso3 ?? 'SSA');
  return { iso3: iso3.length || hasIds || wkt ? iso3 : ['SSA'], pooled: pooled ?? (sel ? sel.blocks[0] === null : false), ids: hasIds, wkt };
}
