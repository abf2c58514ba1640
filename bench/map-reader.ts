/**
 * Map reading: the map's raster worker (workers/raster/layers.ts: the core COG reader,
 * src/core/cog, over its own store with 4 KiB first header reads) against geotiff.js (what the
 * worker read with before, kept here as the reference: 4 KiB blocks, the core's inflater), on
 * the embedded bundle's COGs, both over the same byte-range source (src/core/io/source.ts
 * `RangeSource`, here the Node file source of src/node/file-source.ts wrapped to count
 * requests and bytes).
 *
 * Views, each with the level the map's tiles pick (`levelForZoom`, src/core/map/mercator.ts):
 * (a) the whole-SSA first view (zoom 3: an overview level), (b) Kenya (zoom 6: full
 * resolution), (c) the Nairobi area (zoom 10: full resolution). Layers: ELEVATION (Float32),
 * ELEV_ZONE (class, Byte), POP_MODEL (Float32).
 *
 * Readers per case:
 * - `geotiff.js`: the former worker code (opens the COG, reads the whole level the zoom picks,
 *   decodes it by the bundle's rule, src/core/cog/decode.ts).
 * - `worker (core)`: the worker's own code (`openCogFrom` + `level(i)` over `mapStore`): the
 *   same level, read whole through the core reader on the level's IFD.
 * - `core window`: views (b), (c) only: the core reader on the level's IFD, only the blocks the
 *   view's bounds touch (what a windowed worker could read instead of the whole level).
 *
 * Each run uses a fresh reader (no cache kept between runs): the cold figure is the case's first
 * run in this process (the first case of a reader also pays its code's first compile), the warm
 * figure the median of 5 further runs. The files themselves are in the OS page cache: the
 * figures are CPU time plus local reads, not network time (bytes and requests are shown for that).
 * The last lines give the bytes each reader reads for a first map of each layer (open, then the
 * preview level the worker draws first, `previewLevel`, then the level zoom 3 needs).
 *
 * Run: `npx tsx bench/map-reader.ts` (10-20 s on 2 busy cores).
 */
import path from 'node:path';
import { addDecoder, BaseClient, BaseDecoder, BaseResponse, fromCustomClient } from 'geotiff';
import { isScaled, sampleDecoder } from '../src/core/cog';
import { inflateZlib } from '../src/core/cog/inflate';
import type { RangeSource } from '../src/core/io/source';
import { levelForZoom } from '../src/core/map/mercator';
import { FileSource } from '../src/node/file-source';
import { mapStore, openCogFrom, previewLevel } from '../workers/raster/layers';

const DATA_DIR = path.resolve(import.meta.dirname, '../public/data');
const LAYERS = ['ELEVATION', 'ELEV_ZONE', 'POP_MODEL'];
/** View bounds [west, south, east, north] in degrees and the map zoom they are seen at. */
const VIEWS: Array<{ name: string; bbox: [number, number, number, number]; zoom: number }> = [
  { name: 'a SSA', bbox: [-26, -35, 64, 28], zoom: 3 },
  { name: 'b Kenya', bbox: [33.9, -4.7, 41.9, 5.1], zoom: 6 },
  { name: 'c Nairobi', bbox: [36.6, -1.5, 37.1, -1.1], zoom: 10 },
];
const WARM_RUNS = 5;
/** geotiff.js's block size and cache as the worker used them (4 KiB blocks, 1,000 kept). */
const GEOTIFF_BLOCK_BYTES = 4096, GEOTIFF_CACHE_BLOCKS = 1000;

/** Counters of one run. */
interface Counts { requests: number; bytes: number; blocks: number }

/** A source over `cog/<code>.tif` of the embedded bundle that counts its reads into `c`. */
function counted(code: string, c: Counts): RangeSource & { close(): Promise<void> } {
  const src = new FileSource(path.join(DATA_DIR, 'cog', `${code}.tif`));
  return { key: src.key, getBytes: async (o, l, s) => { const b = await src.getBytes(o, l, s); c.requests++; c.bytes += b.byteLength; return b; }, close: () => src.close() };
}

/** Whether `a` equals the window [x0, y0, x1, y1) of the `w`-wide grid `b` value for value (NaN equals NaN). */
function sameValues(a: ArrayLike<number>, b: ArrayLike<number>, w: number, [x0, y0, x1, y1]: [number, number, number, number]): boolean {
  if (a.length !== (x1 - x0) * (y1 - y0)) return false;
  for (let y = y0, i = 0; y < y1; y++) for (let x = x0; x < x1; x++, i++) { const u = a[i], v = b[y * w + x]; if (u !== v && !(u !== u && v !== v)) return false; }
  return true;
}

