/**
 * Reading bundle COGs for the map (runs in a Web Worker): geotiff.js over HTTP range
 * requests (through the bundle's one range reader, see ./geotiff-client.ts), one full image per pyramid level (the full-resolution image or one of its
 * internal overviews), decoded by the bundle's one rule (src/core/cog/decode.ts: no-data as NaN,
 * a GDAL decimal scale as `stored / 10^k`), as the engine reads the same file. Levels of Float32
 * files are Float32Array; of scaled or Float64 files Float64Array (the exact values, for hover
 * and class breaks). Class tables come from the bundle reader (src/core/bundle/open.ts). No DOM
 * use: fetch only.
 */
import { addDecoder, BaseDecoder, fromCustomClient, type BaseClient, type GeoTIFF } from 'geotiff';
import { inflateZlib } from '../../src/core/cog/inflate';
import { bundleUrl, layerPath } from '../../src/core/bundle';
import { isScaled, sampleDecoder } from '../../src/core/cog/decode';
import { IndapiError } from '../../src/core/errors';
import { gridFromCellExtent, SSA_GRID, type GridDef } from '../../src/core/grid';
import type { RasterLevel } from '../../src/core/map/mercator';
import { RangeClient } from './geotiff-client';

/**
 * geotiff.js reads in blocks of 4 KiB (its `BlockedSource`), at most 1,000 kept per COG (4 MiB):
 * a COG's header, IFDs and tile offset arrays (GDAL's layout puts them first, a few hundred
 * bytes for the bundle grid) come in one request instead of one 4-byte request per tile
 * offset (sequential round trips on a mobile network), and a tile read overshoots by less
 * than 8 KiB (16 KiB blocks added 41 KB before the first map at 1.6 Mbps: bench/app.ts).
 */
const GEOTIFF_BLOCK_BYTES = 4 * 1024;
const GEOTIFF_CACHE_BLOCKS = 1000;

/** TIFF Compression tags of a zlib stream: 8 (Adobe Deflate, what src/core/cog writes) and 32946 (the old Deflate code); TIFF 6.0 / Adobe PageMaker TIFF Technical Notes. */
const DEFLATE_TAGS = [8, 32946];

/**
 * geotiff.js's Deflate decoder, with the core's one inflater (src/core/cog/inflate.ts,
 * fflate) instead of geotiff.js's own (a lazy chunk and pako: 14 KB brotli and two chained
 * module requests before the first tile, on the first map's path). Predictors are applied
 * by geotiff.js's `BaseDecoder.decode`, as for its own decoders.
 */
class ZlibDecoder extends BaseDecoder {
  /** Inflates one tile (a zlib stream) into a fresh ArrayBuffer. @throws Error when the stream is corrupt */
  override decodeBlock(buffer: ArrayBufferLike): ArrayBufferLike {
    const out = inflateZlib(new Uint8Array(buffer));
    return out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? out.buffer : out.slice().buffer;
  }
}

/** Registers {@link ZlibDecoder} for the Deflate tags (idempotent; geotiff.js keeps one registry per module instance). */
export function useCoreInflate(): void {
  addDecoder(DEFLATE_TAGS, async () => ZlibDecoder as unknown as typeof BaseDecoder);
}
useCoreInflate();

/** One COG opened for mapping: level sizes known, pixels loaded on demand per level. */
export interface CogLayer {
  /** Catalog code. */
  code: string;
  /** Cell size in degrees of each level, finest (full resolution) first. */
  levelCellDeg: number[];
  /** Loads (once) and returns level `i`. */
  level(i: number): Promise<RasterLevel>;
  /** Level `i` when it has been read, else undefined (never starts a read). */
  peek(i: number): RasterLevel | undefined;
  /** Indices of the levels loaded or being loaded. */
  loaded(): number[];
  /** Bytes of the values of the levels read so far. */
  bytes(): number;
}

/**
 * Opens `cog/<code>.tif` of the bundle at `dataBase` (URL ending in "/").
 * @throws IndapiError IO when the file cannot be read
 */
export async function openCog(dataBase: string, code: string, signal?: AbortSignal): Promise<CogLayer> {
  return openCogFrom(code, new RangeClient(bundleUrl(dataBase, layerPath(code))), signal);
}

/**
 * Opens a COG for mapping through any geotiff.js client (the worker's HTTP {@link RangeClient};
 * bench/map-reader.ts passes one over a local file to time the worker's own reads in Node).
 * @param code catalog code (named in errors)
 * @throws IndapiError IO when the file cannot be read
 */
