/**
 * Interop: `gdalinfo -json` (GDAL from Debian) on every raster of the fixture packages:
 * geotransform, CRS, no-data, colour table, category names, compression, predictor.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAllPackages, type WrittenPackage } from './packages.fixture';

let root = '';
let pkgs: WrittenPackage[] = [];
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'indapi-gdal-'));
  pkgs = await writeAllPackages(root);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function gdalinfo(path: string): any {
  return JSON.parse(execFileSync('gdalinfo', ['-json', '-mdd', 'IMAGE_STRUCTURE', path], { encoding: 'utf8', env: { ...process.env, GDAL_PAM_ENABLED: 'YES' } }));
}

function rasterFiles(name: string, ext: string): string[] {
  const p = pkgs.find((x) => x.name === name) as WrittenPackage;
  return p.files.filter((f) => f.endsWith(ext)).map((f) => join(p.dir, f));
}

describe('gdalinfo reads every raster', () => {
  it('geotransform, EPSG:4326 and size of every tif, asc and grd', () => {
    const files = [...rasterFiles('ken-tif', '.tif'), ...rasterFiles('ken-asc', '.asc'), ...rasterFiles('ken-grd', '.grd')];
    expect(files).toHaveLength(5);
    for (const f of files) {
      const j = gdalinfo(f);
      expect(j.size).toEqual([5, 4]);
      const gt = j.geoTransform as number[];
      expect(gt[0]).toBeCloseTo(36, 9);
      expect(gt[1]).toBeCloseTo(1 / 12, 12);
      expect(gt[3]).toBeCloseTo(0.5, 9);
      expect(gt[5]).toBeCloseTo(-1 / 12, 12);
      expect([gt[2], gt[4]]).toEqual([0, 0]);
      expect(j.coordinateSystem.wkt).toMatch(/WGS.84/);
    }
  });

  it('tif: Float32, no-data -9999, DEFLATE with predictor 3, EPSG 4326, PixelIsArea', () => {
    const [f] = rasterFiles('ken-tif', '.tif').filter((x) => x.includes('ELEVATION'));
    const j = gdalinfo(f);
    const b = j.bands[0];
    expect(b.type).toBe('Float32');
    expect(b.noDataValue).toBe(-9999);
    expect(j.metadata.IMAGE_STRUCTURE).toMatchObject({ COMPRESSION: 'DEFLATE', PREDICTOR: '3' });
    expect(j.metadata[''].AREA_OR_POINT).toBe('Area');
    expect(j.stac['proj:epsg']).toBe(4326);
    const st = JSON.parse(execFileSync('gdalinfo', ['-json', '-stats', '-nomd', f], { encoding: 'utf8', env: { ...process.env, GDAL_PAM_ENABLED: 'NO' } }));
    expect(st.bands[0].minimum).toBe(-12);
    expect(st.bands[0].maximum).toBe(2950);
  });

  it('tif class layer: Byte, no-data 255, palette colour table, category names from the .aux.xml', () => {
    const [f] = rasterFiles('ken-tif', '.tif').filter((x) => x.includes('ELEV_ZONE'));
    const b = gdalinfo(f).bands[0];
    expect(b.type).toBe('Byte');
    expect(b.noDataValue).toBe(255);
    expect(b.colorInterpretation).toBe('Palette');
    expect(b.colorTable.entries.slice(0, 3)).toEqual([[26, 152, 80, 255], [254, 224, 139, 255], [215, 48, 39, 255]]);
    expect(b.categories).toEqual(['Lowland (< 500 m)', 'Midland (500-1500 m)', 'Highland (> 1500 m)']);
    expect(b.description).toBe('ELEV_ZONE');
  });

  it('asc: no-data -9999, categories and colour table from the .aux.xml, .prj read', () => {
    const [f] = rasterFiles('ken-asc', '.asc').filter((x) => x.includes('ELEV_ZONE'));
    const j = gdalinfo(f);
    expect(j.bands[0].noDataValue).toBe(-9999);
    expect(j.bands[0].categories).toHaveLength(3);
    expect(j.bands[0].colorTable.entries[2]).toEqual([215, 48, 39, 255]);
    expect(j.coordinateSystem.wkt).toMatch(/GCS_WGS_1984|WGS 84/);
  });

  it('grd: two Float32 bands named by code', () => {
    const [f] = rasterFiles('ken-grd', '.grd');
    const j = gdalinfo(f);
    expect(j.bands).toHaveLength(2);
    expect(j.bands.map((b: any) => b.type)).toEqual(['Float32', 'Float32']);
    expect(j.bands.map((b: any) => b.description)).toEqual(['ELEVATION', 'ELEV_ZONE']);
  });
});
