/**
 * The bundle's small files the app shell reads: catalog, countries and regions, and the
 * grid's window (an ingested bundle's comes from its table), through TanStack Query.
 */
import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { IsoEntry, VarRecord } from '../core/types';
import { SSA_GRID, type GridDef } from '../core/grid';
import type { SeriesInfo } from '../ui/series-info';
import { DATA_BASE, catalogQuery, loadGrid, loadIso } from './bundle';
import { getRaster } from './services';
import type { UrlState } from './url-state';
import type { UrlUpdate } from './useUrlState';

/** What the shell knows of the bundle (empty lists while loading). */
export interface BundleData {
  /** Catalog records in catalog order. */
  catalog: VarRecord[];
  /** Series of the catalog by every code belonging to one (src/ui/series-catalog.ts; empty until its code has loaded, after the catalog). */
  series: Map<string, SeriesInfo>;
  /** Catalog records by code. */
  byCode: Map<string, VarRecord>;
  /** Countries and regions. */
  iso: IsoEntry[];
  /** The bundle's grid (SSA_GRID until its own is read). */
  grid: GridDef;
  /** The grid's bounds [w, s, e, n], degrees: the map's bounds. */
  gridBounds: [number, number, number, number];
  /** The catalog is loading. */
  loading: boolean;
  /** The catalog failed to load. */
  error: Error | null;
}

/** Reads the catalog, the country list and the grid. */
export function useBundleData(): BundleData {
  const catalogQ = useQuery(catalogQuery);
  const isoQ = useQuery({ queryKey: ['iso'], queryFn: ({ signal }) => loadIso(signal), staleTime: Infinity, retry: 1 });
  const gridQ = useQuery({ queryKey: ['grid', DATA_BASE], queryFn: ({ signal }) => loadGrid(signal), staleTime: Infinity, retry: 1 });
  const grid = gridQ.data ?? SSA_GRID;
  const gridBounds = useMemo((): [number, number, number, number] => [grid.xmin, grid.ymin, grid.xmax, grid.ymax], [grid]);
  const catalog = useMemo(() => catalogQ.data ?? [], [catalogQ.data]);
  const iso = useMemo(() => isoQ.data ?? [], [isoQ.data]);
  const byCode = useMemo(() => new Map(catalog.map((r) => [r.varCode, r])), [catalog]);
  const series = useCatalogSeries(catalog);
  return { catalog, byCode, series, iso, grid, gridBounds, loading: catalogQ.isLoading, error: catalogQ.error };
}

/**
 * The first layer: the raster worker starts reading the link's layer (or ELEVATION) while the
 * catalog loads, and a first visit (no hash) maps ELEVATION, else the catalog's first record.
 */
export function useFirstLayer(state: UrlState, update: UrlUpdate, data: BundleData): void {
  useEffect(() => { void getRaster().prefetch(state.v ?? 'ELEVATION', 3).catch(() => undefined); }, []);
  const { catalog, byCode } = data;
  useEffect(() => {
    if (!state.v && catalog.length && !location.hash) update({ v: byCode.has('ELEVATION') ? 'ELEVATION' : catalog[0].varCode }, { replace: true });
  }, [catalog]);
}

const NO_SERIES = new Map<string, SeriesInfo>();

/** The catalog's series, worked out by code loaded once the catalog is there (not in the first load); empty meanwhile or if that code fails to load. */
function useCatalogSeries(catalog: VarRecord[]): Map<string, SeriesInfo> {
  const [series, setSeries] = useState(NO_SERIES);
  useEffect(() => {
    if (!catalog.length) return;
    let live = true;
    import('../ui/series-catalog').then((m) => { if (live) setSeries(m.catalogSeries(catalog)); }, () => undefined);
    return () => { live = false; };
  }, [catalog]);
  return series;
}
