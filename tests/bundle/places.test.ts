import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import Papa from 'papaparse';

// The place file of the app's labels and place search (scripts/data/places.py), real GeoNames data.
describe('basemap/places.csv', () => {
  const rows = Papa.parse<Record<string, string>>(readFileSync('public/data/basemap/places.csv', 'utf8').trim(), { header: true }).data;
  const iso = new Set(readFileSync('scripts/data/countries.csv', 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')[0]));
  test('places of 20,000+ people in the 49 countries, by population, with EPSG:4326 coordinates', () => {
    expect(rows.length).toBeGreaterThan(1000);
    expect(Object.keys(rows[0])).toEqual(['name', 'iso3', 'population', 'lon', 'lat']);
    for (const r of rows) {
      expect(iso.has(r.iso3)).toBe(true);
      expect(Number(r.population)).toBeGreaterThanOrEqual(20000);
      expect(Math.abs(Number(r.lon))).toBeLessThanOrEqual(180);
      expect(Math.abs(Number(r.lat))).toBeLessThanOrEqual(90);
    }
    const pops = rows.map((r) => Number(r.population));
    expect(pops).toEqual([...pops].sort((a, b) => b - a));
    const nbo = rows.find((r) => r.name === 'Nairobi' && r.iso3 === 'KEN')!;
    expect(Number(nbo.lon)).toBeCloseTo(36.82, 1);
    expect(Number(nbo.lat)).toBeCloseTo(-1.28, 1);
  });
});
