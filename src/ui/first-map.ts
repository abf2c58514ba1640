/**
 * The first map as a milestone of the page's start (issue 17: nothing the first map does not
 * need comes before it). The app marks it when MapLibre has first drawn the indicator's
 * raster ({@link markFirstMap}); work that can wait (place names, the offline precache)
 * awaits {@link afterFirstMap}: the first map, then an idle moment of the main thread.
 * If no map is drawn (no WebGL, a broken bundle), the wait ends `fallbackMs` after it began,
 * so such work still happens.
 */

let mark: (() => void) | null = null;
const drawn = new Promise<void>((res) => (mark = res));
let marked = false;

/** Records that the first map has been drawn (idempotent). */
export function markFirstMap(): void {
  if (marked) return;
  marked = true;
  mark?.();
}

/** True once {@link markFirstMap} has been called. */
export function firstMapDrawn(): boolean {
  return marked;
}

/** Resolves on the next idle period of the main thread (`requestIdleCallback`, at most `timeoutMs`; a timer where it is missing). */
function idle(timeoutMs: number): Promise<void> {
  return new Promise((res) => {
    const ric = (globalThis as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number }).requestIdleCallback;
    if (ric) ric(() => res(), { timeout: timeoutMs });
    else setTimeout(res, 50);
  });
}

/**
 * Resolves after the first map has been drawn (or `fallbackMs` after the call if it never is)
 * and the main thread has then been idle once. Rejects with the signal's reason when aborted.
 */
export function afterFirstMap(signal?: AbortSignal, fallbackMs = 20_000): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(go, fallbackMs);
    let done = false;
    function go() {
      if (done) return;
      done = true;
      clearTimeout(t);
      idle(2000).then(() => (signal?.aborted ? reject(signal.reason) : resolve()));
    }
    void drawn.then(go);
    signal?.addEventListener('abort', () => { if (!done) { done = true; clearTimeout(t); reject(signal.reason); } }, { once: true });
  });
}

let release: (() => void) | null = null;
const released = new Promise<void>((res) => (release = res));
let releasedOnce = false;
let asked = false;
const held = new Set<Promise<void>>();

/**
 * Lets the live map's code (MapLibre, its worker, the map's chunk) download, idempotent: called
 * when the first view's preview has its data (its first tile is back) or is drawn
 * (src/ui/MapPreview.tsx), or when there is none to draw.
 * Until then, on a first visit, those 0.4 MB do not share the link with the preview's few
 * (issue 26 target 4); nor, while {@link holdLiveMap} holds it, with a run the user asked for.
 * Starts their downloads together: the build lists them in index.html
 * (`<script type="application/json" id="first-map-preload">`, vite.config.ts), each becoming a
 * `<link rel="modulepreload">` or, for MapLibre's worker, `<link rel="preload" as="fetch">`
 * (the worker's own request is then read from the HTTP cache).
 */
export function releaseLiveMap(): void {
  asked = true;
  if (releasedOnce || held.size) return;
  releasedOnce = true;
  const list = typeof document === 'undefined' ? null : document.getElementById('first-map-preload')?.textContent;
  try {
    for (const { rel, href } of (list ? JSON.parse(list) : []) as Array<{ rel: 'modulepreload' | 'preload'; href: string }>) {
      const l = document.createElement('link');
      l.rel = rel;
      l.href = href;
      l.crossOrigin = '';
      if (rel === 'preload') l.as = 'fetch';
      document.head.appendChild(l);
    }
  } catch { /* a malformed list: the imports still load the code */ }
  release?.();
}

/**
 * Holds the live map's code back while `work` runs (at most `maxMs`), when it has not started
 * downloading yet: a summary (or table, similar places...) clicked, or run from a link, before
 * the live map gets the link to itself instead of sharing it with MapLibre's 0.4 MB; the
 * preview stays on screen meanwhile. No effect once the live map's code was released.
 */
export function holdLiveMap(work: Promise<unknown>, maxMs = 6000): void {
  if (releasedOnce) return;
  let t: ReturnType<typeof setTimeout> | undefined;
  const done = Promise.race([work.then(() => undefined, () => undefined), new Promise<void>((res) => (t = setTimeout(res, maxMs)))]);
  held.add(done);
  void done.then(() => {
    clearTimeout(t);
    held.delete(done);
    if (asked) releaseLiveMap();
  });
}

/**
 * Resolves when the live map's code may download: once {@link releaseLiveMap} is called, at
 * once when the page is under a service worker (the code is in its cache: nothing to share
 * the link with), and at the latest `fallbackMs` after the first call (a preview that never
 * draws holds nothing back for long).
 */
export function liveMapReleased(fallbackMs = 5000): Promise<void> {
  if (typeof navigator !== 'undefined' && navigator.serviceWorker?.controller) releaseLiveMap();
  else if (!releasedOnce) setTimeout(releaseLiveMap, fallbackMs);
  return released;
}
