/**
 * A pure Cloud-Optimized GeoTIFF writer: one band, 256 x 256 tiles, DEFLATE (zlib, TIFF
 * compression 8) with a predictor (3 for Float32/Float64, 2 for integers), internal overviews
 * (halving until the image fits one tile), GeoKeys for EPSG:4326, GDAL_NODATA and, for a scaled
 * band (the table ingest's decimal integers, src/core/cog/decode.ts), GDAL_METADATA (tag 42112)
 * with the band's SCALE and OFFSET, which GDAL, terra and QGIS apply when they read values.
 *
 * Layout, as GDAL's COG driver writes it (https://gdal.org/drivers/raster/cog.html,
 * "File format details"): TIFF header, GDAL's ghost structural-metadata area
 * (`GDAL_STRUCTURAL_METADATA_SIZE=... LAYOUT=IFDS_BEFORE_DATA BLOCK_ORDER=ROW_MAJOR
 * BLOCK_LEADER=SIZE_AS_UINT4 BLOCK_TRAILER=LAST_4_BYTES_REPEATED`), then every IFD (full
 * resolution first, then the overviews from largest to smallest) with their out-of-line
 * values, then the tile data: smallest overview first, full resolution last, tiles in row-major
 * order, each preceded by its byte count (uint32) and followed by a copy of its last 4 bytes.
 * This passes GDAL's `validate_cloud_optimized_geotiff.py` (full check). The bytes are laid out by
 * the project's one TIFF serialiser, `serialiseTiff` in ./tiff.ts (with `writeGeoTiff`).
 *
 * Specs: TIFF 6.0 (tiles: TileWidth 322, TileLength 323, TileOffsets 324, TileByteCounts 325;
 * NewSubfileType 254 = 1 for reduced-resolution images), Adobe TIFF Technical Note 3
 * (floating-point predictor), OGC GeoTIFF 1.1 (OGC 19-008r4), GDAL TIFFTAG_GDAL_NODATA (42113)
 * and TIFFTAG_GDAL_METADATA (42112; https://gdal.org/drivers/raster/gtiff.html).
 * Overviews: "average" = mean of the valid (not no-data, not NaN) cells of each 2 x 2 block of
 * the level above (GDAL's AVERAGE; rounded to the nearest integer for integer samples, the
 * stored numbers of a scaled band); "mode" = the most frequent valid value, ties to the smaller value
 * (GDAL's MODE), for class layers. Overview sizes halve with truncation (1080 x 756 ->
 * 540 x 378 -> 270 x 189 -> 135 x 94), as GDAL's COG driver does.
 */
import { zlibSync } from 'fflate';
import { gdalScaleXml } from '../cog/decode';
import { utf8 } from './bytes';
import { predictRows } from './predictor';
import { asciiz, bytesPerSample, geoEntries, sampleFormat, serialiseTiff, TIFF_TYPE, type TiffEntry, type TiffSampleType } from './tiff';

/** zlib (RFC 1950) compressor; Node adapters may inject the native `zlib.deflateSync`. */
export type Deflate = (data: Uint8Array) => Uint8Array;

/** Input of {@link writeCog}. */
export interface CogInput {
  /** Columns. */
  width: number;
  /** Rows. */
  height: number;
  /** Samples, row-major, north row first; length width*height. */
  data: Samples;
  /** Sample type; must match `data`. */
  sampleType: TiffSampleType;
  /**
   * GDAL scale and offset of the band (value = stored * scale + offset), written as
   * GDAL_METADATA; the table ingest's decimal integers use scale 10^-k, offset 0. Omitted: none.
   */
  scale?: { scale: number; offset: number };
  /** West edge, degrees. */
  xmin: number;
  /** North edge, degrees. */
  ymax: number;
  /** Cell size, degrees (square cells). */
  cellSize: number;
  /** No-data value (GDAL_NODATA; NaN allowed for floats); cells with it, and NaN cells, are left out of overviews. */
  noData: number;
  /** Overview resampling; default "average" for floats and scaled bands, "mode" for other integers. */
  resampling?: 'average' | 'mode';
  /** Tile size in cells (multiple of 16); default 256. */
  tileSize?: number;
  /** zlib compressor; default fflate's `zlibSync` at level 6. */
  deflate?: Deflate;
}

const { SHORT, LONG, ASCII } = TIFF_TYPE;

type Entry = TiffEntry;

/** Sample arrays the COG writer takes (one per {@link TiffSampleType}). */
export type Samples = Float32Array | Float64Array | Uint8Array | Uint16Array | Int16Array | Int32Array;

function makeLike(data: Samples, n: number): Samples {
  return new (data.constructor as new (n: number) => Samples)(n);
}

/** No data: the no-data value or NaN. */
const isNoData = (s: number, noData: number): boolean => s !== s || s === noData;

/**
 * One overview level from the level above: each cell from the 2 x 2 block at (2x, 2y).
 * @param src level above, row-major
 * @param w width of `src`
 * @param h height of `src`
 * @param noData no-data value (NaN cells count as no-data too)
 * @param mode "average" or "mode"
 * @returns [data, width, height], width = floor(w/2), height = floor(h/2)
 */
