/**
 * Small bundle files the app reads itself: `vi.csv` (the catalog), `iso.csv` (countries and
 * regions) and the manifest (bundle version for the update prompt). The page reads the
 * catalog itself rather than through the engine worker: the first map needs only the mapped
 * layer's record, and the engine worker's script (83 KB brotli) then waits until after the
 * first map (issue 17: nothing the first map does not need comes before it).
 */
import { parseIso, parseManifest } from '../core/bundle';
import { parseVi } from '../core/bundle';
import type { VarRecord } from '../core/types';
import { IndapiError } from '../core/errors';
import type { IsoEntry } from '../core/types';
import { gridFromManifest, SSA_GRID, type GridDef } from '../core/grid';
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

/** The message for a bundle file that cannot be read: the service worker's text when it sent one (offline, partial bundle), else the status. */
async function readFailure(what: string, r: Response): Promise<IndapiError> {
  const code = r.headers.get('x-indapi3-error');
  if (code === 'OFFLINE' || code === 'BAD_BUNDLE') return new IndapiError(code, (await r.text()).trim());
  if (r.status === 404) return new IndapiError('BAD_BUNDLE', `There is no data bundle at ${DATA_BASE} (${what}: HTTP 404). Check the dataUrl of config.json or the server's DATA_DIR.`);
  return new IndapiError('IO', `Cannot read ${what} of the data bundle at ${DATA_BASE} (HTTP ${r.status}).`);
}


/**
 * Loads the catalog, `vi.csv` of the bundle, with the bundle's one parser (the records the
 * engine's `catalog()` gives).
 * @throws IndapiError IO, OFFLINE or BAD_BUNDLE when it cannot be read; BAD_BUNDLE when it has no ISO3 layer (the country mask)
 */
export async function loadCatalog(signal?: AbortSignal): Promise<VarRecord[]> {
  const r = await fetch(new URL('vi.csv', DATA_BASE), { signal });
  if (!r.ok) throw await readFailure('vi.csv', r);
  const records = parseVi(await r.text());
  if (!records.some((x) => x.varCode === 'ISO3')) throw new IndapiError('BAD_BUNDLE', `The catalog of the data bundle at ${DATA_BASE} has no ISO3 layer (the country mask).`);
  return records;
}

/** TanStack Query options of the catalog (one cache entry for every panel). */
export const catalogQuery = { queryKey: ['catalog'], queryFn: ({ signal }: { signal?: AbortSignal }) => loadCatalog(signal), staleTime: Infinity, retry: 1 } as const;

/** Loads iso.csv of the bundle. @throws IndapiError IO, OFFLINE or BAD_BUNDLE */
export async function loadIso(signal?: AbortSignal): Promise<IsoEntry[]> {
  const r = await fetch(new URL('iso.csv', DATA_BASE), { signal });
  if (!r.ok) throw await readFailure('iso.csv', r);
  return parseIso(await r.text());
}

/** The bundle manifest's version fields. */
export interface ManifestInfo { name: string; version: string; created: string }

/** Loads the manifest. @throws IndapiError IO, OFFLINE or BAD_BUNDLE */
export async function loadManifest(signal?: AbortSignal): Promise<ManifestInfo> {
  const r = await fetch(new URL('manifest.json', DATA_BASE), { signal });
  if (!r.ok) throw await readFailure('manifest.json', r);
  const j = parseManifest(await r.text());
  return { name: j.name, version: j.version, created: j.created ?? '' };
}

/**
 * The bundle's window (manifest.json `grid`, checked against the 5-arc-minute lattice); the
 * embedded bundle's SSA_GRID when the manifest has none.
 * @throws IndapiError IO, OFFLINE or BAD_BUNDLE when the manifest cannot be read
 */
export async function loadGrid(signal?: AbortSignal): Promise<GridDef> {
  const r = await fetch(new URL('manifest.json', DATA_BASE), { signal });
  if (!r.ok) throw await readFailure('manifest.json', r);
  return gridFromManifest((await r.json())?.grid, SSA_GRID);
}
