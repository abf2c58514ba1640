/**
 * Running GDAL's command-line tools (Debian package `gdal-bin`) for the raster and boundary
 * ingest: presence checks with a clear message, abortable runs, and writing grid arrays as
 * COGs with the bundle's layout (EPSG:4326, 256 x 256 tiles, DEFLATE with a predictor,
 * internal overviews).
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import { IndapiError, throwIfAborted } from '../../core/errors';
import type { GridDef } from '../../core/grid';
import { writeCog } from '../../core/formats/cog';

/** The GDAL tools the raster and boundary ingest use. */
export type GdalTool = 'gdalwarp' | 'gdal_rasterize' | 'gdal_translate' | 'ogr2ogr';

const checked = new Map<string, boolean>();

/**
 * Checks that GDAL tools can be run (`<tool> --version`).
 * @param tools tools needed
 * @param what the option that needs them, for the message (e.g. "--raster")
 * @throws IndapiError IO naming the missing tool and how to install it, detail `{ missing: [...] }`
 */
export function requireGdal(tools: GdalTool[], what: string): void {
  const missing = tools.filter((t) => {
    if (!checked.has(t)) {
      const r = spawnSync(t, ['--version'], { encoding: 'utf8' });
      checked.set(t, !r.error && r.status === 0);
    }
    return !checked.get(t);
  });
  if (missing.length) {
    throw new IndapiError('IO', `${what} needs GDAL's ${missing.join(' and ')}, which ${missing.length > 1 ? 'are' : 'is'} not installed or not on PATH. ` +
      'Install GDAL 3.1 or later (Debian/Ubuntu: apt-get install gdal-bin; macOS: brew install gdal) and run again. ' +
      'The table ingest (--table) needs nothing beyond Node.', { missing });
  }
}

/** Forgets the presence checks (tests that change PATH). */
export function resetGdalChecks(): void {
  checked.clear();
}

/**
 * Runs a GDAL tool; resolves with its stdout.
 * @throws IndapiError IO with the tool's stderr when it fails, ABORTED on abort (the process is killed)
 */
export function runGdal(tool: GdalTool | 'gdalinfo', args: string[], signal?: AbortSignal): Promise<string> {
  throwIfAborted(signal);
  return new Promise((resolve, reject) => {
    const p = spawn(tool, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    p.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    p.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    const onAbort = () => p.kill('SIGTERM');
    signal?.addEventListener('abort', onAbort, { once: true });
    p.on('error', (e) => {
      signal?.removeEventListener('abort', onAbort);
      reject(new IndapiError('IO', `Cannot run ${tool}: ${e.message}. Install GDAL (Debian/Ubuntu: apt-get install gdal-bin).`));
    });
    p.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) reject(new IndapiError('ABORTED', 'The request was aborted.'));
      else if (code !== 0) reject(new IndapiError('IO', `${tool} failed (exit ${code}): ${err.trim().split('\n').slice(-3).join(' ')}`));
      else resolve(out);
    });
  });
}

/** GDAL data type names of the COGs the ingest writes. */
export type GdalType = 'Byte' | 'UInt16' | 'Int32' | 'Float32';

/** The GDAL geotransform of a grid (exact 1/12-degree steps, no rounding). */
export function geoTransform(grid: GridDef): number[] {
  return [grid.xmin, grid.cellSizeDeg, 0, grid.ymax, 0, -grid.cellSizeDeg];
}

/**
 * Writes a grid-sized array as a COG with the project's pure writer (src/core/formats/cog.ts,
 * the same layout the table ingest writes; native zlib). Int32 samples, which that writer does
 * not take, go to a raw file described by a VRT (exact geotransform) that gdal_translate turns
 * into a COG.
 * @param values one sample per cell, row-major, north row first; NaN (Float32) or `noData` = no-data
 * @param type sample type of the COG
 * @param noData no-data value written in the COG
 * @param tmpBase path prefix for the temporary raw and VRT files
 * @param out COG path
 * @throws IndapiError IO when GDAL fails
 */
export async function writeGridCog(grid: GridDef, values: Float32Array | Int32Array, type: GdalType, noData: number, tmpBase: string, out: string, signal?: AbortSignal): Promise<void> {
  const n = grid.width * grid.height;
  if (type !== 'Int32') {
    const data = type === 'Float32' ? new Float32Array(n) : type === 'Byte' ? new Uint8Array(n) : new Uint16Array(n);
    for (let i = 0; i < n; i++) {
      const v = values[i];
      data[i] = v !== v || (type !== 'Float32' && v < 0) ? noData : v;
    }
    throwIfAborted(signal);
    const bytes = writeCog({ width: grid.width, height: grid.height, data, sampleType: type, xmin: grid.xmin, ymax: grid.ymax, cellSize: grid.cellSizeDeg, noData, deflate: (d) => deflateSync(d) });
    await writeFile(out, bytes);
    return;
  }
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    a[i] = v !== v || v < 0 ? noData : v;
  }
  const raw = new Uint8Array(a.buffer);
  const size = 4;
  await writeFile(`${tmpBase}.raw`, raw);
  const vrt = `<VRTDataset rasterXSize="${grid.width}" rasterYSize="${grid.height}">
  <SRS>EPSG:4326</SRS>
  <GeoTransform>${geoTransform(grid).map((v) => v.toPrecision(17)).join(', ')}</GeoTransform>
  <VRTRasterBand dataType="${type}" band="1" subClass="VRTRawRasterBand">
    <NoDataValue>${noData}</NoDataValue>
    <SourceFilename relativeToVRT="0">${tmpBase}.raw</SourceFilename>
    <ByteOrder>LSB</ByteOrder>
    <ImageOffset>0</ImageOffset>
    <PixelOffset>${size}</PixelOffset>
    <LineOffset>${size * grid.width}</LineOffset>
  </VRTRasterBand>
</VRTDataset>
`;
  await writeFile(`${tmpBase}.vrt`, vrt);
  await runGdal('gdal_translate', ['-q', '-of', 'COG', '-a_srs', 'EPSG:4326', '-co', 'COMPRESS=DEFLATE', '-co', 'BLOCKSIZE=256',
    '-co', 'PREDICTOR=STANDARD', '-co', 'OVERVIEWS=AUTO', `${tmpBase}.vrt`, out], signal);
}
