/**
 * Reading bundle COGs for the map (runs in a Web Worker): the core COG reader (src/core/cog, the
 * engine's: one TIFF parser) over HTTP range requests (the bundle's one range reader,
 * src/core/io/fetch-source.ts), one full image per pyramid level (the full-resolution image,
 * IFD 0, or one of its internal overviews, IFDs 1..n), decoded by the bundle's one rule
 * (src/core/cog/decode.ts: no-data as NaN, a GDAL decimal scale as `stored / 10^k`), as the
 * engine reads the same file. Levels of Float32 files are Float32Array; of scaled or Float64
 * files Float64Array (the exact values, for hover and class breaks). Class tables come from
 * the bundle reader (src/core/bundle/open.ts). No DOM use: fetch only.
 */
import { bundleUrl, layerPath } from '../../src/core/bundle';
import { CogStore } from '../../src/core/cog/store';
import { FetchSource } from '../../src/core/io/fetch-source';
import { IndapiError } from '../../src/core/errors';
import { gridFromCellExtent, SSA_GRID, type GridDef } from '../../src/core/grid';
import type { SourceFactory } from '../../src/core/io/source';
import type { RasterLevel } from '../../src/core/map/mercator';

/**
 * Header bytes the map reads first from a COG: 4 KiB. A GDAL COG of the bundle grid keeps
 * all its IFDs and tile tables in its first few hundred bytes to 2 KiB, and the coarsest
 * overviews' tiles (what the first map draws from, see {@link previewLevel}) right after them:
 * a larger first read only moves bytes of finer levels forward, before the first map on a slow
 * network. A header past it costs one more read.
 */
export const MAP_HEADER_BYTES = 4 * 1024;

/**
 * Block cache of the map's reader: the levels themselves are kept by their {@link CogLayer}
 * (and closed by the raster worker's own bound), so the store keeps only recent tiles.
 */
const MAP_BLOCK_CACHE_BYTES = 16 * 1024 * 1024;

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

/** The map's COG readers, one per bundle base URL. */
const stores = new Map<string, CogStore>();

/**
 * A COG reader for the map over any source of bundle files (the worker's fetch; bench/map-reader.ts
 * and the tests pass local files): 4 KiB first header reads, a 16 MiB block cache.
 * @param source opens a file relative to the bundle root
 */
export function mapStore(source: SourceFactory): CogStore {
  return new CogStore({ source, headerBytes: MAP_HEADER_BYTES, cacheBytes: MAP_BLOCK_CACHE_BYTES });
}

/**
 * Opens `cog/<code>.tif` of the bundle at `dataBase` (URL ending in "/").
 * @throws IndapiError IO when the file cannot be read
 */
export async function openCog(dataBase: string, code: string, signal?: AbortSignal): Promise<CogLayer> {
  let store = stores.get(dataBase);
  if (!store) stores.set(dataBase, (store = mapStore((p) => new FetchSource(bundleUrl(dataBase, p)))));
  return openCogFrom(code, store, signal);
}

/**
 * Opens a bundle COG for mapping through a COG store (the worker's own over HTTP; bench/map-reader.ts
 * passes one over local files to time the worker's reads in Node): every IFD's header read, no
 * pixels. The bounding box is IFD 0's georeferencing, which every overview shares.
 * @param code catalog code (its file is `layerPath(code)`; named in errors)
 * @throws IndapiError IO when the file cannot be read or has no georeferencing, ABORTED on abort
 */
export async function openCogFrom(code: string, store: CogStore, signal?: AbortSignal): Promise<CogLayer> {
  const file = layerPath(code);
  let infos: Awaited<ReturnType<CogStore['levels']>>;
  try {
    infos = await store.levels(file, signal);
  } catch (e) {
    if ((e as { code?: string }).code === 'ABORTED') throw e;
    throw new IndapiError('IO', `Cannot open the map layer of ${code}: ${(e as Error).message}`);
  }
  const { geo, width, height } = infos[0];
  if (!geo) throw new IndapiError('IO', `Cannot open the map layer of ${code}: the file has no georeferencing.`);
  // as geotiff.js's getBoundingBox (origin plus resolution x size), which the map read before
  const bbox: [number, number, number, number] = [geo.xmin, geo.ymax - geo.resY * height, geo.xmin + geo.resX * width, geo.ymax];
  const levelCellDeg = infos.map((im) => (bbox[2] - bbox[0]) / im.width);
  const cache = new Map<number, Promise<RasterLevel>>();
  const done = new Map<number, RasterLevel>();
  return {
    code,
    levelCellDeg,
    level(i) {
      let p = cache.get(i);
      if (!p) {
        p = store.readLevel(file, i).then(({ info, values }) => ({ width: info.width, height: info.height, bbox, values }) satisfies RasterLevel);
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
