import { expect, test } from 'vitest';
import { parseBasemaps, parseConfig } from './config';

const at = 'https://host.example/app/config.json';

test('dataUrl resolves against config.json and ends in a slash', () => {
  expect(parseConfig({}, at)).toEqual({ dataUrl: 'https://host.example/app/data/', cacheMB: undefined, error: undefined });
  expect(parseConfig({ dataUrl: 'https://cdn.example/bundle750' }, at).dataUrl).toBe('https://cdn.example/bundle750/');
  expect(parseConfig({ dataUrl: '../other/' }, at).dataUrl).toBe('https://host.example/other/');
  expect(parseConfig({ dataUrl: './data/', cacheMB: 50 }, at).cacheMB).toBe(50);
});

test('a bad dataUrl falls back to ./data/ and says why', () => {
  const c = parseConfig({ dataUrl: 'javascript:alert(1)' }, at);
  expect(c.dataUrl).toBe('https://host.example/app/data/');
  expect(c.error).toMatch(/not an http\(s\) URL/);
  expect(parseConfig({ dataUrl: 3 }, at).error).toMatch(/must be a string/);
  expect(parseConfig({ cacheMB: -1 }, at).cacheMB).toBeUndefined();
});

test('online basemaps: valid entries kept with defaults, bad ones left out and named', () => {
  const osm = { id: 'osm', label: 'OpenStreetMap', tiles: ['https://tile.openstreetmap.org/{z}/{x}/{y}.png'], attribution: '© OpenStreetMap contributors' };
  expect(parseConfig({ basemaps: [osm] }, at).basemaps).toEqual([{ ...osm, tileSize: 256, maxzoom: 19 }]);
  const r = parseBasemaps([osm, { id: 'x', label: 'X', tiles: ['http://insecure/{z}/{x}/{y}.png'] }, { label: 'no id', tiles: osm.tiles }]);
  expect(r.basemaps.map((b) => b.id)).toEqual(['osm']);
  expect(r.error).toMatch(/entries 2, 3 left out/);
  expect(parseBasemaps('osm').error).toMatch(/must be a list/);
  expect(parseConfig({}, at).basemaps).toBeUndefined();
});
