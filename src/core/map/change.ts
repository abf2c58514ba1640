/**
 * The change between two years of a series, one owner for the map: per value (a country of a
 * national series, a cell of a gridded one) and per grid level, with its diverging classes.
 * Pure: no DOM.
 *
 * - `diff` = to - from, in the layer's unit; `pct` = 100 * (to - from) / from, in % (no value
 *   where `from` is 0). A value missing in either year gives no change (NaN), never an
 *   interpolated one. These are the API's `change` formulas (src/core/engine/years.ts).
 * - Classes: ./diverging.ts (apart, so that the page's first load, which needs only the codes
 *   and units here, does not carry the colour scheme's library).
 */
import { IndapiError } from '../errors';
import type { RasterLevel } from './mercator';
import type { VarRecord } from '../types';

/** Change modes: the API's `change`. */
export type ChangeMode = 'diff' | 'pct';

/**
 * The change from `from` to `to`: `diff` = to - from (their unit), `pct` = 100 * (to - from) / from (%).
 * @returns NaN when either value is missing (NaN, infinite) or, for `pct`, `from` is 0
 */
export function changeOf(from: number, to: number, mode: ChangeMode): number {
  if (!Number.isFinite(from) || !Number.isFinite(to) || (mode === 'pct' && from === 0)) return NaN;
  return mode === 'diff' ? to - from : (100 * (to - from)) / from;
}

/**
 * The per-cell change of two grids of the same shape ({@link changeOf} cell by cell).
 * @param from values of the first year, row-major (NaN = no data)
 * @param to values of the second year, same length and cell order
 * @returns Float64Array of the changes (NaN = no change: a missing value or a pct from 0)
 * @throws IndapiError BAD_ARGUMENT when the lengths differ (not the same grid)
 */
export function changeCells(from: ArrayLike<number>, to: ArrayLike<number>, mode: ChangeMode): Float64Array {
  if (from.length !== to.length) throw new IndapiError('BAD_ARGUMENT', `The two years are not on the same grid (${from.length} and ${to.length} cells).`);
  const out = new Float64Array(to.length);
  for (let i = 0; i < out.length; i++) out[i] = changeOf(from[i], to[i], mode);
  return out;
}

/**
 * The change between two levels of the same grid (same width, height and bounds, degrees).
 * @throws IndapiError BAD_ARGUMENT when the levels are not the same grid
 */
export function changeLevel(from: RasterLevel, to: RasterLevel, mode: ChangeMode): RasterLevel {
  const same = from.width === to.width && from.height === to.height && from.bbox.every((x, i) => Math.abs(x - to.bbox[i]) < 1e-9);
  if (!same) throw new IndapiError('BAD_ARGUMENT', `The two years are not on the same grid (${from.width} x ${from.height} and ${to.width} x ${to.height} cells).`);
  return { width: to.width, height: to.height, bbox: to.bbox, values: changeCells(from.values, to.values, mode) };
}

/** Decimals of a change's values: 1 for `pct`, else the layer's `dec`. */
export function changeDec(mode: ChangeMode, dec: number): number {
  return mode === 'pct' ? 1 : Number(dec) || 0;
}

/** Unit of a change: "% change" for `pct`, else the layer's unit. */
export function changeUnit(mode: ChangeMode, unit: string): string {
  return mode === 'pct' ? '% change' : unit;
}

/** A year at the end of a label ("NDVI, 2010", "NDVI (2010)", "NDVI 2010"): a series member's label carries its own year. */
const LABEL_YEAR = /,? \(?\d{4}\)?$/;

/**
 * The title of a change map (legend, map export): "Change of <label>, <from>–<to>" for `diff`,
 * "Change (%) of <label>, <from>–<to>" for `pct` (en dash; a year the label ends with is dropped).
 * @param label the series' label (`varLabel` of the series or of one of its years)
 * @param from first year; @param to second year
 */
export function changeTitle(label: string, mode: ChangeMode, from: number, to: number): string {
  return `${mode === 'pct' ? 'Change (%)' : 'Change'} of ${label.replace(LABEL_YEAR, '')}, ${from}–${to}`;
}

/**
 * The record a gridded change map is shown with (legend, hover, map export): the series member's
 * record with the change's title as `varLabel` ({@link changeTitle}), its unit ({@link changeUnit})
 * and decimals ({@link changeDec}), and the two years as `year`–`yearEnd`. Code and sources stay.
 * @param rec the record of one year of the series
 * @param from first year; @param to second year
 */
export function changeRecord(rec: VarRecord, mode: ChangeMode, from: number, to: number): VarRecord {
  return { ...rec, varLabel: changeTitle(rec.varLabel, mode, from, to), unit: changeUnit(mode, rec.unit), dec: changeDec(mode, rec.dec), year: String(from), yearEnd: String(to) };
}

/** The heading of a change map's legend (map export): "Change <from>–<to>" (the caller adds the unit). */
export function changeHeading(from: number, to: number): string {
  return `Change ${from}–${to}`;
}

/** The separator of a change layer's code (no catalog code holds it). */
const SEP = '~';

/**
 * The code under which the raster worker holds the change between two COGs of a gridded series
 * (its hover and tiles read it as a layer): `change~<mode>~<codeFrom>~<codeTo>`.
 */
export function changeLayerCode(mode: ChangeMode, codeFrom: string, codeTo: string): string {
  return ['change', mode, codeFrom, codeTo].join(SEP);
}

/** The parts of a {@link changeLayerCode}, or null when `code` is not one. */
export function parseChangeLayerCode(code: string): { mode: ChangeMode; codeFrom: string; codeTo: string } | null {
  const p = code.split(SEP);
  if (p.length !== 4 || p[0] !== 'change' || (p[1] !== 'diff' && p[1] !== 'pct') || !p[2] || !p[3]) return null;
  return { mode: p[1], codeFrom: p[2], codeTo: p[3] };
}
