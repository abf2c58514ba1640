/**
 * The choropleth of an upload's own polygons (the Areas panel's "Many polygons" job): each
 * shape coloured by the chosen column of its result row, in six quantile classes
 * (`quantileBreaks` of src/ui/choropleth.ts, the summaries' choropleth classes), with its
 * legend. A tiny store: the panel sets it, the map layer and the legend read it.
 */
import { useSyncExternalStore } from 'react';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import { fmtBreak, rampColors, type LegendEntry } from '../core/map/palette';
import type { Row } from '../core/types';
import { quantileBreaks } from '../ui/choropleth';

/** What the map shows for an upload. */
export interface UploadChoro {
  /** The shapes, each with `feature` (1-based) and `color` (CSS; absent: no value). */
  fc: FeatureCollection;
  /** Legend entries, low to high. */
  legend: LegendEntry[];
  /** Legend title. */
  title: string;
  /** The column mapped (a result column, e.g. `ELEVATION`). */
  column: string;
  /** Shapes without a value (drawn as outlines only). */
  missing: number;
}

let current: UploadChoro | null = null;
const subs = new Set<() => void>();

/** Shows (or with null hides) the upload's choropleth. */
export function setUploadChoro(c: UploadChoro | null): void {
  current = c;
  for (const f of subs) f();
}

/** The upload's choropleth on the map (a React hook). */
export function useUploadChoro(): UploadChoro | null {
  return useSyncExternalStore((f) => { subs.add(f); return () => { subs.delete(f); }; }, () => current);
}

/**
 * The choropleth of shapes by a result column.
 * @param geometries the shapes, EPSG:4326 degrees, numbered 1..n as the rows' `feature`
 * @param rows the job's rows (one per shape, `feature` its number)
 * @param column the value column
 * @param dec decimals of the legend's class bounds
 * @param title legend title
 */
export function uploadChoropleth(geometries: Geometry[], rows: Row[], column: string, dec: number, title: string): UploadChoro {
  const value = new Map<number, number>();
  for (const r of rows) {
    const v = r[column];
    if (typeof v === 'number' && Number.isFinite(v)) value.set(Number(r.feature), v);
  }
  const breaks = quantileBreaks([...value.values()], 6);
  const n = Math.max(1, breaks.length - 1);
  const colors = rampColors(n);
  const idx = (v: number) => {
    for (let i = 0; i < n; i++) if (v <= breaks[i + 1]) return i;
    return n - 1;
  };
  const features: Feature[] = geometries.map((geometry, i) => {
    const v = value.get(i + 1);
    return { type: 'Feature', geometry, properties: v === undefined ? { feature: i + 1 } : { feature: i + 1, color: colors[idx(v)] } };
  });
  const legend = value.size ? colors.map((c, i) => ({ color: c, label: breaks[i] === breaks[i + 1] ? fmtBreak(breaks[i], dec) : `${i === 0 ? '[' : '('}${fmtBreak(breaks[i], dec)}, ${fmtBreak(breaks[i + 1], dec)}]` })) : [];
  return { fc: { type: 'FeatureCollection', features }, legend, title, column, missing: geometries.length - value.size };
}
