/**
 * The deployment's `config.json`, next to `index.html`, read once at startup before the app
 * renders:
 *
 * ```json
 * { "dataUrl": "./data/", "cacheMB": 200 }
 * ```
 *
 * - `dataUrl`: where the data bundle lives (manifest.json, vi.csv, cog/...): a path relative
 *   to config.json (default `./data/`) or an absolute http(s) URL of a static host or CDN
 *   that answers range requests and allows CORS (see README "Deploy").
 * - `cacheMB`: budget of the service worker's cache of COG blocks in MiB (default: 200 MiB,
 *   at most half of the storage quota).
 *
 * - `basemaps`: optional online raster basemaps (XYZ tiles) the map's basemap control offers
 *   besides the bundled offline one: `[{ "id": "osm", "label": "OpenStreetMap",
 *   "tiles": ["https://tile.openstreetmap.org/{z}/{x}/{y}.png"], "attribution": "© OpenStreetMap
 *   contributors", "tileSize": 256, "maxzoom": 19 }]`. An entry without an id, label or https
 *   tile URL with {z}, {x} and {y} is left out (with `error` set). Offline, or when its tiles
 *   fail, the map falls back to the bundled basemap.
 *
 * The app's workers get the bundle URL from the app; the service worker reads config.json
 * itself (workers/sw.ts).
 */

/** Parsed config.json. */
export interface AppConfig {
  /** Bundle root, absolute URL ending in "/". */
  dataUrl: string;
  /** Block cache budget in MiB, when set. */
  cacheMB?: number;
  /** Online raster basemaps offered besides the bundled one (none when not configured). */
  basemaps?: OnlineBasemap[];
  /** A problem reading config.json (the defaults are used), for the status line. */
  error?: string;
}

/** An online raster basemap of config.json (XYZ tiles in Web Mercator). */
export interface OnlineBasemap {
  /** Identifier, e.g. "osm". */
  id: string;
  /** Name in the basemap control, e.g. "OpenStreetMap". */
  label: string;
  /** https tile URL templates with {z}, {x}, {y}. */
  tiles: string[];
  /** Attribution shown on the map and in exports. */
  attribution: string;
  /** Tile size in px (default 256). */
  tileSize: number;
  /** Highest zoom of the tiles (default 19). */
  maxzoom: number;
}

/**
 * The valid entries of config.json's `basemaps` (see the module comment).
 * @returns the basemaps and a message naming the entries left out ('' when none)
 */
export function parseBasemaps(raw: unknown): { basemaps: OnlineBasemap[]; error: string } {
  if (raw === undefined) return { basemaps: [], error: '' };
  if (!Array.isArray(raw)) return { basemaps: [], error: 'config.json: basemaps must be a list; no online basemap.' };
  const out: OnlineBasemap[] = [];
  const bad: number[] = [];
  raw.forEach((b: unknown, i) => {
    const o = (b && typeof b === 'object' ? b : {}) as Record<string, unknown>;
    const tiles = Array.isArray(o.tiles) ? o.tiles.filter((t): t is string => typeof t === 'string' && /^https:\/\//.test(t) && ['{z}', '{x}', '{y}'].every((k) => t.includes(k))) : [];
    if (typeof o.id !== 'string' || !o.id || o.id === 'bundled' || typeof o.label !== 'string' || !o.label || !tiles.length) { bad.push(i + 1); return; }
    out.push({
      id: o.id, label: o.label, tiles, attribution: typeof o.attribution === 'string' ? o.attribution : '',
      tileSize: o.tileSize === 512 ? 512 : 256, maxzoom: typeof o.maxzoom === 'number' && o.maxzoom > 0 ? Math.min(o.maxzoom, 22) : 19,
    });
  });
  return { basemaps: out, error: bad.length ? `config.json: basemaps entr${bad.length > 1 ? 'ies' : 'y'} ${bad.join(', ')} left out (id, label and https tiles with {z}, {x}, {y} are needed).` : '' };
}

/**
 * Resolves and checks a config object against the URL of config.json.
 * @returns the config; a bad `dataUrl` (not a string, not http(s)) falls back to `./data/` with `error` set
 */
export function parseConfig(raw: unknown, configUrl: string): AppConfig {
  const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  let error: string | undefined;
  let rel = './data/';
  if (typeof o.dataUrl === 'string' && o.dataUrl.trim()) rel = o.dataUrl.trim();
  else if (o.dataUrl !== undefined) error = 'config.json: dataUrl must be a string URL; using ./data/.';
  let url: URL;
  try {
    url = new URL(rel, configUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(url.protocol);
  } catch {
    error = `config.json: dataUrl "${rel}" is not an http(s) URL; using ./data/.`;
    url = new URL('./data/', configUrl);
  }
  let dataUrl = url.href.split('#')[0];
  if (!dataUrl.endsWith('/')) dataUrl += '/';
  const cacheMB = typeof o.cacheMB === 'number' && o.cacheMB > 0 ? o.cacheMB : undefined;
  const bm = parseBasemaps(o.basemaps);
  if (bm.error) error = error ? `${error} ${bm.error}` : bm.error;
  return { dataUrl, cacheMB, error, basemaps: bm.basemaps.length ? bm.basemaps : undefined };
}

/**
 * Fetches `config.json` next to the page (no-cache: revalidated every start).
 * A missing file (404) or a network failure gives the defaults.
 */
export async function fetchConfig(baseUri: string, signal?: AbortSignal): Promise<AppConfig> {
  const configUrl = new URL('config.json', baseUri).href;
  try {
    const res = await fetch(configUrl, { cache: 'no-cache', signal });
    if (res.status === 404) return parseConfig({}, configUrl);
    if (!res.ok) return { ...parseConfig({}, configUrl), error: `config.json: HTTP ${res.status}; using ./data/.` };
    return parseConfig(await res.json(), configUrl);
  } catch (e) {
    return { ...parseConfig({}, configUrl), error: `config.json unreadable (${(e as Error).message}); using ./data/.` };
  }
}
