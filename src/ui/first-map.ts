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
