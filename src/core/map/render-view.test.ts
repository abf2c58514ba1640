import { describe, expect, test } from 'vitest';
import { fitView, latOfMercY, levelForView, mercY, projectView, renderView, unprojectView, viewBounds, type MercatorView } from './render-view';
import { renderTile, tileBounds, type RasterLevel } from './mercator';
import { makeColorizer } from './palette';
import { SSA_GRID, pointToColRow } from '../grid';

/** EPSG:3857 northing (m) of a Mercator y: the sphere of radius 6378137 m. */
const northing = (y: number) => (0.5 - y) * 2 * Math.PI * 6378137;

describe('render a Web Mercator view', () => {
  test('the projection is EPSG:3857 (45 N is 5,621,521.486 m north, as gdaltransform gives it)', () => {
    expect(northing(mercY(45))).toBeCloseTo(5621521.486, 2);
    expect(northing(mercY(-33.9))).toBeCloseTo(-4015382.360, 2); // Cape Town's latitude: `echo 18.4 -33.9 | gdaltransform -s_srs EPSG:4326 -t_srs EPSG:3857`
    expect(latOfMercY(mercY(12.345))).toBeCloseTo(12.345, 10);
    const v: MercatorView = { centerLon: 37.5, centerLat: 0.3, zoom: 5, cssW: 1440, cssH: 900 };
    const [x, y] = projectView(v, 40, -2);
    const [lon, lat] = unprojectView(v, x, y);
    expect(lon).toBeCloseTo(40, 10);
    expect(lat).toBeCloseTo(-2, 10);
    expect(projectView(v, 37.5, 0.3)).toEqual([720, 450]);
  });

  test('fitView fits the bounds as MapLibre fitBounds does (the tighter axis touches the edges)', () => {
    const v = fitView([33, -5, 42, 5], 1000, 500);
    const [w, s, e, n] = viewBounds(v);
    expect(n).toBeCloseTo(5, 9);
    expect(s).toBeCloseTo(-5, 9);
    expect(w).toBeLessThan(33);
    expect(e).toBeGreaterThan(42);
    expect((w + e) / 2).toBeCloseTo(37.5, 9);
  });

  test('known pixels: a 2 x 2 level, its four cells, no data and outside it', () => {
    // north row first: NW 1, NE 2, SW no data, SE 4 over 0..20 E, 10 S..10 N
    const level: RasterLevel = { width: 2, height: 2, bbox: [0, -10, 20, 10], values: new Float32Array([1, 2, NaN, 4]) };
    const colorOf = makeColorizer({ kind: 'classes', values: [1, 2, 4], colors: ['#ff0000', '#00ff00', '#0000ff'], labels: ['a', 'b', 'c'] });
    const v: MercatorView = { centerLon: 10, centerLat: 0, zoom: 3, cssW: 400, cssH: 300 };
    const px = renderView(level, v, 800, 600, colorOf); // pixel ratio 2
    const at = (lon: number, lat: number) => { const [x, y] = projectView(v, lon, lat); return px[Math.floor(y * 2) * 800 + Math.floor(x * 2)]; };
    expect(at(5, 5)).toBe(0xff0000ff); // red, packed ABGR
    expect(at(15, 5)).toBe(0xff00ff00);
    expect(at(15, -5)).toBe(0xffff0000);
    expect(at(5, -5)).toBe(0);
    expect(at(-1, 0)).toBe(0);
    expect(at(10, 11)).toBe(0);
    // the cell edge at 0 N sits at the view's middle row (the equator is the centre)
    expect(px[299 * 800 + 500]).toBe(0xff00ff00);
    expect(px[300 * 800 + 500]).toBe(0xffff0000);
  });

  test('a view exactly over a 256-px tile draws the pixels renderTile draws', () => {
    const g = SSA_GRID;
    const values = new Float32Array(g.width * g.height);
    for (let i = 0; i < values.length; i++) values[i] = i % 977 === 0 ? NaN : i;
    const level: RasterLevel = { width: g.width, height: g.height, bbox: [g.xmin, g.ymin, g.xmax, g.ymax], values };
    const colorOf = (x: number) => (0xff000000 | (x & 0xffffff)) >>> 0;
    const [z, tx, ty] = [7, 76, 63];
    const [w, s, e, n] = tileBounds(z, tx, ty);
    const v: MercatorView = { centerLon: (w + e) / 2, centerLat: latOfMercY((mercY(n) + mercY(s)) / 2), zoom: z - 1, cssW: 256, cssH: 256 };
    const a = renderView(level, v, 256, 256, colorOf), b = renderTile(level, z, tx, ty, colorOf)!;
    let diff = 0;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff++;
    expect(diff).toBe(0);
  });

  test('every pixel takes the cell of its centre (full grid, Kenya at A4 300 dpi size)', () => {
    const g = SSA_GRID;
    const values = new Float32Array(g.width * g.height);
    for (let i = 0; i < values.length; i++) values[i] = i;
    const level: RasterLevel = { width: g.width, height: g.height, bbox: [g.xmin, g.ymin, g.xmax, g.ymax], values };
    const v = fitView([33.9, -4.7, 41.9, 5.0], 1123, 794);
    const px = renderView(level, v, 3508, 2480, (x) => (0xff000000 | x) >>> 0);
    for (const [x, y] of [[0, 0], [1754, 1240], [3507, 2479], [123, 2001], [2900, 77]]) {
      const [lon, lat] = unprojectView(v, (x + 0.5) * 1123 / 3508, (y + 0.5) * 794 / 2480);
      const [c, r] = pointToColRow(g, lon, lat)!;
      expect(px[y * 3508 + x] & 0xffffff).toBe(r * g.width + c);
    }
  });

  test('the level is the coarsest whose cell is within a device pixel', () => {
    const lv = [1 / 12, 1 / 6, 1 / 3, 2 / 3];
    const v: MercatorView = { centerLon: 20, centerLat: 0, zoom: 2, cssW: 1000, cssH: 800 };
    expect(levelForView(lv, v, 1000)).toBe(1); // 0.176 deg per px
    expect(levelForView(lv, v, 3000)).toBe(0); // at 3 device px per CSS px: 0.059
    expect(levelForView(lv, { ...v, zoom: 0 }, 1000)).toBe(3);
  });
});
