/**
 * The hand on the first view's preview (src/ui/MapPreview.tsx): a drag (mouse, pen or one
 * finger) pans it, the wheel and a two-finger pinch zoom it about the pointer, the arrow keys
 * pan it by 100 px and + / - zoom it by one level about the centre when it has focus, as
 * MapLibre's handlers do (`DragPanHandler`, `ScrollZoomHandler`: a scale of
 * `2 / (1 + exp(-|delta| * rate))` per wheel event, rate 1/450 for a mouse wheel and 1/100 for
 * a trackpad's small deltas; `TwoFingersTouchZoomHandler`; `KeyboardHandler`: panStep 100).
 * Each step is a {@link ScreenMove} composed on the last one (src/core/map/first-view.ts); `end`
 * is called when a gesture is over (pointers up, 250 ms after the last wheel or key).
 */
import { panMove, zoomMove, type ScreenMove } from '../core/map/first-view';

/** What {@link followHand} moves: the move so far is changed by `step` (a pan or a zoom about a point, CSS px of the element). */
export interface HandTarget {
  /** The zoom the moves start from (the preview's camera), or null while there is nothing to move. */
  zoom0: () => number | null;
  /** Applies one step to the move so far. */
  step: (f: (m: ScreenMove) => ScreenMove) => void;
  /** The gesture is over (the new camera may be handed on). */
  end: () => void;
  minZoom: number;
  maxZoom: number;
}

/** MapLibre's scale for one wheel event of `deltaPx` (positive: zoom out). */
function wheelScale(deltaPx: number): number {
  const rate = Math.abs(deltaPx) >= 50 ? 1 / 450 : 1 / 100;
  const s = 2 / (1 + Math.exp(-Math.abs(deltaPx) * rate));
  return deltaPx < 0 ? s : 1 / s;
}

/**
 * Listens on `el` for drags, pinches, the wheel and keys and moves `t` by them.
 * @returns a function removing the listeners
 */
export function followHand(el: HTMLElement, t: HandTarget): () => void {
  const pts = new Map<number, [number, number]>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const local = (e: { clientX: number; clientY: number }): [number, number] => { const r = el.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
  const zoom = (k: number, x: number, y: number) => { const z0 = t.zoom0(); if (z0 !== null) t.step((m) => zoomMove(m, k, x, y, z0, t.minZoom, t.maxZoom)); };
  const later = () => { clearTimeout(timer); timer = setTimeout(t.end, 250); };
  const down = (e: PointerEvent) => {
    if (t.zoom0() === null || (e.pointerType === 'mouse' && e.button !== 0)) return;
    pts.set(e.pointerId, local(e));
    el.setPointerCapture?.(e.pointerId);
  };
  const move = (e: PointerEvent) => {
    const old = pts.get(e.pointerId);
    if (!old) return;
    const now = local(e);
    const other = [...pts].find(([id]) => id !== e.pointerId)?.[1];
    pts.set(e.pointerId, now);
    if (!other) return t.step((m) => panMove(m, now[0] - old[0], now[1] - old[1]));
    // two fingers: the midpoint pans, the distance's ratio zooms about the new midpoint
    const mid = (a: [number, number]) => [(a[0] + other[0]) / 2, (a[1] + other[1]) / 2];
    const [ox, oy] = mid(old), [nx, ny] = mid(now);
    const d0 = Math.hypot(old[0] - other[0], old[1] - other[1]), d1 = Math.hypot(now[0] - other[0], now[1] - other[1]);
    t.step((m) => panMove(m, nx - ox, ny - oy));
    if (d0 > 0 && d1 > 0) zoom(d1 / d0, nx, ny);
  };
  const up = (e: PointerEvent) => { if (pts.delete(e.pointerId) && pts.size === 0) t.end(); };
  const wheel = (e: WheelEvent) => {
    e.preventDefault();
    const [x, y] = local(e);
    zoom(wheelScale(e.deltaY * (e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? 800 : 1)), x, y);
    later();
  };
  const key = (e: KeyboardEvent) => {
    const pan: Record<string, [number, number]> = { ArrowLeft: [100, 0], ArrowRight: [-100, 0], ArrowUp: [0, 100], ArrowDown: [0, -100] };
    const k = e.key === '+' || e.key === '=' ? 2 : e.key === '-' || e.key === '_' ? 0.5 : 0;
    if (!pan[e.key] && !k) return;
    e.preventDefault();
    if (pan[e.key]) { if (t.zoom0() !== null) t.step((m) => panMove(m, ...pan[e.key])); } else zoom(k, el.clientWidth / 2, el.clientHeight / 2);
    later();
  };
  const on: Array<[string, EventListener, AddEventListenerOptions?]> = [['pointerdown', down as EventListener], ['pointermove', move as EventListener], ['pointerup', up as EventListener], ['pointercancel', up as EventListener], ['wheel', wheel as EventListener, { passive: false }], ['keydown', key as EventListener]];
  for (const [n, f, o] of on) el.addEventListener(n, f, o);
  return () => { clearTimeout(timer); for (const [n, f] of on) el.removeEventListener(n, f); };
}
