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
});
