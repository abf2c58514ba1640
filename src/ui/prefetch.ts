/**
 * Bundle JSON files fetched early, before the code that uses them has loaded: the app's
 * start (src/app/main.tsx) asks for the country outlines as soon as it knows the bundle's
 * location, while MapLibre is still downloading; the map then gets the parsed GeoJSON
 * instead of starting its own request from its worker once it runs. On a 150 ms RTT link at
 * 1.6 Mbps that request (74 KB brotli) was the last step before the first map
 * (bench/first-visit.ts with FV_WATERFALL=1).
 */

/** Early fetches by absolute URL: the parsed JSON, or a rejection with the failure. */
const started = new Map<string, Promise<unknown>>();

/**
 * Starts fetching and parsing the JSON file at `url` (absolute) unless already started.
 * Failures are kept for {@link prefetchedJson}'s caller, never thrown here.
 */
export function prefetchJson(url: string): void {
  if (started.has(url)) return;
  const p = fetch(url).then((r) => {
    if (!r.ok) throw new Error(`HTTP ${r.status} for ${url}`);
    return r.json() as Promise<unknown>;
  });
  p.catch(() => undefined); // the caller of prefetchedJson handles it (or nobody asks)
  started.set(url, p);
}

/**
 * The early fetch of `url` started by {@link prefetchJson}, or undefined when none was.
 * The promise rejects with an Error when the file could not be read or parsed.
 */
export function prefetchedJson(url: string): Promise<unknown> | undefined {
  return started.get(url);
}
