/**
 * basemap/: countries.geojson covers every SSA country and its neighbours with `iso3` and
 * `name`; admin1.geojson has one feature per ADM1 class value with matching code, name, iso3.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLE, readClassTable } from './bundle.fixture';

function geojson(rel: string): { type: string; features: { geometry: { type: string }; properties: Record<string, unknown> }[] } {
  return JSON.parse(readFileSync(join(BUNDLE, 'basemap', rel), 'utf8'));
}

describe('basemap', () => {
  it('countries.geojson has every SSA country and the North African neighbours, as polygons with iso3 and name', () => {
    const g = geojson('countries.geojson');
    expect(g.type).toBe('FeatureCollection');
    const isos = new Set(g.features.map((f) => f.properties.iso3));
    for (const c of readClassTable('ISO3').labels.values()) expect(isos.has(c)).toBe(true);
    for (const c of ['EGY', 'LBY', 'DZA', 'MAR', 'YEM', 'SAU']) expect(isos.has(c)).toBe(true);
    for (const f of g.features) {
      expect(['Polygon', 'MultiPolygon']).toContain(f.geometry.type);
      expect(String(f.properties.name)).not.toBe('');
    }
  });

  it('no country outline spans more than 180 degrees of longitude (antimeridian outlines such as Fiji are left out)', () => {
    const g = geojson('countries.geojson') as unknown as { features: { geometry: { coordinates: unknown }; properties: Record<string, unknown> }[] };
    const lons = (c: unknown): number[] => (Array.isArray(c) && typeof c[0] === 'number' ? [c[0] as number] : (c as unknown[]).flatMap(lons));
    for (const f of g.features) {
      const xs = lons(f.geometry.coordinates);
      expect(Math.max(...xs) - Math.min(...xs), String(f.properties.name)).toBeLessThan(180);
    }
  });

  it('admin1.geojson has one feature per ADM1 raster value with the class tables\' code, name and iso3', () => {
    const g = geojson('admin1.geojson');
    const rows = readClassTable('ADM1_CODE_ALT').rows;
    expect(g.features).toHaveLength(rows.length);
    const byValue = new Map(g.features.map((f) => [Number(f.properties.value), f.properties]));
    for (const r of rows) {
      expect(byValue.get(Number(r.value))).toEqual({ value: Number(r.value), code: r.label, name: r.name, iso3: r.iso3 });
    }
  });

  it('lakes.geojson: GSHHG lakes of 150+ km2 in the window, largest first (Lake Victoria, about 67,000 km2 at 30 arc-seconds; Tanganyika, Malawi next), polygons', () => {
    const g = geojson('lakes.geojson');
    expect(g.features.length).toBeGreaterThan(40);
    const areas = g.features.map((f) => Number(f.properties.areaKm2));
    expect(areas).toEqual([...areas].sort((a, b) => b - a));
    expect(Math.min(...areas)).toBeGreaterThanOrEqual(150);
    expect(areas[0]).toBeGreaterThan(60_000);
    expect(areas[0]).toBeLessThan(70_000);
    expect(areas[1]).toBeGreaterThan(25_000); // Lake Tanganyika (32,900 km2)
    for (const f of g.features) expect(['Polygon', 'MultiPolygon']).toContain(f.geometry.type);
    const c = (g.features[0].geometry as unknown as { coordinates: number[][][] }).coordinates[0];
    const xs = c.map((p) => p[0]), ys = c.map((p) => p[1]);
    expect(Math.min(...xs)).toBeGreaterThan(31); expect(Math.max(...xs)).toBeLessThan(35); // 31.5..34.9 E
    expect(Math.min(...ys)).toBeGreaterThan(-3.2); expect(Math.max(...ys)).toBeLessThan(0.6); // 3.1 S..0.5 N
  });

  it('rivers.geojson: WDBII classes 1 and 2 as lines inside the bundle window', () => {
    const g = geojson('rivers.geojson') as unknown as { features: { geometry: { type: string; coordinates: number[][][] }; properties: { class: number } }[] };
    expect(g.features.length).toBeGreaterThan(100);
    expect(new Set(g.features.map((f) => f.properties.class))).toEqual(new Set([1, 2]));
    for (const f of g.features) {
      expect(['LineString', 'MultiLineString']).toContain(f.geometry.type);
      const pts = (f.geometry.type === 'LineString' ? [f.geometry.coordinates] : f.geometry.coordinates) as unknown as number[][][];
      for (const line of pts) for (const [x, y] of line) { expect(x).toBeGreaterThanOrEqual(-26); expect(x).toBeLessThanOrEqual(64); expect(y).toBeGreaterThanOrEqual(-35); expect(y).toBeLessThanOrEqual(28); }
    }
  });
});
