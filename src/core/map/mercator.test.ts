import { describe, expect, test } from 'vitest';
import { levelForZoom, pixelLat, pixelLon, renderTile, tileBounds, type RasterLevel } from './mercator';
import { SSA_GRID, pointToColRow } from '../grid';

describe('web mercator tile sampling', () => {
  test('tile 0/0/0 covers the world and the equator is its middle row edge', () => {
    expect(tileBounds(0, 0, 0)[0]).toBe(-180);
    expect(tileBounds(0, 0, 0)[3]).toBeCloseTo(85.0511, 3);
    expect(pixelLat(1, 0, 255.5 - 0.5 + 0.5, 256)).toBeCloseTo(0, 1);
    expect(pixelLon(0, 0, 127.5, 256)).toBeCloseTo(0, 6);
  });

  test('each pixel samples the 1/12-degree cell that contains its position (within a quarter cell at zoom 8)', () => {
    // A level whose value is the row index, to check rows land at the right latitude.
    const g = SSA_GRID;
    const values = new Float32Array(g.width * g.height);
    for (let r = 0; r < g.height; r++) for (let c = 0; c < g.width; c++) values[r * g.width + c] = r * 10000 + c;
    const level: RasterLevel = { width: g.width, height: g.height, bbox: [g.xmin, g.ymin, g.xmax, g.ymax], values };
    const seen: number[] = [];
    const tile = renderTile(level, 8, 152, 128 + 20, (v) => { seen.push(v); return 0xff000000 | (v & 0xffffff); });
    expect(tile).not.toBeNull();
    // check a few pixels against the exact cell of the pixel centre
    for (const [px, py] of [[0, 0], [100, 37], [255, 255], [17, 200]]) {
      const lon = pixelLon(8, 152, px), lat = pixelLat(8, 148, py);
      const cr = pointToColRow(g, lon, lat)!;
      const packed = tile![py * 256 + px];
      expect(packed & 0xffffff).toBe((cr[1] * 10000 + cr[0]) & 0xffffff);
    }
  });

  test('no tile outside the level', () => {
    const level: RasterLevel = { width: 2, height: 2, bbox: [0, 0, 1, 1], values: new Float32Array([1, 2, 3, 4]) };
    expect(renderTile(level, 4, 0, 0, () => 0xffffffff)).toBeNull();
  });

  test('level choice follows the screen pixel size', () => {
    const lv = [1 / 12, 1 / 6, 1 / 3, 2 / 3];
    expect(levelForZoom(lv, 2)).toBe(2); // 0.70 deg screen pixel
    expect(levelForZoom(lv, 3)).toBe(1); // 0.176
    expect(levelForZoom(lv, 6)).toBe(0);
  });
});
