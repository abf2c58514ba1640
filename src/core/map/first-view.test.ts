import { describe, expect, test } from 'vitest';
import { fitCamera, movedCamera, NO_MOVE, panMove, screenPoint, viewTiles, zoomMove } from './first-view';
import { mercY } from './mercator';
import { tileBounds } from './mercator';

const WORLD: [number, number, number, number] = [-180, -85.0511287798, 180, 85.0511287798];

describe('first view (MapLibre camera and tile cover without the map)', () => {
  test('the whole Mercator world in 512 x 512 px is zoom 0 at 0,0, drawn by four 256-px tiles of zoom 1', () => {
    const c = fitCamera(WORLD, 512, 512, 0, 0, 22)!;
    expect(c.zoom).toBeCloseTo(0, 6);
    expect(c.lng).toBeCloseTo(0, 9);
    expect(c.lat).toBeCloseTo(0, 6);
    const t = viewTiles(c, 512, 512, WORLD);
    expect(t.map((p) => [p.z, p.x, p.y, Math.round(p.leftPx), Math.round(p.topPx), Math.round(p.sizePx)])).toEqual([
      [1, 0, 0, 0, 0, 256], [1, 1, 0, 256, 0, 256], [1, 0, 1, 0, 256, 256], [1, 1, 1, 256, 256, 256],
    ]);
  });

  test('a fitted box touches the padding on its limiting axis and is centred on the other (Mercator midpoint, not mid-latitude)', () => {
    const b: [number, number, number, number] = [-18, -35, 52, 28];
    for (const [w, h] of [[1440, 900], [390, 844]]) {
      const c = fitCamera(b, w, h, 10, 1, 13)!;
      const [x0, y0] = screenPoint(c, w, h, b[0], b[3]);
      const [x1, y1] = screenPoint(c, w, h, b[2], b[1]);
      const padX = Math.min(x0, w - x1), padY = Math.min(y0, h - y1);
      expect(Math.min(padX, padY)).toBeCloseTo(10, 6);
      expect(x0).toBeCloseTo(w - x1, 6);
      expect(y0).toBeCloseTo(h - y1, 6);
      // the centre is the midpoint in Mercator y, which lies north of the mid-latitude here
      expect(mercY(c.lat)).toBeCloseTo((mercY(28) + mercY(-35)) / 2, 12);
      expect(c.lat).not.toBeCloseTo(-3.5, 1);
    }
  });

  test('zoom is clamped to the map\'s min and max; no room inside the padding gives null', () => {
    expect(fitCamera([36, -1.3, 36.01, -1.29], 800, 600, 10, 1, 13)!.zoom).toBe(13);
    expect(fitCamera(WORLD, 100, 100, 0, 1, 13)!.zoom).toBe(1);
    expect(fitCamera(WORLD, 15, 100, 10, 1, 13)).toBeNull();
  });

  test('tiles are those MapLibre asks for: round(zoom + 1) for 256-px tiles, only over the source bounds, placed where their corners project', () => {
    const b: [number, number, number, number] = [-18, -35, 52, 28];
    const c = { lng: 17, lat: -4, zoom: 2.6 };
    const t = viewTiles(c, 1440, 900, b);
    expect(new Set(t.map((p) => p.z))).toEqual(new Set([4])); // round(3.6)
    for (const p of t) {
      const [w, s, e, n] = tileBounds(p.z, p.x, p.y);
      expect(e > b[0] && w < b[2] && n > b[1] && s < b[3]).toBe(true);
      const [l, tp] = screenPoint(c, 1440, 900, w, n);
      expect(p.leftPx).toBeCloseTo(l, 6);
      expect(p.topPx).toBeCloseTo(tp, 6);
      expect(p.sizePx).toBeCloseTo(512 * 2 ** 2.6 / 16, 9);
    }
    // every tile of the bounds is in view here: at z4 a column is 22.5 degrees (18W in column 7, 52E in 10)
    expect([...new Set(t.map((p) => p.x))]).toEqual([7, 8, 9, 10]);
    expect([...new Set(t.map((p) => p.y))]).toEqual([6, 7, 8, 9]);
  });

  describe('the camera after the preview is moved by hand (pan, zoom about a point)', () => {
    const W = 1440, H = 900;
    test('a pan of N px at zoom z moves the centre by N * 360 / (512 * 2^z) degrees of longitude at the equator, the other way', () => {
      for (const z of [1, 3.3, 7]) {
        const c = movedCamera({ lng: 10, lat: 0, zoom: z }, W, H, panMove(NO_MOVE, 200, 0));
        expect(c.lng).toBeCloseTo(10 - (200 * 360) / (512 * 2 ** z), 9);
        expect(c.lat).toBeCloseTo(0, 9);
        expect(c.zoom).toBe(z);
      }
      // dragging down shows what was north: the centre moves north
      expect(movedCamera({ lng: 10, lat: 0, zoom: 3 }, W, H, panMove(NO_MOVE, 0, 100)).lat).toBeGreaterThan(0);
    });

    test('a scale of 2 about the centre is zoom + 1 at the same centre; about another point that point stays put', () => {
      const cam = { lng: 17, lat: -4, zoom: 2.6 };
      const c = movedCamera(cam, W, H, zoomMove(NO_MOVE, 2, W / 2, H / 2, cam.zoom, 1, 13));
      expect(c.zoom).toBeCloseTo(3.6, 12);
      expect(c.lng).toBeCloseTo(17, 9);
      expect(c.lat).toBeCloseTo(-4, 9);
      // Nairobi under the pointer stays under it after a zoom about the pointer
      const [px, py] = screenPoint(cam, W, H, 36.82, -1.29);
      const c2 = movedCamera(cam, W, H, zoomMove(NO_MOVE, 1.7, px, py, cam.zoom, 1, 13));
      const [qx, qy] = screenPoint(c2, W, H, 36.82, -1.29);
      expect(qx).toBeCloseTo(px, 6);
      expect(qy).toBeCloseTo(py, 6);
    });

    test('round trip: every point shown at p before the move is shown at scale * p + t on the moved camera', () => {
      const cam = { lng: 17, lat: -4, zoom: 2.6 };
      let m = panMove(NO_MOVE, 200, 100);
      m = zoomMove(m, 1.3, 900, 300, cam.zoom, 1, 13);
      m = panMove(m, -35, 12);
      m = zoomMove(m, 0.6, 100, 700, cam.zoom, 1, 13);
      const c = movedCamera(cam, W, H, m);
      expect(c.zoom).toBeCloseTo(cam.zoom + Math.log2(1.3 * 0.6), 12);
      for (const [lng, lat] of [[-17.4, 14.7], [36.82, -1.29], [18.4, -33.9], [31.2, 30.0]]) {
        const [x, y] = screenPoint(cam, W, H, lng, lat);
        const [x2, y2] = screenPoint(c, W, H, lng, lat);
        expect(x2).toBeCloseTo(m.scale * x + m.txPx, 6);
        expect(y2).toBeCloseTo(m.scale * y + m.tyPx, 6);
      }
    });

    test('the zoom stays within the map [minZoom, maxZoom]: a scale past the limit is cut to it, still about the pointer', () => {
      const cam = { lng: 17, lat: -4, zoom: 2.6 };
      const out = zoomMove(NO_MOVE, 1 / 64, 300, 200, cam.zoom, 1, 13);
      expect(out.scale).toBeCloseTo(2 ** (1 - 2.6), 12);
      expect(movedCamera(cam, W, H, out).zoom).toBeCloseTo(1, 12);
      expect(300 * out.scale + out.txPx).toBeCloseTo(300, 9); // the pointer's point did not move
      const inn = zoomMove(zoomMove(NO_MOVE, 1000, 0, 0, cam.zoom, 1, 13), 1000, 0, 0, cam.zoom, 1, 13);
      expect(movedCamera(cam, W, H, inn).zoom).toBeCloseTo(13, 12);
    });
  });
});
