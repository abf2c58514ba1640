/**
 * The admin outline writer on a FIXTURE key layer of made-up units: an enclave (a hole), a
 * unit in two parts, two cells touching only at a corner, a unit without cells, no-data and
 * NaN cells. Checks valid RFC 7946 rings (closed, right-hand rule), one feature per unit with
 * cells, areas equal to the cells' areas, every cell centre in its own unit's geometry and in
 * no other, lattice coordinates with at most 6 decimals and no collinear vertices.
 */
import { describe, expect, it } from 'vitest';
import type { GridDef } from '../grid';
import { outlineUnits, writeOutlines } from './outlines';

type Ring = number[][];
type Geometry = { type: 'Polygon'; coordinates: Ring[] } | { type: 'MultiPolygon'; coordinates: Ring[][] };

/** FIXTURE window: 12 x 9 cells at 1/12 degree, west edge -4.5, north edge 7.25 (not a whole degree). */
const GRID: GridDef = { crs: 'EPSG:4326', cellSizeDeg: 1 / 12, xmin: -4.5, ymin: 6.5, xmax: -3.5, ymax: 7.25, width: 12, height: 9, colOffset: 2106, rowOffset: 993 };
const ND = 255;
/** FIXTURE key layer (made-up units 1..5; 5 has no cell; '.' no-data, 'n' NaN). */
const MAP = [
  '111111222222',
  '111111222222',
  '113311222..2',
  '113311222..2',
  '111111222222',
  '11111144n444',
  '4......44444',
  '.4.........1',
  '..4.......11',
];

function layer(): Float32Array {
  const v = new Float32Array(GRID.width * GRID.height);
  MAP.forEach((line, r) => [...line].forEach((ch, c) => { v[r * GRID.width + c] = ch === '.' ? ND : ch === 'n' ? NaN : Number(ch); }));
  return v;
}

const ringArea = (r: Ring) => { let a = 0; for (let i = 0; i + 1 < r.length; i++) a += r[i][0] * r[i + 1][1] - r[i + 1][0] * r[i][1]; return a / 2; };
const polygons = (g: Geometry): Ring[][] => (g.type === 'Polygon' ? [g.coordinates] : g.coordinates);
function inRing(r: Ring, x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = r.length - 2; i < r.length - 1; j = i++) if (r[i][1] > y !== r[j][1] > y && x < ((r[j][0] - r[i][0]) * (y - r[i][1])) / (r[j][1] - r[i][1]) + r[i][0]) c = !c;
  return c;
}
const inGeometry = (g: Geometry, x: number, y: number) => polygons(g).some((p) => inRing(p[0], x, y) && !p.slice(1).some((h) => inRing(h, x, y)));

