/**
 * Interop: every datapackage.json of the fixture packages validates (ajv) against the
 * vendored Data Package v2 constraints (`datapackage.schema.json`, source URL inside), and
 * its resources name files that exist in the package.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAllPackages, type WrittenPackage } from './packages.fixture';

let root = '';
let pkgs: WrittenPackage[] = [];
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'indapi-dp-'));
  pkgs = await writeAllPackages(root);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const schema = JSON.parse(readFileSync(new URL('./datapackage.schema.json', import.meta.url), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

describe('datapackage.json', () => {
  it('is valid for every data package and names existing files', () => {
    const withDp = pkgs.filter((p) => p.files.includes('datapackage.json'));
    // every data package, rasters included (plot and hist are graphics, not packages)
    expect(withDp.map((p) => p.name).sort()).toEqual(pkgs.map((p) => p.name).sort());
    for (const p of withDp) {
      const dp = JSON.parse(readFileSync(join(p.dir, 'datapackage.json'), 'utf8'));
      const ok = validate(dp);
      expect(validate.errors ?? [], p.name).toEqual([]);
      expect(ok).toBe(true);
      const raster = ['tif', 'asc', 'grd'].includes(p.format);
      expect(dp.profile).toBe(raster || p.format === 'json' ? 'data-package' : 'tabular-data-package'); // GeoJSON and rasters are not tables
      expect(dp.resources.map((r: any) => r.path)).toContain('meta.csv');
      if (raster) {
        const files = p.files.filter((f) => /\.(tif|asc|grd|gri)$/.test(f));
        expect(dp.resources.filter((r: any) => r.path !== 'meta.csv').map((r: any) => r.path)).toEqual(files);
        for (const r of dp.resources.filter((x: any) => x.path !== 'meta.csv')) expect(r.mediatype).toBe({ tif: 'image/tiff', asc: 'application/x-ascii-grid', grd: 'application/octet-stream', gri: 'application/octet-stream' }[r.format as string]);
      }
      expect(dp.licenses[0].name).toBe('ODC-BY-1.0');
      for (const r of dp.resources) expect(existsSync(join(p.dir, r.path)), r.path).toBe(true);
    }
  });
  it('rejects a descriptor without resources or with a bad licence name (the schema can fail)', () => {
    expect(validate({ name: 'x' })).toBe(false);
    expect(validate({ resources: [{ name: 'a', path: 'a.csv' }], licenses: [{ name: 'bad name' }] })).toBe(false);
    expect(validate({ resources: [{ name: 'A b', path: '../a.csv' }] })).toBe(false);
  });
});
