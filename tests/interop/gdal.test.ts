/**
 * Interop: `gdalinfo -json` (GDAL from Debian) on every raster of the fixture packages:
 * geotransform, CRS, no-data, colour table, category names, raster attribute tables,
 * compression, predictor; `ogrinfo` on the GeoJSON (key properties; zonal polygons checked
 * against the per-cell points with SpatiaLite SQL: validity, areas, sums).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellResult } from '../../src/core/api';
import { writeGeoJson, writeGeoJsonZonal } from '../../src/core/formats/geojson';
import { FIXTURE_GRID, ISO3_CLASSES } from '../formats/formats.fixture';
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
  it('per cell: key properties ISO3 and ADM0_NAME come before the cell values', () => {
    const p = pkgs.find((x) => x.name === 'ken-json-cells') as WrittenPackage;
    const f = join(p.dir, p.files.find((x) => x.endsWith('.geojson')) as string);
    const schema = execFileSync('ogrinfo', ['-ro', '-al', '-so', f], { encoding: 'utf8' });
    const fields = [...schema.matchAll(/^(\w+): (Integer|Real|String)/gm)].map((m) => [m[1], m[2]]);
    expect(fields).toEqual([['CELL5M', 'Integer'], ['X', 'Real'], ['Y', 'Real'], ['ISO3', 'String'], ['ADM0_NAME', 'String'], ['ELEVATION', 'Real'], ['ELEV_ZONE', 'String']]);
    expect(schema).toMatch(/Geometry: Point/);
    expect(schema).toMatch(/Feature Count: 18/);
    const all = execFileSync('ogrinfo', ['-ro', '-al', '-q', f], { encoding: 'utf8' });
    const values = (name: string) => [...all.matchAll(new RegExp(`^  ${name} \\(\\w+\\) = (.*)$`, 'gm'))].map((m) => m[1]);
    expect(values('ISO3')).toEqual(new Array(18).fill('KEN'));
    expect(values('ADM0_NAME')).toEqual(new Array(18).fill('Kenya'));
    expect(values('ELEVATION').slice(0, 3)).toEqual(['1523.5', '1610', '1702.25']);
  });

  it('zonal: one polygon per unit with keys, CELLS and the summary, as strings before the values', () => {
    const p = pkgs.find((x) => x.name === 'ken-json') as WrittenPackage;
    const f = join(p.dir, p.files.find((x) => x.endsWith('.geojson')) as string);
    const schema = execFileSync('ogrinfo', ['-ro', '-al', '-so', f], { encoding: 'utf8' });
    const fields = [...schema.matchAll(/^(\w+): (Integer|Real|String)/gm)].map((m) => [m[1], m[2]]);
    expect(fields).toEqual([['ISO3', 'String'], ['ADM0_NAME', 'String'], ['ADM1_NAME_ALT', 'String'], ['CELLS', 'Integer'], ['ELEVATION', 'Real'], ['ELEV_ZONE', 'String']]);
    expect(schema).toMatch(/Geometry: Polygon/);
    expect(schema).toMatch(/Feature Count: 4/);
    const all = execFileSync('ogrinfo', ['-ro', '-al', '-q', f], { encoding: 'utf8' });
    const values = (name: string) => [...all.matchAll(new RegExp(`^  ${name} \\(\\w+\\) = (.*)$`, 'gm'))].map((m) => m[1]);
    expect(values('ADM1_NAME_ALT')).toEqual(['Central', 'Rift Valley', 'Région "Côte", Est', '(null)']);
    expect(values('ELEVATION')).toEqual(['1505.4', '1931.6', '327.3', '901']);
  });

  it('zonal polygons of a made-up map with enclaves, split units and holes: valid, areas = cells, each total = sum of its cells\' points', () => {
    // FIXTURE: made-up 48 x 36 map of 7 units (nearest of 7 seeds), unit 7 also as an enclave
    // inside unit 1, unit 2 also as a detached block, a ring of unselected cells (a hole) and
    // a few cells without a unit (the NA group); AREA_TOTAL per cell made-up values.
    const w = 48, h = 36, n = w * h;
    const seeds = [[5, 5], [40, 4], [24, 18], [8, 30], [42, 30], [30, 8], [16, 16]];
    const unit = new Float64Array(n), mask = new Uint8Array(n), area = new Float64Array(n).fill(NaN);
    for (let r = 0; r < h; r++) {
      for (let c = 0; c < w; c++) {
        const i = r * w + c;
        let best = 0;
        seeds.forEach(([x, y], k) => { if ((x - c) ** 2 + (y - r) ** 2 < (seeds[best][0] - c) ** 2 + (seeds[best][1] - r) ** 2) best = k; });
        unit[i] = 101 + best;
        if (c >= 3 && c <= 5 && r >= 3 && r <= 5) unit[i] = 107; // enclave in unit 1
        if (c >= 44 && r >= 22 && r <= 25) unit[i] = 102; // detached piece of unit 2
        if (c === 24 && r >= 20 && r <= 22) unit[i] = NaN; // no unit
        mask[i] = (r === 12 && c >= 20 && c <= 28) || (c === 20 && r >= 12 && r <= 14) ? 0 : 1; // unselected cells
        if (!mask[i]) unit[i] = NaN;
        else area[i] = ((i * 7919) % 97) + 0.5;
      }
    }
    const classes = seeds.map((_, k) => ({ value: 101 + k, label: `Fixture unit ${k + 1}` }));
    const sums = new Map<number, number>();
    for (let i = 0; i < n; i++) if (mask[i]) sums.set(unit[i], (sums.get(unit[i]) ?? 0) + area[i]);
    const grid = { ...FIXTURE_GRID, width: w, height: h, xmax: FIXTURE_GRID.xmin + w / 12, ymin: FIXTURE_GRID.ymax - h / 12 };
    const iso = { code: 'ISO3', type: 'class' as const, values: Float64Array.from(mask, (m) => (m ? 23 : NaN)), classes: [ISO3_CLASSES[0]] };
    const meta: CellResult['meta'] = [];
    const perCell: CellResult = { grid, mask, layers: [{ code: 'AREA_TOTAL', type: 'continuous', values: area }], keys: [iso], meta };
    const zonal: CellResult = {
      grid, mask, meta,
      layers: [{ code: 'AREA_TOTAL', type: 'continuous', values: Float64Array.from(unit, (u, i) => (mask[i] ? (sums.get(u) as number) : NaN)) }],
      keys: [iso, { code: 'ADM1_NAME_ALT', type: 'class', values: unit, classes }],
    };
    const dir = mkdtempSync(join(tmpdir(), 'indapi-zonal-'));
    try {
      writeFileSync(join(dir, 'cells.geojson'), writeGeoJson(perCell));
      writeFileSync(join(dir, 'zonal.geojson'), writeGeoJsonZonal(zonal, { pooled: false }));
      const gpkg = join(dir, 'both.gpkg');
      execFileSync('ogr2ogr', ['-f', 'GPKG', gpkg, join(dir, 'zonal.geojson'), '-nln', 'zonal']);
      execFileSync('ogr2ogr', ['-f', 'GPKG', '-update', gpkg, join(dir, 'cells.geojson'), '-nln', 'cells']);
      const sql = 'SELECT z.ADM1_NAME_ALT AS unit, z.AREA_TOTAL AS total, z.CELLS AS ncells, ST_Area(z.geom) AS area, ST_IsValid(z.geom) AS valid, ST_NumGeometries(z.geom) AS parts, ' +
        '(SELECT SUM(c.AREA_TOTAL) FROM cells c WHERE ST_Within(c.geom, z.geom)) AS cellsum, (SELECT COUNT(*) FROM cells c WHERE ST_Within(c.geom, z.geom)) AS inside FROM zonal z';
      const out = execFileSync('ogrinfo', ['-ro', '-q', '-dialect', 'SQLite', '-sql', sql, gpkg], { encoding: 'utf8' });
      const rows = out.split(/OGRFeature\(SELECT\):\d+/).slice(1).map((b) => Object.fromEntries([...b.matchAll(/^\s+(\w+) \(\w+\) = (.*)$/gm)].map((m) => [m[1], m[2]])));
      expect(rows).toHaveLength(8); // 7 units + the NA group
      expect(rows.map((r) => r.unit).filter((u) => u !== '(null)').sort()).toEqual(classes.map((c) => c.label));
      let cellsTotal = 0;
      for (const r of rows) {
        expect(r.valid).toBe('1');
        expect(Number(r.inside)).toBe(Number(r.ncells));
        expect(Number(r.cellsum)).toBeCloseTo(Number(r.total), 6);
        expect(Number(r.area)).toBeCloseTo(Number(r.ncells) / 144, 9);
        cellsTotal += Number(r.ncells);
      }
      expect(cellsTotal).toBe(mask.reduce((s, m) => s + m, 0));
      expect(Number(rows.find((r) => r.unit === 'Fixture unit 2')?.parts)).toBe(2);
      expect(Number(rows.find((r) => r.unit === 'Fixture unit 7')?.parts)).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
