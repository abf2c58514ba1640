/**
 * Measures writer sizes and times on the full bundle window (1080 x 756 cells).
 * Run: `npx tsx tests/formats/measure.ts <landmask.bin>` where landmask.bin is a raw Byte
 * 1080 x 756 land mask of the window (north row first), made from GSHHG with
 *   gmt grdlandmask -R-26/64/-35/28 -I5m -r -Dl -N0/1 -Gmask.nc
 *   gdal_translate -of ENVI -ot Byte mask.nc mask.bin
 * Layers measured: LAND (class, the mask itself) and AREA (continuous: the exact
 * spherical area of each land cell in km2, R = 6371.0072 km; not an invented value).
 */
import { readFileSync } from 'node:fs';
import type { CellResult } from '../../src/core/api';
import { SSA_GRID } from '../../src/core/grid';
import { genFile, writeGeoTiff, zipFiles } from '../../src/core/formats/index';

const W = SSA_GRID.width;
const H = SSA_GRID.height;
const raw = readFileSync(process.argv[2] ?? '/tmp/meas/mask.bin');
if (raw.length !== W * H) throw new Error(`expected ${W * H} bytes`);
const R = 6371.0072;
const d = (Math.PI / 180) / 12;
const land = new Float64Array(W * H);
const area = new Float64Array(W * H);
for (let r = 0; r < H; r++) {
  const top = ((SSA_GRID.ymax - r / 12) * Math.PI) / 180;
  const a = R * R * d * (Math.sin(top) - Math.sin(top - d));
  for (let c = 0; c < W; c++) {
    const i = r * W + c;
    land[i] = raw[i] ? 1 : NaN;
    area[i] = raw[i] ? Math.round(a * 100) / 100 : NaN;
  }
}
const mask = Uint8Array.from(raw, (x) => (x ? 1 : 0));
const cells: CellResult = {
  grid: SSA_GRID,
  mask,
  layers: [
    { code: 'AREA', type: 'continuous', values: area },
    { code: 'LAND', type: 'class', values: land, classes: [{ value: 1, label: 'land', color: '#8c510a' }] },
  ],
  meta: [],
};
const f32 = Float32Array.from(area, (v) => (Number.isNaN(v) ? -9999 : v));
for (const [label, opts] of [['uncompressed', { compress: false }], ['deflate, predictor 1', { predictor: 1 as const }], ['deflate, predictor 3', {}]] as const) {
  const t = performance.now();
  const b = writeGeoTiff({ width: W, height: H, data: f32, sampleType: 'Float32', xmin: -26, ymax: 28, cellSize: 1 / 12, noData: -9999, ...opts });
  console.log(`AREA Float32 tif ${label}: ${b.length} bytes, ${(performance.now() - t).toFixed(0)} ms`);
}
const byte = Uint8Array.from(raw, (x) => (x ? 0 : 255));
for (const [label, opts] of [['uncompressed', { compress: false }], ['deflate, predictor 2', {}]] as const) {
  const b = writeGeoTiff({ width: W, height: H, data: byte, sampleType: 'Byte', xmin: -26, ymax: 28, cellSize: 1 / 12, noData: 255, ...opts });
  console.log(`LAND Byte tif ${label}: ${b.length} bytes`);
}
for (const format of ['tif', 'asc', 'grd', 'json']) {
  const t = performance.now();
  const r = await genFile({ format, method: 'getLayer', args: { var: ['AREA', 'LAND'] }, cells, meta: [], now: new Date() });
  const t1 = performance.now();
  const z = await zipFiles(r.files);
  const total = r.files.reduce((s, f) => s + f.bytes.length, 0);
  console.log(`${format}: files ${total} bytes in ${(t1 - t).toFixed(0)} ms; zip ${z.length} bytes in ${(performance.now() - t1).toFixed(0)} ms`);
}
