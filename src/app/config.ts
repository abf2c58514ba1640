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
 * The app's workers get the bundle URL from the app; the service worker reads config.json
 * itself (workers/sw.ts).
 */

/** Parsed config.json. */
export interface AppConfig {
  /** Bundle root, absolute URL ending in "/". */
  dataUrl: string;
  /** Block cache budget in MiB, when set. */
  cacheMB?: number;
  /** A problem reading config.json (the defaults are used), for the status line. */
  error?: string;
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
  return { dataUrl, cacheMB, error };
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
