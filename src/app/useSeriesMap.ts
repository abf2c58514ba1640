/**
 * The map of a series: which year (or change between two years) is drawn, from the URL state
 * (`year`, `chg`, `yfrom`). A national series is drawn as a choropleth on the country outlines
 * (its values read from `series/national.csv` by the page's bundle reader, the drawing code
 * src/ui/series-map.ts loaded on first use); a gridded series draws the COG of the year, its
 * member record (`v` follows the year), or the per-cell change between two years' COGs
 * ({@link GridChange}, drawn by ./useMapLayer.ts).
 */
import { useEffect, useMemo, useState } from 'react';
import type { NationalSeries } from '../core/bundle';
import type { VarRecord } from '../core/types';
import type { SeriesChoro } from '../ui/series-map';
import type { SeriesInfo } from '../ui/series-info';
import { bundleAt } from '../ui/bundle-files';
import { DATA_BASE } from './bundle';
import type { ChangeMode, UrlState } from './url-state';
import type { UrlUpdate } from './useUrlState';

/** The series on the map and its controls. */
export interface SeriesMap {
  /** The mapped record's series, or null when it is not one. */
  info: SeriesInfo | null;
  /** Years that can be drawn, increasing (a national series: the years its values file holds). */
  years: number[];
  /** The year drawn (the change's second year). */
  year: number | null;
  /** The change drawn, or null (the year's values). */
  change: ChangeMode | null;
  /** First year of the change. */
  from: number | null;
  /** The national series' choropleth (null: not a national series, or still loading). */
  choro: SeriesChoro | null;
  /** A gridded series' change map (the two years' member codes, earlier first), or null. */
  gridChange: GridChange | null;
  /** Why the series cannot be drawn, or null. */
  error: string | null;
  /** Draws another year. */
  setYear: (y: number) => void;
  /** Draws a change from `from` to the current year, or (null) the year's values. */
  setChange: (c: ChangeMode | null, from?: number) => void;
}

/** The change between two years of a gridded series, as the raster worker draws it (`styleCogChange`). */
export interface GridChange {
  /** `diff` (to - from) or `pct` (100 * (to - from) / from). */
  mode: ChangeMode;
  /** First (earlier) year and its member code. */
  from: number;
  codeFrom: string;
  /** Second (later) year and its member code. */
  to: number;
  codeTo: string;
}

/** The nearest of `years` to `y` (the last year when `y` is null). */
function nearest(years: number[], y: number | null): number | null {
  if (!years.length) return null;
  if (y === null) return years[years.length - 1];
  return years.reduce((b, x) => (Math.abs(x - y) < Math.abs(b - y) ? x : b), years[0]);
}

/**
 * The series map of the mapped record.
 * @param rec the mapped record
 * @param series the catalog's series by code (BundleData `series`)
 */
export function useSeriesMap(rec: VarRecord | undefined, series: Map<string, SeriesInfo>, state: UrlState, update: UrlUpdate): SeriesMap {
  const info = (rec && series.get(rec.varCode)) ?? null;
  const national = info?.kind === 'national' ? info.stem : null;
  const [table, setTable] = useState<NationalSeries | null>(null);
  const [draw, setDraw] = useState<typeof import('../ui/series-map') | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!national || (table && draw)) return;
    const ac = new AbortController();
    Promise.all([bundleAt(DATA_BASE).series(ac.signal), import('../ui/series-map')]).then(([s, m]) => {
      if (!s) throw new Error('the data bundle has no national series values (series/national.csv).');
      setTable(s.table); setDraw(m); setError(null);
    }).catch((e: unknown) => { if (!ac.signal.aborted) setError(`Cannot show the series: ${(e as Error).message}`); });
    return () => ac.abort();
  }, [national, table, draw]);
  const years = useMemo(() => (national ? table?.years.get(national) ?? [] : info?.years ?? []), [national, table, info]);
  const ownYear = info?.kind === 'gridded' ? [...info.members].find(([, c]) => c === rec?.varCode)?.[0] ?? null : null;
  const year = nearest(years, ownYear ?? state.year);
  const change = state.chg && years.length > 1 ? state.chg : null;
  let from = change ? nearest(years, state.yfrom ?? years[0]) : null;
  if (from !== null && from === year) from = years.find((y) => y !== year) ?? null;
  const choro = useMemo(() => {
    if (!national || !table || !draw || !rec || year === null) return null;
    if (change && from !== null) {
      const [a, b] = from < year ? [from, year] : [year, from]; // the change is always from the earlier year to the later
      return draw.seriesChangeChoro(rec, draw.changeValues(draw.yearValues(table, national, a), draw.yearValues(table, national, b), change), a, b, change);
    }
    return draw.seriesYearChoro(rec, draw.yearValues(table, national, year), year);
  }, [national, table, draw, rec, year, change, from]);
  const gridChange = useMemo((): GridChange | null => {
    if (info?.kind !== 'gridded' || !change || from === null || year === null) return null;
    const [a, b] = from < year ? [from, year] : [year, from];
    const codeFrom = info.members.get(a), codeTo = info.members.get(b);
    return codeFrom && codeTo ? { mode: change, from: a, codeFrom, to: b, codeTo } : null;
  }, [info, change, from, year]);
  const setYear = (y: number) => {
    const code = info?.kind === 'gridded' ? info.members.get(y) : undefined;
    update(code ? { v: code, year: y } : { year: y }, { replace: true });
  };
  const setChange = (c: ChangeMode | null, f?: number) => update({ chg: c, yfrom: c ? f ?? from ?? years[0] ?? null : null });
  return { info, years, year, change, from, choro, gridChange, error: national ? error : null, setYear, setChange };
}