export function downsample(src: Samples, w: number, h: number, noData: number, mode: 'average' | 'mode'): [Samples, number, number] {
  const ow = Math.max(1, Math.floor(w / 2));
  const oh = Math.max(1, Math.floor(h / 2));
  const out = makeLike(src, ow * oh);
  const round = !(src instanceof Float32Array || src instanceof Float64Array);
  if (mode === 'average') {
    for (let y = 0; y < oh; y++) {
      const r0 = 2 * y * w;
      const r1 = 2 * y + 1 < h ? r0 + w : -1;
      for (let x = 0; x < ow; x++) {
        const xx = 2 * x;
        let sum = 0;
        let n = 0;
        let s = src[r0 + xx];
        if (s !== noData && s === s) { sum += s; n++; }
        if (xx + 1 < w) { s = src[r0 + xx + 1]; if (s !== noData && s === s) { sum += s; n++; } }
        if (r1 >= 0) {
          s = src[r1 + xx];
          if (s !== noData && s === s) { sum += s; n++; }
          if (xx + 1 < w) { s = src[r1 + xx + 1]; if (s !== noData && s === s) { sum += s; n++; } }
        }
        out[y * ow + x] = n ? (round ? Math.round(sum / n) : sum / n) : noData;
      }
    }
    return [out, ow, oh];
  }
  const v = [0, 0, 0, 0];
  for (let y = 0; y < oh; y++) {
    for (let x = 0; x < ow; x++) {
      let n = 0;
      for (let dy = 0; dy < 2; dy++) {
        const yy = 2 * y + dy;
        if (yy >= h) continue;
        for (let dx = 0; dx < 2; dx++) {
          const xx = 2 * x + dx;
          if (xx >= w) continue;
          const s = src[yy * w + xx];
          if (!isNoData(s, noData)) v[n++] = s;
        }
      }
      let r = noData;
      if (n > 0) {
        let best = v[0];
        let bestN = 0;
        for (let k = 0; k < n; k++) {
          let c = 0;
          for (let j = 0; j < n; j++) if (v[j] === v[k]) c++;
          if (c > bestN || (c === bestN && v[k] < best)) {
            best = v[k];
            bestN = c;
          }
        }
        r = best;
      }
      out[y * ow + x] = r;
    }
  }
  return [out, ow, oh];
}

/**
 * Applies the TIFF predictor to a whole tile (`ts` rows of `ts` samples), from `src` (raw
 * little-endian samples) into `dst`: 2 = horizontal differencing of 8/16-bit samples (TIFF 6.0
 * section 14), 3 = floating point (Adobe Technical Note 3: per row, byte planes most significant
 * first, then byte differencing).
 */
export function predictTile(src: Uint8Array, dst: Uint8Array, ts: number, bps: number, predictor: 2 | 3): void {
  predictRows(src, dst, ts, ts, bps, predictor);
}

interface Level {
  w: number;
  h: number;
  tiles: Uint8Array[];
  ifd: Entry[];
}

/** Tiles of one level before compression: predicted raw bytes, or null for an all-no-data tile. */
interface RawLevel {
  w: number;
  h: number;
  raw: Array<Uint8Array | null>;
}