/** The geotiff.js Deflate decoder the worker registered (the core's inflater), counting blocks. */
let gtBlocks = 0;
class CountingZlib extends BaseDecoder {
  override decodeBlock(buffer: ArrayBufferLike): ArrayBufferLike {
    gtBlocks++;
    const out = inflateZlib(new Uint8Array(buffer));
    return out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? out.buffer : out.slice().buffer;
  }
}

/** geotiff.js client over a {@link RangeSource}, as the worker's former one over its FetchSource. */
class SourceClient extends BaseClient {
  constructor(private readonly src: RangeSource) { super(src.key); }
  override async request(options: { headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<BaseResponse> {
    const m = /^bytes=(\d+)-(\d+)$/.exec(options.headers?.Range ?? options.headers?.range ?? '');
    if (!m) throw new Error('single ranges only');
    const start = Number(m[1]);
    const data = await this.src.getBytes(start, Number(m[2]) - start + 1, options.signal);
    const cr = `bytes ${start}-${start + data.byteLength - 1}/*`;
    return new (class extends BaseResponse {
      override get status() { return 206; }
      override getHeader(n: string) { return n.toLowerCase() === 'content-range' ? cr : undefined; }
      override async getData() { return data; }
    })();
  }
}

/** A level as a reader gives it. */
interface Level { level: number; width: number; height: number; cellDeg: number[]; values: Float32Array | Float64Array }

/** The former worker's geotiff.js read of level `pick(cellDeg)` (or of `levels`, in order, the last returned). */
async function geotiffLevels(code: string, pick: (cellDeg: number[]) => number[], c: Counts): Promise<Level> {
  gtBlocks = 0;
  const src = counted(code, c);
  const tiff = await fromCustomClient(new SourceClient(src), { blockSize: GEOTIFF_BLOCK_BYTES, cacheSize: GEOTIFF_CACHE_BLOCKS } as Parameters<typeof fromCustomClient>[1]);
  const images = await Promise.all(Array.from({ length: await tiff.getImageCount() }, (_, i) => tiff.getImage(i)));
  const full = images[0];
  const bbox = full.getBoundingBox();
  const md = ((await full.getGDALMetadata(0).catch(() => null)) ?? {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null);
  const spec = { noData: full.getGDALNoData(), float32: full.getSampleFormat() === 3 && full.getBitsPerSample() === 32, scale: num(md.SCALE), offset: num(md.OFFSET) };
  const dec = sampleDecoder(spec);
  const wide = isScaled(spec) || full.getBitsPerSample() === 64;
  const cellDeg = images.map((im) => (bbox[2] - bbox[0]) / im.getWidth());
  let out: Level | undefined;
  for (const level of pick(cellDeg)) {
    const im = images[level];
    const src0 = ((await im.readRasters({ interleave: false, samples: [0] })) as unknown as ArrayLike<number>[])[0];
    const values = wide ? new Float64Array(src0.length) : new Float32Array(src0.length);
    for (let k = 0; k < src0.length; k++) values[k] = dec(src0[k]);
    out = { level, width: im.getWidth(), height: im.getHeight(), cellDeg, values };
  }
  c.blocks = gtBlocks;
  await src.close();
  return out!;
}

/** The worker's own read (`openCogFrom` over `mapStore`) of levels `pick(cellDeg)` in order, the last returned. */
async function workerLevels(code: string, pick: (cellDeg: number[]) => number[], c: Counts): Promise<Level> {
  const src = counted(code, c);
  const store = mapStore(() => src);
  const layer = await openCogFrom(code, store);
  let out: Level | undefined;
  for (const level of pick(layer.levelCellDeg)) {
    const l = await layer.level(level);
    out = { level, width: l.width, height: l.height, cellDeg: layer.levelCellDeg, values: l.values };
  }
  c.blocks = store.stats.blocksDecoded;
  await store.close();
  return out!;
}

/** The core reader's read of the blocks of one IFD a view's bounds touch (a fresh map store). */
async function coreWindow(code: string, ifd: number, bbox: [number, number, number, number], c: Counts): Promise<{ values: Float32Array | Float64Array; win: [number, number, number, number] }> {
  const src = counted(code, c);
  const store = mapStore(() => src);
  const info = await store.info('f', undefined, ifd);
  const geo = info.geo!, cell = geo.resX * ((await store.info('f')).width / info.width);
  const win: [number, number, number, number] = [
    Math.max(0, Math.floor((bbox[0] - geo.xmin) / cell)), Math.max(0, Math.floor((geo.ymax - bbox[3]) / cell)),
    Math.min(info.width, Math.ceil((bbox[2] - geo.xmin) / cell)), Math.min(info.height, Math.ceil((geo.ymax - bbox[1]) / cell)),
  ];
  const values = await store.readValues('f', win, undefined, ifd);
  c.blocks = store.stats.blocksDecoded;
  await store.close();
  return { values, win };
}

interface Row { view: string; layer: string; reader: string; level: number; coldMs: number; warmMs: number; c: Counts; same: string }

/** Times `run` once cold and {@link WARM_RUNS} times warm (fresh counters each). */
async function time<T>(run: (c: Counts) => Promise<T>): Promise<{ coldMs: number; warmMs: number; c: Counts; out: T }> {
  const once = async () => { const c = { requests: 0, bytes: 0, blocks: 0 }; const t = performance.now(); const out = await run(c); return { ms: performance.now() - t, c, out }; };
  const cold = await once();
  const warm: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) warm.push((await once()).ms);
  warm.sort((a, b) => a - b);
  return { coldMs: cold.ms, warmMs: warm[WARM_RUNS >> 1], c: cold.c, out: cold.out };
}

async function main(): Promise<void> {
  addDecoder([8, 32946], async () => CountingZlib as unknown as typeof BaseDecoder);
  const rows: Row[] = [];
  for (const view of VIEWS) {
    for (const code of LAYERS) {
      const pick = (cellDeg: number[]) => [levelForZoom(cellDeg, view.zoom)];
      const gt = await time((c) => geotiffLevels(code, pick, c));
      const ref = gt.out;
      const add = (reader: string, t: { coldMs: number; warmMs: number; c: Counts }, same: string) => rows.push({ view: view.name, layer: code, reader, level: ref.level, coldMs: t.coldMs, warmMs: t.warmMs, c: t.c, same });
      add('geotiff.js', gt, '');
      const wk = await time((c) => workerLevels(code, pick, c));
      add('worker (core)', wk, String(wk.out.level === ref.level && sameValues(wk.out.values, ref.values, ref.width, [0, 0, ref.width, ref.height]) && wk.out.values.constructor === ref.values.constructor));
      if (ref.level === 0) {
        const cw = await time((c) => coreWindow(code, ref.level, view.bbox, c));
        add('core window', cw, String(sameValues(cw.out.values, ref.values, ref.width, cw.out.win)));
      }
    }
  }
  console.log('view       layer      reader          level  cold ms  warm ms  requests   bytes  blocks  warm reader/geotiff.js  same values as geotiff.js');
  for (const r of rows) {
    const ref = rows.find((x) => x.view === r.view && x.layer === r.layer && x.reader === 'geotiff.js')!;
    const ratio = r === ref ? '' : (r.warmMs / ref.warmMs).toFixed(2);
    console.log(`${r.view.padEnd(10)} ${r.layer.padEnd(10)} ${r.reader.padEnd(15)} ${String(r.level).padStart(5)} ${r.coldMs.toFixed(1).padStart(8)} ${r.warmMs.toFixed(1).padStart(8)} ${String(r.c.requests).padStart(9)} ${String(r.c.bytes).padStart(7)} ${String(r.c.blocks).padStart(7)}  ${ratio.padStart(22)}  ${r.same}`);
  }
  // a first map's reads: open, the preview level, then the level zoom 3 needs
  const first = (cellDeg: number[]) => { const want = levelForZoom(cellDeg, 3); const prev = previewLevel({ levelCellDeg: cellDeg, peek: () => undefined }, want); return prev === undefined ? [want] : [prev, want]; };
  console.log('\nfirst map (open, preview level, zoom-3 level): bytes (requests)');
  for (const code of LAYERS) {
    const g = { requests: 0, bytes: 0, blocks: 0 }, w = { requests: 0, bytes: 0, blocks: 0 };
    await geotiffLevels(code, first, g);
    await workerLevels(code, first, w);
    console.log(`${code.padEnd(10)} geotiff.js ${g.bytes} (${g.requests})  worker (core) ${w.bytes} (${w.requests})`);
  }
}

await main();
