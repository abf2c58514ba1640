/**
 * The files a bundle's manifest lists (`manifest.json` `files[].path`), read once per bundle
 * root: the map asks for optional files (basemap/admin1.geojson, basemap/admin2.geojson) only
 * when the manifest lists them, so a bundle without them causes no failed request.
 */
import { parseManifest } from '../core/bundle';

const lists = new Map<string, Promise<Set<string> | null>>();

/**
 * Paths of the files of the bundle at `dataBase` (URL ending in "/"), or null when the
 * manifest cannot be read or has no `files` list (callers then keep their defaults).
 * Never rejects.
 */
export function bundleFiles(dataBase: string): Promise<Set<string> | null> {
  let p = lists.get(dataBase);
  if (!p) {
    p = fetch(new URL('manifest.json', dataBase))
      .then((r) => (r.ok ? r.text() : null))
      .then((t) => { const files = t === null ? [] : parseManifest(t).files; return files.length ? new Set(files.map((f) => String(f.path))) : null; })
      .catch(() => null);
    lists.set(dataBase, p);
  }
  return p;
}