describe('writeOutlines', () => {
  const table = [
    { value: 1, label: 'Centre', color: '', iso3: 'CIV', adm1: 'Nord', code: 'CI.01' },
    { value: 2, label: 'Est', color: '', iso3: 'CIV', adm1: 'Nord', code: '' },
    { value: 3, label: 'Lac', color: '', iso3: 'CIV', adm1: 'Nord' },
    { value: 4, label: 'Centre', color: '', iso3: 'CIV', adm1: 'Sud' },
    { value: 5, label: 'Vide', color: '', iso3: 'CIV', adm1: 'Sud' },
  ];
  const text = writeOutlines(GRID, layer(), outlineUnits(table, 2), { noData: ND, description: 'fixture', attribution: 'Admin-2 outlines: fixture' });
  const fc = JSON.parse(text) as { type: string; description: string; attribution: string; features: Array<{ type: string; properties: Record<string, unknown>; geometry: Geometry }> };

  it('one feature per unit with cells, in table order, with value, code, name, iso3 and adm1', () => {
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.description).toBe('fixture');
    expect(fc.attribution).toBe('Admin-2 outlines: fixture');
    expect(fc.features.map((f) => f.properties)).toEqual([
      { value: 1, code: 'CI.01', name: 'Centre', iso3: 'CIV', adm1: 'Nord' },
      { value: 2, name: 'Est', iso3: 'CIV', adm1: 'Nord' },
      { value: 3, name: 'Lac', iso3: 'CIV', adm1: 'Nord' },
      { value: 4, name: 'Centre', iso3: 'CIV', adm1: 'Sud' },
    ]);
    expect(Object.keys(fc.features[0].properties)).toEqual(['value', 'code', 'name', 'iso3', 'adm1']);
    // unit 1: the block with the enclave of 3 (a hole) and the two cells in the south-east
    expect(fc.features[0].geometry.type).toBe('MultiPolygon');
    expect(polygons(fc.features[0].geometry).map((p) => p.length).sort()).toEqual([1, 2]);
    expect(fc.features[1].geometry.type).toBe('Polygon');
    expect(polygons(fc.features[1].geometry)[0].length).toBe(2); // the no-data hole
    // unit 4: cells touching only at corners are separate simple rings
    expect(polygons(fc.features[3].geometry).length).toBe(4);
  });

  it('rings are closed, exteriors counterclockwise and holes clockwise, without collinear vertices', () => {
    for (const f of fc.features) {
      for (const p of polygons(f.geometry)) {
        p.forEach((r, k) => {
          expect(r.length).toBeGreaterThanOrEqual(5); // lattice rings have at least 4 corners
          expect(r[r.length - 1]).toEqual(r[0]);
          expect(Math.sign(ringArea(r))).toBe(k === 0 ? 1 : -1);
          const m = r.length - 1;
          for (let i = 0; i < m; i++) {
            const a = r[(i + m - 1) % m], b = r[i], c = r[(i + 1) % m];
            expect(Math.abs((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]))).toBeGreaterThan(1e-4);
          }
          expect(new Set(r.slice(0, -1).map((x) => x.join())).size).toBe(m); // simple: no vertex twice
        });
      }
    }
  });

  it('areas equal the cells\' areas, and every cell centre lies in its own unit only', () => {
    const v = layer();
    for (const f of fc.features) {
      const unit = f.properties.value as number;
      const cells = [...v].filter((x) => x === unit).length;
      // in cells: vertices snapped to the lattice (the lattice itself is checked below), exact
      const snapped = (r: Ring) => r.map(([x, y]) => [Math.round(x * 12), Math.round(y * 12)]);
      const area = polygons(f.geometry).reduce((s, p) => s + p.reduce((t, r) => t + ringArea(snapped(r)), 0), 0);
      expect(area).toBe(cells);
      // in degrees from the printed coordinates: within the 6-decimal rounding
      const deg2 = polygons(f.geometry).reduce((s, p) => s + p.reduce((t, r) => t + ringArea(r), 0), 0);
      expect(Math.abs(deg2 - cells / 144)).toBeLessThan(1e-5);
    }
    for (let r = 0; r < GRID.height; r++) {
      for (let c = 0; c < GRID.width; c++) {
        const x = GRID.xmin + (c + 0.5) / 12, y = GRID.ymax - (r + 0.5) / 12;
        const owners = fc.features.filter((f) => inGeometry(f.geometry, x, y)).map((f) => f.properties.value);
        const u = v[r * GRID.width + c];
        expect(owners).toEqual(u === ND || Number.isNaN(u) ? [] : [u]);
      }
    }
  });

  it('vertices lie on the 1/12-degree lattice, printed with at most 6 decimals', () => {
    const nums = text.slice(text.indexOf('"geometry"')).match(/-?\d+(\.\d+)?(?=[,\]])/g)!;
    expect(nums.length).toBeGreaterThan(50);
    for (const s of nums) {
      expect((s.split('.')[1] ?? '').length).toBeLessThanOrEqual(6);
      const k = Number(s) * 12;
      expect(Math.abs(k - Math.round(k))).toBeLessThan(12 * 5.1e-7);
    }
    expect(text).toContain('[-4.333333,7.083333]'); // the north-west corner of the enclave
  });

  it('writes an empty collection for a layer without units', () => {
    expect(JSON.parse(writeOutlines(GRID, new Float32Array(108).fill(ND), outlineUnits(table, 1), { noData: ND }))).toEqual({ type: 'FeatureCollection', features: [] });
  });
});
