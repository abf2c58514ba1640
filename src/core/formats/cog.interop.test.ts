/**
 * The pure COG writer read by GDAL: gdalinfo, and the COG validator with its full check of
 * IFD order, data order, block leaders and trailers (interop tier: needs GDAL and Python).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeCog } from './cog';

const dir = mkdtempSync(join(tmpdir(), 'cog-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The same 600 x 300 rasters as cog.test.ts (3 x 2 tiles at full resolution, then 300 x 150, then 150 x 75).
const W = 600;
const H = 300;
const f32 = new Float32Array(W * H).fill(-9999);
for (let y = 20; y < H; y++) for (let x = 0; x < W - 30; x++) f32[y * W + x] = Math.round((x * 0.37 + y * 1.3) * 100) / 100;
const u16 = new Uint16Array(W * H).fill(65535);
for (let i = 0; i < W * H; i++) if (f32[i] !== -9999) u16[i] = (i % 7) * 300;
const geo = { xmin: -26, ymax: 28, cellSize: 1 / 12 };

describe('writeCog read by GDAL', () => {
  const fbytes = writeCog({ width: W, height: H, data: f32, sampleType: 'Float32', noData: -9999, ...geo });
  const ubytes = writeCog({ width: W, height: H, data: u16, sampleType: 'UInt16', noData: 65535, ...geo });

  it('is a valid COG for GDAL (validate_cloud_optimized_geotiff full check, LAYOUT=COG)', () => {
    const fp = join(dir, 'f.tif');
    const up = join(dir, 'u.tif');
    writeFileSync(fp, fbytes);
    writeFileSync(up, ubytes);
    const script = [
      'import sys, json',
      'from osgeo_utils.samples.validate_cloud_optimized_geotiff import validate',
      'print(json.dumps([validate(p, full_check=True)[1] for p in sys.argv[1:]]))',
    ].join('\n');
    expect(JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, fp, up], { encoding: 'utf8' }))).toEqual([[], []]);
    const info = JSON.parse(execFileSync('gdalinfo', ['-json', '-stats', fp], { encoding: 'utf8', env: { ...process.env, GDAL_PAM_ENABLED: 'NO' } }));
    expect(info.metadata.IMAGE_STRUCTURE).toMatchObject({ LAYOUT: 'COG', COMPRESSION: 'DEFLATE', PREDICTOR: '3' });
    expect(info.coordinateSystem.wkt).toMatch(/ID\["EPSG",4326\]\]$/);
    expect(info.bands[0].block).toEqual([256, 256]);
    expect(info.bands[0].overviews.map((o: { size: number[] }) => o.size)).toEqual([[300, 150], [150, 75]]);
    let min = Infinity;
    let max = -Infinity;
    for (const v of f32) if (v !== -9999) { min = Math.min(min, v); max = Math.max(max, v); }
    expect(info.bands[0].minimum).toBeCloseTo(min, 4);
    expect(info.bands[0].maximum).toBeCloseTo(max, 4);
  });
});
