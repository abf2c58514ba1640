/**
 * Small bundle files the app reads itself, through the page's bundle reader
 * (src/ui/bundle-files.ts, over src/core/bundle's `openBundle`): `vi.csv` (the catalog), `iso.csv`
 * (countries and regions) and the manifest (grid; bundle version for the update prompt). The page reads the
 * catalog itself rather than through the engine worker: the first map needs only the mapped
 * layer's record, and the engine worker's script (83 KB brotli) then waits until after the
 * first map (issue 17: nothing the first map does not need comes before it).
 */
import { IndapiError } from '../core/errors';
import type { GridDef } from '../core/grid';
import type { IsoEntry, VarRecord } from '../core/types';
import { bundleAt } from '../ui/bundle-files';
import { classTablePath, SERIES_CATALOG_PATH } from '../core/bundle';
import type { OnlineBasemap } from './config';

/**
 * Bundle root URL, ending in "/": config.json's `dataUrl` (default `<app base>/data/`).
 * A live binding: set by {@link setDataBase} at startup (src/app/main.tsx) before the app renders.
 */
export let DATA_BASE = new URL('data/', document.baseURI).href;

/** Online basemaps of config.json (none by default); set at startup by {@link setBasemaps}. */
export let ONLINE_BASEMAPS: OnlineBasemap[] = [];

/** Sets {@link ONLINE_BASEMAPS}; call before the app renders. */
export function setBasemaps(b: OnlineBasemap[]): void {
  ONLINE_BASEMAPS = b;
}

/** Sets {@link DATA_BASE} (absolute URL ending in "/"); call before the app renders. */
export function setDataBase(url: string): void {
  DATA_BASE = url;
}

/**
 * Loads the catalog with the bundle's reader: `vi.csv` (the records the engine's `catalog()`
 * gives), then the national series' records (`series/vi.csv`, read in parallel; none when the
 * manifest does not list it), as `category()` lists them.
 * @throws IndapiError IO, OFFLINE or BAD_BUNDLE when it cannot be read; BAD_BUNDLE when it has no ISO3 layer (the country mask)
 */
export async function loadCatalog(signal?: AbortSignal): Promise<VarRecord[]> {
  const b = bundleAt(DATA_BASE);
  const [records, national] = await Promise.all([b.catalog(signal), b.seriesCatalog(signal)]);
  if (!records.some((x) => x.varCode === 'ISO3')) throw new IndapiError('BAD_BUNDLE', `The catalog of the data bundle at ${DATA_BASE} has no ISO3 layer (the country mask).`);
  const own = new Set(records.map((r) => r.varCode));
  return [...records, ...national.filter((r) => !own.has(r.varCode))];
}

/**
 * The bundle's text files the page reads for its own lists (the catalog, `series/vi.csv` when
 * the manifest lists it, countries, manifest), each read once by the page's bundle reader
 * (shared with {@link loadCatalog}, {@link loadIso}, {@link loadGrid}), and the country class
 * table (`classes/ISO3.csv`), which every engine query reads before its layers: what the engine
 * worker takes from the page instead of reading them itself (src/app/engine-client.ts `seeds`),
 * the class table then read while the worker's script downloads (about 1 s on 1.6 Mbps) rather
 * than after it. A text rejects when the page cannot read it (or the manifest does not list
 * `series/vi.csv`).
 */
export function pageTexts(): Array<{ rel: string; text: Promise<string> }> {
  const b = bundleAt(DATA_BASE);
  const listed = (rel: string) => b.files().then((l) => (l?.has(rel) ? b.text(rel) : Promise.reject(new IndapiError('NOT_FOUND', `${rel} is not in the bundle.`))));
  const texts = ['manifest.json', 'vi.csv', 'iso.csv', classTablePath('ISO3')].map((rel) => ({ rel, text: b.text(rel) }));
  return [...texts, { rel: SERIES_CATALOG_PATH, text: listed(SERIES_CATALOG_PATH) }];
}

/** TanStack Query options of the catalog (one cache entry for every panel). */
export const catalogQuery = { queryKey: ['catalog'], queryFn: ({ signal }: { signal?: AbortSignal }) => loadCatalog(signal), staleTime: Infinity, retry: 1 } as const;

/**
 * The class labels of class layer `code` in class-table order, read by the page's bundle reader
 * (once per page): the Table's and the Summaries' key order. Read here rather than asked of the
 * map's raster worker, where the request waited behind the tiles it was drawing (0.5 s on the
 * first table after the first map).
 * @throws IndapiError IO, OFFLINE or BAD_BUNDLE when the table cannot be read
 */
export async function loadClassLabels(code: string, signal?: AbortSignal): Promise<string[]> {
  return (await bundleAt(DATA_BASE).classTable(code, signal)).map((e) => String(e.label));
}

/** Loads iso.csv of the bundle. @throws IndapiError IO, OFFLINE or BAD_BUNDLE */
export async function loadIso(signal?: AbortSignal): Promise<IsoEntry[]> {
  return bundleAt(DATA_BASE).iso(signal);
}

/** The bundle manifest's version fields. */
export interface ManifestInfo { name: string; version: string; created: string }

/** Loads the manifest. @throws IndapiError IO, OFFLINE or BAD_BUNDLE */
export async function loadManifest(signal?: AbortSignal): Promise<ManifestInfo> {
  const j = await bundleAt(DATA_BASE).manifest(signal);
  return { name: j.name, version: j.version, created: j.created ?? '' };
}

/**
 * The bundle's window (manifest.json `grid`, checked against the 5-arc-minute lattice); the
 * embedded bundle's SSA_GRID when the manifest has none.
 * @throws IndapiError IO, OFFLINE or BAD_BUNDLE when the manifest cannot be read
 */
export async function loadGrid(signal?: AbortSignal): Promise<GridDef> {
  return bundleAt(DATA_BASE).grid(signal);
}