export async function openCogFrom(code: string, client: BaseClient, signal?: AbortSignal): Promise<CogLayer> {
  let tiff: GeoTIFF;
  try {
    tiff = await fromCustomClient(client, { blockSize: GEOTIFF_BLOCK_BYTES, cacheSize: GEOTIFF_CACHE_BLOCKS } as Parameters<typeof fromCustomClient>[1], signal); // the block options are read by makeCustomSource (geotiff.js 3), not typed on RemoteSourceOptions
  } catch (e) {
    throw new IndapiError('IO', `Cannot open the map layer of ${code}: ${(e as Error).message}`);
  }
  const n = await tiff.getImageCount();
  const images = await Promise.all(Array.from({ length: n }, (_, i) => tiff.getImage(i)));
  const full = images[0];
  const bbox = full.getBoundingBox() as [number, number, number, number];
  // the bundle's one decode (src/core/cog/decode.ts), as the engine reads the same file; an
  // overview has no metadata of its own: the full-resolution image's scale applies (GDAL's rule)
  const md = ((await full.getGDALMetadata(0).catch(() => null)) ?? {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null);
  const spec = { noData: full.getGDALNoData(), float32: full.getSampleFormat() === 3 && full.getBitsPerSample() === 32, scale: num(md.SCALE), offset: num(md.OFFSET) };
  const decode = sampleDecoder(spec);
  const wide = isScaled(spec) || full.getBitsPerSample() === 64;
  const levelCellDeg = images.map((im) => (bbox[2] - bbox[0]) / im.getWidth());
  const cache = new Map<number, Promise<RasterLevel>>();
  const done = new Map<number, RasterLevel>();
  return {
    code,
    levelCellDeg,
    level(i) {
      let p = cache.get(i);
      if (!p) {
        const im = images[i];
        p = (async () => {
          const rasters = (await im.readRasters({ interleave: false, samples: [0] })) as unknown as ArrayLike<number>[];
          const src = rasters[0];
          const values = wide ? new Float64Array(src.length) : new Float32Array(src.length);
          for (let k = 0; k < src.length; k++) values[k] = decode(src[k]);
          return { width: im.getWidth(), height: im.getHeight(), bbox, values } satisfies RasterLevel;
        })();
        p.then((l) => done.set(i, l), () => cache.delete(i));
        cache.set(i, p);
      }
      return p;
    },
    peek: (i) => done.get(i),
    loaded: () => [...cache.keys()],
    bytes: () => { let b = 0; for (const l of done.values()) b += l.values.byteLength; return b; },
  };
}

/**
 * The level to draw a preview from while level `want` is read: the finest level coarser than
 * `want` already read, else the next coarser one (a quarter of the cells and of the bytes:
 * about 36 KB against 144 KB for the first view of the embedded ELEVATION). Undefined when
 * `want` is the coarsest level (nothing coarser to show first).
 * @param want index into `layer.levelCellDeg` (0 = full resolution)
 */
export function previewLevel(layer: Pick<CogLayer, 'levelCellDeg' | 'peek'>, want: number): number | undefined {
  const n = layer.levelCellDeg.length;
  for (let i = want + 1; i < n; i++) if (layer.peek(i)) return i;
  return want + 1 < n ? want + 1 : undefined;
}

/**
 * The grid a level lies on: for the full-resolution level of a bundle COG, the bundle's window
 * on the 5-arc-minute lattice (offsets from its west and north edges); an overview level has
 * no CELL5M offsets (NaN).
 */
export function levelGrid(level: RasterLevel): GridDef {
  const cs = (level.bbox[2] - level.bbox[0]) / level.width;
  const [xmin, ymin, xmax, ymax] = level.bbox;
  if (Math.abs(cs - SSA_GRID.cellSizeDeg) < 1e-9) {
    const c0 = Math.round((xmin + 180) * 12), r0 = Math.round((90 - ymax) * 12);
    if (Math.abs((xmin + 180) * 12 - c0) < 1e-6 && Math.abs((90 - ymax) * 12 - r0) < 1e-6) return gridFromCellExtent(c0, r0, c0 + level.width - 1, r0 + level.height - 1);
  }
  return { ...SSA_GRID, xmin, ymin, xmax, ymax, cellSizeDeg: cs, width: level.width, height: level.height, colOffset: NaN, rowOffset: NaN };
}
