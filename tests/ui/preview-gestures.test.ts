/**
 * The hand on the first view's preview (src/ui/preview-gestures.ts) on a stand-in element (an
 * EventTarget with a box): a drag pans by the pointer's travel, a pinch keeps each finger over
 * the point it holds, the wheel zooms about the pointer, keys pan by 100 px and zoom about the
 * centre, the zoom stays within the map's range, and the gesture's end is reported.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { NO_MOVE, type ScreenMove } from '../../src/core/map/first-view';
import { followHand } from '../../src/ui/preview-gestures';

/** A stand-in for the preview's box: 800 x 600 CSS px at (10, 20) on the page. */
class Box extends EventTarget {
  clientWidth = 800;
  clientHeight = 600;
  getBoundingClientRect() { return { left: 10, top: 20, width: 800, height: 600 }; }
  setPointerCapture() { /* nothing to capture here */ }
}

const ev = (type: string, props: Record<string, unknown>) => Object.assign(new Event(type, { cancelable: true }), props);
/** A pointer event at box-local `x`, `y`. */
const ptr = (type: string, id: number, x: number, y: number, pointerType = 'touch') => ev(type, { pointerId: id, clientX: x + 10, clientY: y + 20, pointerType, button: 0 });

function setup(zoom0 = 3) {
  const box = new Box();
  const state = { m: NO_MOVE as ScreenMove, ends: 0 };
  const off = followHand(box as unknown as HTMLElement, { zoom0: () => zoom0, step: (f) => { state.m = f(state.m); }, end: () => { state.ends++; }, minZoom: 1, maxZoom: 13 });
  return { box, state, off };
}
/** Where the move puts the screen point `x`, `y`. */
const at = (m: ScreenMove, x: number, y: number) => [m.scale * x + m.txPx, m.scale * y + m.tyPx];

describe('the preview follows the hand', () => {
  afterEach(() => { vi.useRealTimers(); });

  test('a mouse drag pans by the travel and ends on release', () => {
    const { box, state } = setup();
    box.dispatchEvent(ptr('pointerdown', 1, 100, 100, 'mouse'));
    box.dispatchEvent(ptr('pointermove', 1, 180, 130, 'mouse'));
    box.dispatchEvent(ptr('pointermove', 1, 300, 150, 'mouse'));
    expect(state.m).toEqual({ scale: 1, txPx: 200, tyPx: 50 });
    expect(state.ends).toBe(0);
    box.dispatchEvent(ptr('pointerup', 1, 300, 150, 'mouse'));
    expect(state.ends).toBe(1);
    box.dispatchEvent(ptr('pointermove', 1, 400, 150, 'mouse')); // released: no longer moves
    expect(state.m.txPx).toBe(200);
  });

  test('a pinch keeps each finger over the point it holds (pan of the midpoint, zoom by the distance)', () => {
    const { box, state } = setup();
    box.dispatchEvent(ptr('pointerdown', 1, 100, 300));
    box.dispatchEvent(ptr('pointerdown', 2, 300, 300));
    box.dispatchEvent(ptr('pointermove', 2, 500, 300));
    const [x1, y1] = at(state.m, 100, 300), [x2, y2] = at(state.m, 300, 300);
    expect(x1).toBeCloseTo(100, 9);
    expect(y1).toBeCloseTo(300, 9);
    expect(x2).toBeCloseTo(500, 9);
    expect(y2).toBeCloseTo(300, 9);
    expect(state.m.scale).toBeCloseTo(2, 12);
    // a twist cannot rotate the picture (no rotation, as the live map's dragRotate: false): the midpoint holds, the distance scales
    box.dispatchEvent(ptr('pointermove', 2, 500, 380));
    const [mx, my] = at(state.m, 200, 300);
    expect(mx).toBeCloseTo(300, 9);
    expect(my).toBeCloseTo(340, 9);
    expect(state.m.scale).toBeCloseTo(2 * Math.hypot(400, 80) / 400, 12);
    box.dispatchEvent(ptr('pointerup', 2, 500, 380));
    expect(state.ends).toBe(0); // one finger still down
    box.dispatchEvent(ptr('pointerup', 1, 100, 300));
    expect(state.ends).toBe(1);
  });

  test('the wheel zooms about the pointer (MapLibre: 2 / (1 + exp(-100/450)) per notch), keys pan 100 px and zoom about the centre; the end follows 250 ms later', () => {
    vi.useFakeTimers();
    const { box, state } = setup();
    const w = ev('wheel', { deltaY: -100, deltaMode: 0, clientX: 210, clientY: 120 });
    box.dispatchEvent(w);
    expect(w.defaultPrevented).toBe(true); // the page does not scroll
    expect(state.m.scale).toBeCloseTo(2 / (1 + Math.exp(-100 / 450)), 12);
    const [px, py] = at(state.m, 200, 100);
    expect(px).toBeCloseTo(200, 9);
    expect(py).toBeCloseTo(100, 9);
    expect(state.ends).toBe(0);
    vi.advanceTimersByTime(300);
    expect(state.ends).toBe(1);
    state.m = NO_MOVE;
    box.dispatchEvent(ev('keydown', { key: 'ArrowRight' }));
    box.dispatchEvent(ev('keydown', { key: 'ArrowUp' }));
    expect(state.m).toEqual({ scale: 1, txPx: -100, tyPx: 100 }); // the view goes east and north: the picture moves left and down
    box.dispatchEvent(ev('keydown', { key: '+' }));
    expect(state.m.scale).toBe(2);
    expect(at(state.m, 500, 200)).toEqual([400, 300]); // what the pan brought to the centre stays there
    expect(at(state.m, 400, 300)).toEqual([200, 500]); // what the pan put at (300, 400) is twice as far from the centre
    box.dispatchEvent(ev('keydown', { key: 'a' }));
    expect(state.m.scale).toBe(2);
  });

  test('the zoom stays within 1..13 from the first camera; nothing moves before there is a camera, nor after the listeners are removed', () => {
    const { box, state, off } = setup(12.5);
    box.dispatchEvent(ev('keydown', { key: '+' }));
    expect(state.m.scale).toBeCloseTo(2 ** 0.5, 12);
    off();
    box.dispatchEvent(ev('keydown', { key: '+' }));
    expect(state.m.scale).toBeCloseTo(2 ** 0.5, 12);
    const none = new Box(), seen: ScreenMove[] = [];
    followHand(none as unknown as HTMLElement, { zoom0: () => null, step: (f) => { seen.push(f(NO_MOVE)); }, end: () => undefined, minZoom: 1, maxZoom: 13 });
    none.dispatchEvent(ptr('pointerdown', 1, 100, 100, 'mouse'));
    none.dispatchEvent(ptr('pointermove', 1, 200, 100, 'mouse'));
    none.dispatchEvent(ev('keydown', { key: 'ArrowLeft' }));
    expect(seen).toEqual([]);
  });
});
