/**
 * manifest.json: lists every bundle file (and only those) with its true size and sha256,
 * carries the grid of SSA_GRID, and the bundle stays small.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SSA_GRID } from '../../src/core/grid';
import { BUNDLE, readManifest } from './bundle.fixture';

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [relative(BUNDLE, p).split(sep).join('/')];
  });
}

describe('manifest.json', () => {
  const man = readManifest();

  it('names the bundle and a YYYY.MM.N version and an ISO date', () => {
    expect(man.name).toBe('indapi3-bundle');
    expect(man.version).toMatch(/^\d{4}\.\d{2}\.\d+$/);
    expect(man.created).toMatch(/^\d{4}-\d{2}-\d{2}/);
  });

  it('carries exactly the GridDef of SSA_GRID', () => {
    expect(man.grid).toEqual({ ...SSA_GRID });
  });

  it('lists every file of the bundle except itself, sorted, with no side files', () => {
    const onDisk = walk(BUNDLE).filter((p) => p !== 'manifest.json').sort();
    expect(man.files.map((f) => f.path)).toEqual(onDisk);
    expect(onDisk.filter((p) => p.endsWith('.aux.xml'))).toEqual([]);
    for (const need of ['vi.csv', 'iso.csv', 'README.md', 'basemap/countries.geojson', 'basemap/admin1.geojson']) {
      expect(onDisk).toContain(need);
    }
  });

  it('has the true byte size and sha256 of every file', () => {
    for (const f of man.files) {
      const buf = readFileSync(join(BUNDLE, f.path));
      expect({ path: f.path, bytes: buf.length, sha256: createHash('sha256').update(buf).digest('hex') }).toEqual({
        path: f.path,
        bytes: f.bytes,
        sha256: f.sha256,
      });
    }
  });

  it('keeps the bundle under 25 MB and each file under 20 MB, the basemap under 3 MB', () => {
    const total = man.files.reduce((s, f) => s + f.bytes, 0);
    expect(total).toBeLessThan(25 * 1024 * 1024);
    for (const f of man.files) expect(f.bytes).toBeLessThan(20 * 1024 * 1024);
    const basemap = man.files.filter((f) => f.path.startsWith('basemap/')).reduce((s, f) => s + f.bytes, 0);
    expect(basemap).toBeLessThan(3 * 1024 * 1024);
  });
});
