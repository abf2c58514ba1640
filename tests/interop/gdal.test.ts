/**
 * Interop: `gdalinfo -json` (GDAL from Debian) on every raster of the fixture packages:
 * geotransform, CRS, no-data, colour table, category names, raster attribute tables,
 * compression, predictor; `ogrinfo` on the GeoJSON (key properties).
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

/** Raster attribute table of band 1 as `gdalinfo` prints it (GDAL 3.6's -json leaves RATs out): column names and rows. */
function gdalRat(path: string): { names: string[]; rows: string[][] } | undefined {
  const text = execFileSync('gdalinfo', [path], { encoding: 'utf8', env: { ...process.env, GDAL_PAM_ENABLED: 'YES' } });
  const m = /<GDALRasterAttributeTable[^>]*>([\s\S]*?)<\/GDALRasterAttributeTable>/.exec(text);
  if (!m) return undefined;
  const unxml = (x: string) => x.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  const names = [...m[1].matchAll(/<Name>([^<]*)<\/Name>/g)].map((x) => unxml(x[1]));
  const rows = [...m[1].matchAll(/<Row[^>]*>([\s\S]*?)<\/Row>/g)].map((r) => [...r[1].matchAll(/<F>([^<]*)<\/F>/g)].map((f) => unxml(f[1])));
  return { names, rows };
}

function rasterFiles(name: string, ext: string): string[] {
  const p = pkgs.find((x) => x.name === name) as WrittenPackage;
  return p.files.filter((f) => f.endsWith(ext)).map((f) => join(p.dir, f));
}

describe('gdalinfo reads every raster', () => {
  it('geotransform, EPSG:4326 and size of every tif, asc and grd', () => {
    const files = [...rasterFiles('ken-tif', '.tif'), ...rasterFiles('ken-asc', '.asc'), ...rasterFiles('ken-grd', '.grd'), ...rasterFiles('ken-zone-grd', '.grd')];
    expect(files).toHaveLength(6);
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

  it('tif and asc class layers: a RAT maps the pixel value (index) to the catalog class value and label', () => {
    for (const f of [...rasterFiles('ken-tif', '.tif'), ...rasterFiles('ken-asc', '.asc')].filter((x) => x.includes('ELEV_ZONE'))) {
      expect(gdalRat(f), f).toEqual({
        names: ['value', 'class_value', 'label'],
        rows: [['0', '1', 'Lowland (< 500 m)'], ['1', '2', 'Midland (500-1500 m)'], ['2', '3', 'Highland (> 1500 m)']],
      });
    }
  });

  it('grd: two Float32 bands named by code, created by indapi3, no attribute table (one per file would cover every band)', () => {
    const [f] = rasterFiles('ken-grd', '.grd');
    const j = gdalinfo(f);
    expect(j.bands).toHaveLength(2);
    expect(j.bands.map((b: any) => b.type)).toEqual(['Float32', 'Float32']);
    expect(j.bands.map((b: any) => b.description)).toEqual(['ELEVATION', 'ELEV_ZONE']);
    expect(j.metadata[''].CREATOR).toBe('indapi3');
    expect(gdalRat(f)).toBeUndefined();
  });

  it('single-band class grd: band named by code, attribute table ID -> label with the code as column name', () => {
    const [f] = rasterFiles('ken-zone-grd', '.grd');
    const j = gdalinfo(f);
    expect(j.bands).toHaveLength(1);
    expect(j.bands[0].description).toBe('ELEV_ZONE');
    expect(gdalRat(f)).toEqual({ names: ['ID', 'ELEV_ZONE'], rows: [['1', 'Lowland (< 500 m)'], ['2', 'Midland (500-1500 m)'], ['3', 'Highland (> 1500 m)']] });
  });
});

describe('ogrinfo reads the GeoJSON', () => {
  it('key properties ISO3, ADM0_NAME and the by code come before the values, as strings', () => {
    const p = pkgs.find((x) => x.name === 'ken-json') as WrittenPackage;
    const f = join(p.dir, p.files.find((x) => x.endsWith('.geojson')) as string);
    const schema = execFileSync('ogrinfo', ['-ro', '-al', '-so', f], { encoding: 'utf8' });
    const fields = [...schema.matchAll(/^(\w+): (Integer|Real|String)/gm)].map((m) => [m[1], m[2]]);
    expect(fields).toEqual([['CELL5M', 'Integer'], ['X', 'Real'], ['Y', 'Real'], ['ISO3', 'String'], ['ADM0_NAME', 'String'], ['ADM1_NAME_ALT', 'String'], ['ELEVATION', 'Real'], ['ELEV_ZONE', 'String']]);
    const all = execFileSync('ogrinfo', ['-ro', '-al', '-q', f], { encoding: 'utf8' });
    const values = (name: string) => [...all.matchAll(new RegExp(`^  ${name} \\(\\w+\\) = (.*)$`, 'gm'))].map((m) => m[1]);
    expect(values('ISO3')).toEqual(new Array(18).fill('KEN'));
    expect(values('ADM0_NAME')).toEqual(new Array(18).fill('Kenya'));
    expect(values('ADM1_NAME_ALT').slice(0, 12)).toEqual(['Central', 'Central', 'Rift Valley', 'Rift Valley', 'Rift Valley', 'Central', 'Central', 'Rift Valley', 'Rift Valley', 'Rift Valley', 'Région "Côte", Est', 'Région "Côte", Est']);
    expect(values('ADM1_NAME_ALT')[17]).toBe('(null)');
  });
});
