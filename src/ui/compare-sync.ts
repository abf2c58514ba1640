/**
 * Pure parts of the layer comparison (CompareMaps.tsx): keeping two maps on one view, and
 * the swipe divider's keyboard steps.
 */

/** The view-changing part of a MapLibre map that {@link syncMaps} needs (a test can fake it). */
export interface SyncableMap {
  on(type: 'move', f: () => void): unknown;
  off(type: 'move', f: () => void): unknown;
  getCenter(): { lng: number; lat: number };
  getZoom(): number;
  getBearing(): number;
  getPitch(): number;
  jumpTo(o: { center: [number, number]; zoom: number; bearing: number; pitch: number }): unknown;
}

/**
 * Keeps two maps on the same centre, zoom, bearing and pitch: every `move` of one jumps the other
 * there (a guard stops the echo). `b` first jumps to `a`'s view. Returns the function that stops it.
 */
export function syncMaps(a: SyncableMap, b: SyncableMap): () => void {
  let busy = false;
  const follow = (from: SyncableMap, to: SyncableMap) => () => {
    if (busy) return;
    busy = true;
    try {
      const c = from.getCenter();
      to.jumpTo({ center: [c.lng, c.lat], zoom: from.getZoom(), bearing: from.getBearing(), pitch: from.getPitch() });
    } finally { busy = false; }
  };
  const fa = follow(a, b), fb = follow(b, a);
  a.on('move', fa);
  b.on('move', fb);
  fa();
  return () => { a.off('move', fa); b.off('move', fb); };
}

/** Bounds of the swipe divider position, as a fraction of the map width. */
export const SWIPE_MIN = 0.02;
/** Upper bound of the swipe divider position (see {@link SWIPE_MIN}). */
export const SWIPE_MAX = 0.98;

/**
 * The divider position after a key press (WAI-ARIA slider pattern): Left/Down −2%, Right/Up +2%,
 * Page Down/Up ∓10%, Home/End the ends; null for any other key. Kept within
 * [{@link SWIPE_MIN}, {@link SWIPE_MAX}], rounded to 0.001.
 */
export function swipeKey(pos: number, key: string): number | null {
  if (key === 'Home') return SWIPE_MIN;
  if (key === 'End') return SWIPE_MAX;
  const step: Record<string, number> = { ArrowLeft: -0.02, ArrowDown: -0.02, ArrowRight: 0.02, ArrowUp: 0.02, PageDown: -0.1, PageUp: 0.1 };
  if (!(key in step)) return null;
  return Math.round(Math.min(SWIPE_MAX, Math.max(SWIPE_MIN, pos + step[key])) * 1000) / 1000;
}
