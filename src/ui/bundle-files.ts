/**
 * The page's reader of the data bundle: one {@link Bundle} (src/core/bundle/open.ts) per bundle
 * root, over `fetch` (answered by the service worker when it is active), so the catalog, the
 * countries, the manifest and the outlines are each fetched once per page. Failures keep the
 * service worker's message (offline, partial bundle) or name the missing bundle.
 */
import { bundleUrl, openBundle, type Bundle } from '../core/bundle';
import { IndapiError } from '../core/errors';

const bundles = new Map<string, Bundle>();

/**
 * The error for a bundle file that cannot be read: the service worker's text when it sent one
 * (OFFLINE, BAD_BUNDLE), BAD_BUNDLE for a missing file (HTTP 404), else IO with the status.
 */
async function readFailure(dataBase: string, what: string, r: Response): Promise<IndapiError> {
  const code = r.headers.get('x-indapi3-error');
  if (code === 'OFFLINE' || code === 'BAD_BUNDLE') return new IndapiError(code, (await r.text()).trim());
  if (r.status === 404) return new IndapiError('BAD_BUNDLE', `There is no data bundle at ${dataBase} (${what}: HTTP 404). Check the dataUrl of config.json or the server's DATA_DIR.`);
  return new IndapiError('IO', `Cannot read ${what} of the data bundle at ${dataBase} (HTTP ${r.status}).`);
}

/**
 * The reader of the bundle at `dataBase` (URL ending in "/"), made once per root.
 * Its loader throws IndapiError OFFLINE, BAD_BUNDLE or IO as {@link readFailure} says, ABORTED on abort.
 */
export function bundleAt(dataBase: string): Bundle {
  let b = bundles.get(dataBase);
  if (!b) {
    b = openBundle({
      text: async (rel, signal) => {
        let r: Response;
        try {
          r = await fetch(bundleUrl(dataBase, rel), { signal });
        } catch (e) {
          if (signal?.aborted) throw new IndapiError('ABORTED', 'The request was aborted.');
          throw new IndapiError('IO', `Cannot read ${rel} of the data bundle at ${dataBase}: ${(e as Error).message}`);
        }
        if (!r.ok) throw await readFailure(dataBase, rel, r);
        return r.text();
      },
    });
    bundles.set(dataBase, b);
  }
  return b;
}

/**
 * Paths of the files of the bundle at `dataBase` (URL ending in "/"), or null when the
 * manifest cannot be read or has no `files` list (callers then keep their defaults): the map
 * asks for optional files (basemap/admin1.geojson, basemap/admin2.geojson) only when listed.
 * Never rejects.
 */
export function bundleFiles(dataBase: string): Promise<Set<string> | null> {
  return bundleAt(dataBase).files();
}
