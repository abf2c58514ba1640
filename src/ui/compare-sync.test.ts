import { expect, test } from 'vitest';
import { SWIPE_MAX, SWIPE_MIN, swipeKey, syncMaps, type SyncableMap } from './compare-sync';

/** A fake map: a view, `move` listeners, and jumpTo firing `move` synchronously as MapLibre does. */
function fakeMap(lng: number, lat: number, zoom: number) {
  const subs = new Set<() => void>();
  let v = { lng, lat, zoom, bearing: 0, pitch: 0 };
  const jumps: number[] = [];
  const m: SyncableMap & { view: () => typeof v; pan: (dl: number) => void; jumps: number[]; n: () => number } = {
    on: (_t, f) => subs.add(f),
    off: (_t, f) => subs.delete(f),
    getCenter: () => ({ lng: v.lng, lat: v.lat }),
    getZoom: () => v.zoom,
    getBearing: () => v.bearing,
    getPitch: () => v.pitch,
    jumpTo: (o) => { jumps.push(1); v = { lng: o.center[0], lat: o.center[1], zoom: o.zoom, bearing: o.bearing, pitch: o.pitch }; for (const f of [...subs]) f(); },
    view: () => v,
    pan: (dl) => { v = { ...v, lng: v.lng + dl }; for (const f of [...subs]) f(); },
    jumps,
    n: () => subs.size,
  };
  return m;
}

test('syncMaps puts the second map on the first one view, then keeps both in step both ways without echo', () => {
  const a = fakeMap(37.5, 0.2, 6), b = fakeMap(20, 0, 3);
  const stop = syncMaps(a, b);
  expect(b.view()).toMatchObject({ lng: 37.5, lat: 0.2, zoom: 6 });
  a.pan(1);
  expect(b.view().lng).toBeCloseTo(38.5, 9);
  b.pan(-2);
  expect(a.view().lng).toBeCloseTo(36.5, 9);
  // one jump per move: the followed map's own move event does not bounce back
  expect(a.jumps.length).toBe(1);
  expect(b.jumps.length).toBe(2);
  stop();
  expect([a.n(), b.n()]).toEqual([0, 0]);
  a.pan(5);
  expect(b.view().lng).toBeCloseTo(36.5, 9);
});

test('swipe divider keys follow the WAI-ARIA slider pattern and stay on the map', () => {
  expect(swipeKey(0.5, 'ArrowLeft')).toBe(0.48);
  expect(swipeKey(0.5, 'ArrowDown')).toBe(0.48);
  expect(swipeKey(0.5, 'ArrowRight')).toBe(0.52);
  expect(swipeKey(0.5, 'ArrowUp')).toBe(0.52);
  expect(swipeKey(0.5, 'PageUp')).toBe(0.6);
  expect(swipeKey(0.5, 'PageDown')).toBe(0.4);
  expect(swipeKey(0.5, 'Home')).toBe(SWIPE_MIN);
  expect(swipeKey(0.5, 'End')).toBe(SWIPE_MAX);
  expect(swipeKey(0.03, 'PageDown')).toBe(SWIPE_MIN);
  expect(swipeKey(0.97, 'ArrowRight')).toBe(SWIPE_MAX);
  expect(swipeKey(0.5, 'a')).toBeNull();
  expect(swipeKey(0.5, 'Enter')).toBeNull();
});