/** Levels and predicted tiles of a COG, before compression (shared by the sync and async writers). */
function planCog(input: CogInput): { levels: RawLevel[]; empty: Uint8Array; ts: number; bps: number; predictor: 2 | 3 } {
  const { width, height, sampleType, noData } = input;
  const ts = input.tileSize ?? 256;
  const bps = bytesPerSample(sampleType);
  if (input.data.length !== width * height) throw new Error(`COG data has ${input.data.length} samples, expected ${width * height}`);
  if (bps > 1 && new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('big-endian host not supported');
  const float = sampleFormat(sampleType) === 3;
  const predictor: 2 | 3 = float ? 3 : 2;
  const resampling = input.resampling ?? (float || input.scale ? 'average' : 'mode');

  // Levels: full resolution, then halving while the level does not fit one tile.
  const datas: Array<[Samples, number, number]> = [[input.data, width, height]];
  while (true) {
    const [d, w, h] = datas[datas.length - 1];
    if (w <= ts && h <= ts) break;
    datas.push(downsample(d, w, h, noData, resampling));
  }
  const tileBuf = makeLike(input.data, ts * ts);
  const tileBytes = new Uint8Array(tileBuf.buffer);
  tileBuf.fill(noData);
  const empty = new Uint8Array(ts * ts * bps);
  predictTile(tileBytes, empty, ts, bps, predictor);
  const levels = datas.map(([d, w, h]) => {
    const tx = Math.ceil(w / ts);
    const ty = Math.ceil(h / ts);
    const raw: Array<Uint8Array | null> = [];
    for (let j = 0; j < ty; j++) {
      for (let i = 0; i < tx; i++) {
        const x0 = i * ts;
        const x1 = Math.min(w, x0 + ts);
        const y1 = Math.min(h, (j + 1) * ts);
        let any = false;
        for (let y = j * ts; y < y1 && !any; y++) {
          for (let k = y * w + x0, e = y * w + x1; k < e; k++) if (!isNoData(d[k], noData)) { any = true; break; }
        }
        if (!any) {
          raw.push(null);
          continue;
        }
        if (x1 - x0 < ts || y1 - j * ts < ts) tileBuf.fill(noData);
        for (let y = j * ts; y < y1; y++) tileBuf.set(d.subarray(y * w + x0, y * w + x1), (y - j * ts) * ts);
        const r = new Uint8Array(ts * ts * bps);
        predictTile(tileBytes, r, ts, bps, predictor);
        raw.push(r);
      }
    }
    return { w, h, raw };
  });
  return { levels, empty, ts, bps, predictor };
}

/**
 * Writes a single-band Cloud-Optimized GeoTIFF (EPSG:4326, PixelIsArea).
 * @param input raster, georeferencing and options
 * @returns the file bytes
 * @throws Error when `data` does not match width*height or the sample type
 */
export function writeCog(input: CogInput): Uint8Array {
  const plan = planCog(input);
  const deflate: Deflate = input.deflate ?? ((b) => zlibSync(b, { level: 6 }));
  const empty = deflate(plan.empty);
  return assembleCog(input, plan, plan.levels.map((l) => l.raw.map((r) => (r ? deflate(r) : empty))));
}

/**
 * As {@link writeCog}, compressing the tiles with an asynchronous zlib compressor (Node's
 * `zlib.deflate` runs them on its thread pool, so tiles compress on several cores).
 * @param input raster, georeferencing and options (`deflate` is ignored)
 * @param deflateAsync zlib (RFC 1950) compressor
 * @returns the file bytes
 * @throws Error when `data` does not match width*height or the sample type
 */
export async function writeCogAsync(input: CogInput, deflateAsync: (data: Uint8Array) => Promise<Uint8Array>): Promise<Uint8Array> {
  const plan = planCog(input);
  const empty = deflateAsync(plan.empty);
  const tiles = await Promise.all(plan.levels.map((l) => Promise.all(l.raw.map((r) => (r ? deflateAsync(r) : empty)))));
  return assembleCog(input, plan, tiles);
}

function assembleCog(input: CogInput, plan: ReturnType<typeof planCog>, compressed: Uint8Array[][]): Uint8Array {
  const { sampleType, noData } = input;
  const { ts, bps, predictor } = plan;
  const levels: Level[] = plan.levels.map(({ w, h }, li) => {
    const tiles = compressed[li];
    const ifd: Entry[] = [
      { tag: 256, type: LONG, values: [w] },
      { tag: 257, type: LONG, values: [h] },
      { tag: 258, type: SHORT, values: [bps * 8] },
      { tag: 259, type: SHORT, values: [8] },
      { tag: 262, type: SHORT, values: [1] },
      { tag: 277, type: SHORT, values: [1] },
      { tag: 284, type: SHORT, values: [1] },
      { tag: 317, type: SHORT, values: [predictor] },
      { tag: 322, type: SHORT, values: [ts] },
      { tag: 323, type: SHORT, values: [ts] },
      { tag: 324, type: LONG, values: new Array(tiles.length).fill(0) },
      { tag: 325, type: LONG, values: tiles.map((t) => t.length) },
      { tag: 339, type: SHORT, values: [sampleFormat(sampleType)] },
    ];
    // Overviews: NewSubfileType 1 and GDAL_NODATA; the full-resolution image: georeferencing too.
    if (li > 0) ifd.push({ tag: 254, type: LONG, values: [1] }, { tag: 42113, type: ASCII, values: asciiz(Number.isNaN(noData) ? 'nan' : String(noData)) });
    else {
      ifd.push(...geoEntries({ ...input, noData }));
      if (input.scale) ifd.push({ tag: 42112, type: ASCII, values: asciiz(gdalScaleXml(input.scale.scale, input.scale.offset)) });
    }
    ifd.sort((a, b) => a.tag - b.tag);
    return { w, h, tiles, ifd };
  });

  // Ghost area (GDAL's structural metadata) right after the 8-byte header.
  const ghostBody = 'LAYOUT=IFDS_BEFORE_DATA\nBLOCK_ORDER=ROW_MAJOR\nBLOCK_LEADER=SIZE_AS_UINT4\nBLOCK_TRAILER=LAST_4_BYTES_REPEATED\nKNOWN_INCOMPATIBLE_EDITION=NO\n ';
  const ghost = utf8(`GDAL_STRUCTURAL_METADATA_SIZE=${String(ghostBody.length).padStart(6, '0')} bytes\n${ghostBody}`);
  return serialiseTiff(levels.map((l) => ({ entries: l.ifd, blocks: l.tiles, offsetsTag: 324 as const })), { ghost, cog: true });
}
