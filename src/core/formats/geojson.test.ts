import { describe, expect, it } from 'vitest';
import { CELLS_KEN_NOBY, CELLS_KEN_ZONAL } from '../../../tests/formats/formats.fixture';
import { traceGroups, writeGeoJson, writeGeoJsonZonal, type LatticePolygon } from './geojson';

/** Shoelace area (north up, rows grow southwards) of a closed lattice ring: > 0 counterclockwise. */
function area(r: Array<[number, number]>): number {
  let a = 0;
  for (let i = 0; i + 1 < r.length; i++) a += r[i][0] * -r[i + 1][1] - r[i + 1][0] * -r[i][1];
  return a / 2;
}

/** Group layer from a picture: one character per cell, '.' = no group, digits = group ids. */
function layer(rows: string[]): Int32Array {
  return Int32Array.from(rows.join(''), (ch) => (ch === '.' ? -1 : Number(ch)));
}

function simple(r: Array<[number, number]>): boolean {
  const seen = new Set(r.slice(0, -1).map(([x, y]) => `${x},${y}`));
  return seen.size === r.length - 1 && r[0][0] === r[r.length - 1][0] && r[0][1] === r[r.length - 1][1];
}

describe('traceGroups (cell outlines)', () => {
  it('traces a ring with a hole: exterior counterclockwise, hole clockwise, area = cells', () => {
    const polys = traceGroups(layer(['000', '0.0', '000']), 3, 3, 1);
    expect(polys[0]).toHaveLength(1);
    const p = polys[0][0] as LatticePolygon;
    expect(p.exterior).toEqual([[0, 0], [0, 3], [3, 3], [3, 0], [0, 0]]);
    expect(p.holes).toHaveLength(1);
    expect(area(p.exterior)).toBe(9);
    expect(area(p.holes[0])).toBe(-1);
  });

  it('splits cells touching at a corner into separate simple rings', () => {
    const polys = traceGroups(layer(['0.', '.0']), 2, 2, 1);
    expect(polys[0]).toHaveLength(2);
    for (const p of polys[0]) {
      expect(area(p.exterior)).toBe(1);
      expect(simple(p.exterior)).toBe(true);
    }
  });

  it('keeps every ring simple around pinched holes, and puts an island inside a hole as its own polygon', () => {
    const pic = ['00000', '0.0.0', '00.00', '0.1.0', '00000'];
    const polys = traceGroups(layer(pic), 5, 5, 2);
    const rings = polys[0].flatMap((p) => [p.exterior, ...p.holes]);
    for (const r of rings) expect(simple(r)).toBe(true);
    const net = polys[0].reduce((s, p) => s + area(p.exterior) + p.holes.reduce((t, h) => t + area(h), 0), 0);
    expect(net).toBe(pic.join('').split('').filter((c) => c === '0').length);
    expect(polys[1]).toHaveLength(1);
    expect(area(polys[1][0].exterior)).toBe(1);
  });

  it('gives each group of a random map an area equal to its cell count', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const w = 40, h = 30, g = new Int32Array(w * h).map(() => Math.floor(rnd() * 4) - 1);
    const polys = traceGroups(g, w, h, 3);
    for (let k = 0; k < 3; k++) {
      const n = g.filter((x) => x === k).length;
      const net = polys[k].reduce((s, p) => s + area(p.exterior) + p.holes.reduce((t, hh) => t + area(hh), 0), 0);
      expect(net).toBe(n);
      for (const p of polys[k]) {
        expect(area(p.exterior)).toBeGreaterThan(0);
        for (const hh of p.holes) expect(area(hh)).toBeLessThan(0);
        for (const r of [p.exterior, ...p.holes]) expect(simple(r)).toBe(true);
      }
    }
  });
});

describe('GeoJSON writers', () => {
  it('zonal: one feature per unit with the summary once, CELLS, and a description', () => {
    const gj = JSON.parse(new TextDecoder().decode(writeGeoJsonZonal(CELLS_KEN_ZONAL, { pooled: false })));
    expect(gj.description).toMatch(/group's summary/);
    expect(gj.features.map((f: any) => [f.properties.ADM1_NAME_ALT, f.properties.CELLS, f.properties.ELEVATION])).toEqual([
      ['Central', 4, 1505.4], ['Rift Valley', 8, 1931.6], ['Région "Côte", Est', 5, 327.3], [null, 1, 901],
    ]);
    expect(gj.features.every((f: any) => f.geometry.type === 'Polygon')).toBe(true);
  });
  it('zonal pooled: groups by the by keys only, ISO3 lists the countries', () => {
    const gj = JSON.parse(new TextDecoder().decode(writeGeoJsonZonal(CELLS_KEN_ZONAL, { pooled: true })));
    expect(Object.keys(gj.features[0].properties)).toEqual(['ISO3', 'ADM1_NAME_ALT', 'CELLS', 'ELEVATION', 'ELEV_ZONE']);
    expect(gj.features[0].properties.ISO3).toBe('KEN');
  });
  it('per cell: points carrying the cell values and a description', () => {
    const gj = JSON.parse(new TextDecoder().decode(writeGeoJson(CELLS_KEN_NOBY)));
    expect(gj.description).toMatch(/own values/);
    expect(gj.features).toHaveLength(18);
    expect(gj.features[0].properties.ELEVATION).toBe(1523.5);
  });
});
