/**
 * Map reading: geotiff.js (as the map's raster worker reads, workers/raster/layers.ts) against
 * the core COG reader (src/core/cog: tiff.ts + block.ts, the engine's), on the embedded
 * bundle's COGs, both over the same byte-range source (src/core/io/source.ts `RangeSource`,
 * here the Node file source of src/node/file-source.ts wrapped to count requests and bytes).
 *
 * Views, each with the level the map's tiles pick (`levelForZoom`, src/core/map/mercator.ts):
 * (a) the whole-SSA first view (zoom 3: an overview level), (b) Kenya (zoom 6: full
 * resolution), (c) the Nairobi area (zoom 10: full resolution). Layers: ELEVATION (Float32),
 * ELEV_ZONE (class, Byte), POP_MODEL (Float32).
 *
 * Readers per case:
 * - `geotiff.js`: the worker's own code (`openCogFrom` + `level(i)`: opens the COG, reads the
 *   whole level the zoom picks, decodes it by the bundle's rule), its Deflate decoder counted.
 * - `core IFD0 (+downsample)`: the core reader on IFD 0 (the only IFD it read before), the whole
 *   image; when the view's level is an overview, then downsampled (nearest cell) to that
 *   overview's size, so the output is what the worker draws from.
 * - `core IFD n`: the core reader on the level's own IFD (`readTiffInfo(read, signal, n)`),
 *   the whole level, as the worker reads it.
 * - `core window`: views (b), (c) only: the core reader on the level's IFD, only the blocks the
 *   view's bounds touch (what a core-based worker could read instead of the whole level).
 * Core blocks are fetched as the engine's CogStore fetches them: sorted by offset, runs closer
 * than 32 KiB in one request; header reads (64 KiB at byte 0) are shared within a run.
 *
 * Each run uses a fresh reader (no cache kept between runs): the cold figure is the case's first
 * run in this process (the first case of a reader also pays its code's first compile), the warm
 * figure the median of 5 further runs. The files themselves are in the OS page cache: the
 * figures are CPU time plus local reads, not network time (bytes and requests are shown for that).
 *
 * Run: `npx tsx bench/map-reader.ts` (15-25 s on 2 busy cores).
 */
import path from 'node:path';
import { addDecoder, BaseClient, BaseDecoder, BaseResponse } from 'geotiff';
import { decodeBlock, readTiffInfo, sampleDecoder, isScaled, type BlockArray, type TiffInfo } from '../src/core/cog';
import { inflateZlib } from '../src/core/cog/inflate';
import type { RangeSource } from '../src/core/io/source';
import { levelForZoom } from '../src/core/map/mercator';
import { FileSource } from '../src/node/file-source';
import { openCogFrom } from '../workers/raster/layers';

const COG_DIR = path.resolve(import.meta.dirname, '../public/data/cog');
const LAYERS = ['ELEVATION', 'ELEV_ZONE', 'POP_MODEL'];
/** View bounds [west, south, east, north] in degrees and the map zoom they are seen at. */
const VIEWS: Array<{ name: string; bbox: [number, number, number, number]; zoom: number }> = [
  { name: 'a SSA', bbox: [-26, -35, 64, 28], zoom: 3 },
  { name: 'b Kenya', bbox: [33.9, -4.7, 41.9, 5.1], zoom: 6 },
  { name: 'c Nairobi', bbox: [36.6, -1.5, 37.1, -1.1], zoom: 10 },
];
const WARM_RUNS = 5;
/** Blocks closer than this many bytes are fetched in one request (as src/core/cog/store.ts). */
const MERGE_GAP = 32768;

/** Counters of one run. */
interface Counts { requests: number; bytes: number; blocks: number }

/** A file source that counts its reads into `c`. */
function counted(file: string, c: Counts): RangeSource & { close(): Promise<void> } {
  const src = new FileSource(file);
  return { key: src.key, getBytes: async (o, l, s) => { const b = await src.getBytes(o, l, s); c.requests++; c.bytes += b.byteLength; return b; }, close: () => src.close() };
}

/** Whether `a` equals the window [x0, y0, x1, y1) of the `w`-wide grid `b` value for value (NaN equals NaN). */
function sameValues(a: ArrayLike<number>, b: ArrayLike<number>, w: number, [x0, y0, x1, y1]: [number, number, number, number]): boolean {
  if (a.length !== (x1 - x0) * (y1 - y0)) return false;
  for (let y = y0, i = 0; y < y1; y++) for (let x = x0; x < x1; x++, i++) { const u = a[i], v = b[y * w + x]; if (u !== v && !(u !== u && v !== v)) return false; }
  return true;
}

/** The geotiff.js Deflate decoder of the worker (same inflater), counting blocks. */
let gtBlocks = 0;
class CountingZlib extends BaseDecoder {
  override decodeBlock(buffer: ArrayBufferLike): ArrayBufferLike {
    gtBlocks++;
    const out = inflateZlib(new Uint8Array(buffer));
    return out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? out.buffer : out.slice().buffer;
  }
}

/** geotiff.js client over a {@link RangeSource}, as workers/raster/geotiff-client.ts over its FetchSource. */
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

/** The level the worker reads for a zoom, and its size. */
async function geotiffLevel(file: string, zoom: number, c: Counts): Promise<{ level: number; width: number; height: number; cellDeg: number[]; values: Float32Array | Float64Array }> {
  gtBlocks = 0;
  const src = counted(file, c);
  const layer = await openCogFrom(path.basename(file, '.tif'), new SourceClient(src));
  const level = levelForZoom(layer.levelCellDeg, zoom);
  const l = await layer.level(level);
  c.blocks = gtBlocks;
  await src.close?.();
  return { level, width: l.width, height: l.height, cellDeg: layer.levelCellDeg, values: l.values };
}

/** A byte reader over `src` that keeps what it read (the header read is shared by the IFDs of one run). */
function memoReader(src: RangeSource) {
  const seen = new Map<string, Promise<ArrayBuffer>>();
  return (o: number, l: number, s?: AbortSignal) => {
    const k = `${o}:${l}`;
    let p = seen.get(k);
    if (!p) seen.set(k, (p = src.getBytes(o, l, s)));
    return p;
  };
}

/**
 * The core reader: the blocks of IFD `ifd` touching pixel window [x0, y0, x1, y1), fetched in
 * merged runs and decoded, assembled into values decoded by the bundle's rule (IFD 0's scale and no-data).
 */
async function coreRead(src: RangeSource, ifd: number, win: ((info: TiffInfo) => [number, number, number, number]) | null, c: Counts): Promise<{ info: TiffInfo; values: Float32Array | Float64Array; win: [number, number, number, number] }> {
  const read = memoReader(src);
  const info0 = await readTiffInfo(read);
  const info = ifd === 0 ? info0 : await readTiffInfo(read, undefined, ifd);
  const [x0, y0, x1, y1] = win ? win(info) : [0, 0, info.width, info.height];
  const bw = info.blockWidth, bh = info.blockHeight;
  const idxs: number[] = [];
  for (let by = Math.floor(y0 / bh); by < Math.ceil(y1 / bh); by++) for (let bx = Math.floor(x0 / bw); bx < Math.ceil(x1 / bw); bx++) idxs.push(by * info.blocksAcross + bx);
  idxs.sort((a, b) => info.offsets[a] - info.offsets[b]);
  const blocks = new Map<number, BlockArray>();
  for (let i = 0; i < idxs.length;) {
    let j = i + 1, end = info.offsets[idxs[i]] + info.byteCounts[idxs[i]];
    while (j < idxs.length && info.offsets[idxs[j]] - end <= MERGE_GAP) { end = Math.max(end, info.offsets[idxs[j]] + info.byteCounts[idxs[j]]); j++; }
    const start = info.offsets[idxs[i]];
    const buf = new Uint8Array(await src.getBytes(start, end - start));
    for (const k of idxs.slice(i, j)) {
      blocks.set(k, await decodeBlock(info, buf.subarray(info.offsets[k] - start, info.offsets[k] - start + info.byteCounts[k]), inflateZlib));
      c.blocks++;
    }
    i = j;
  }
  const spec = { noData: info0.noData, float32: info0.kind === 'float32', scale: info0.scale, offset: info0.offset };
  const dec = sampleDecoder(spec);
  const w = x1 - x0, h = y1 - y0;
  const values = isScaled(spec) || info0.kind === 'float64' ? new Float64Array(w * h) : new Float32Array(w * h);
  for (const [k, b] of blocks) {
    // the block's part of the window, row by row
    const bx = (k % info.blocksAcross) * bw, by = Math.floor(k / info.blocksAcross) * bh;
    const cx0 = Math.max(x0, bx), cx1 = Math.min(x1, bx + bw);
    for (let y = Math.max(y0, by); y < Math.min(y1, by + bh); y++) {
      const o = (y - y0) * w - x0, bo = (y - by) * bw - bx;
      for (let x = cx0; x < cx1; x++) values[o + x] = dec(b[bo + x]);
    }
  }
  return { info, values, win: [x0, y0, x1, y1] };
}

/** Nearest-cell downsampling of a `w` x `h` grid to `ow` x `oh`. */
function downsample(v: Float32Array | Float64Array, w: number, h: number, ow: number, oh: number): Float32Array | Float64Array {
  const out = new (v.constructor as Float32ArrayConstructor)(ow * oh);
  for (let r = 0; r < oh; r++) {
    const sr = Math.min(h - 1, Math.floor(((r + 0.5) * h) / oh)) * w;
    for (let q = 0; q < ow; q++) out[r * ow + q] = v[sr + Math.min(w - 1, Math.floor(((q + 0.5) * w) / ow))];
  }
  return out;
}

/** A view's bounds as a pixel window of an IFD whose cells are `cellDeg` (from IFD 0's georeferencing). */
function viewWindow(bbox: [number, number, number, number], geo: NonNullable<TiffInfo['geo']>, cellDeg: number) {
  return (info: TiffInfo): [number, number, number, number] => [
    Math.max(0, Math.floor((bbox[0] - geo.xmin) / cellDeg)), Math.max(0, Math.floor((geo.ymax - bbox[3]) / cellDeg)),
    Math.min(info.width, Math.ceil((bbox[2] - geo.xmin) / cellDeg)), Math.min(info.height, Math.ceil((geo.ymax - bbox[1]) / cellDeg)),
  ];
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

/** Runs `coreRead` on a counted file source, closing it after. */
async function core(file: string, ifd: number, win: Parameters<typeof coreRead>[2], c: Counts): ReturnType<typeof coreRead> {
  const src = counted(file, c);
  try { return await coreRead(src, ifd, win, c); } finally { await src.close(); }
}

async function main(): Promise<void> {
  addDecoder([8, 32946], async () => CountingZlib as unknown as typeof BaseDecoder);
  const rows: Row[] = [];
  for (const view of VIEWS) {
    for (const code of LAYERS) {
      const file = path.join(COG_DIR, `${code}.tif`);
      const gt = await time((c) => geotiffLevel(file, view.zoom, c));
      const probe = gt.out; // the level the worker picked, from its cold run
      const fs0 = new FileSource(file);
      const info0 = await readTiffInfo(memoReader(fs0));
      await fs0.close();
      const add = (reader: string, t: { coldMs: number; warmMs: number; c: Counts }, same: string) => rows.push({ view: view.name, layer: code, reader, level: probe.level, coldMs: t.coldMs, warmMs: t.warmMs, c: t.c, same });
      add('geotiff.js', gt, '');
      const full = await time((c) => core(file, 0, null, c).then((r) => (probe.level ? { ...r, values: downsample(r.values, r.info.width, r.info.height, probe.width, probe.height) } : r)));
      add(probe.level ? 'core IFD0+downsample' : 'core IFD0', full, probe.level ? 'n/a (nearest)' : String(sameValues(full.out.values, probe.values, probe.width, full.out.win)));
      const lv = await time((c) => core(file, probe.level, probe.level ? null : viewWindow(view.bbox, info0.geo!, probe.cellDeg[0]), c));
      add(probe.level ? `core IFD${probe.level}` : 'core window', lv, String(sameValues(lv.out.values, probe.values, probe.width, lv.out.win)));
    }
  }
  console.log('view       layer      reader                level  cold ms  warm ms  requests   bytes  blocks  warm core/geotiff.js  same values as geotiff.js');
  for (const r of rows) {
    const ref = rows.find((x) => x.view === r.view && x.layer === r.layer && x.reader === 'geotiff.js')!;
    const ratio = r === ref ? '' : (r.warmMs / ref.warmMs).toFixed(2);
    console.log(`${r.view.padEnd(10)} ${r.layer.padEnd(10)} ${r.reader.padEnd(21)} ${String(r.level).padStart(5)} ${r.coldMs.toFixed(1).padStart(8)} ${r.warmMs.toFixed(1).padStart(8)} ${String(r.c.requests).padStart(9)} ${String(r.c.bytes).padStart(7)} ${String(r.c.blocks).padStart(7)}  ${ratio.padStart(20)}  ${r.same}`);
  }
}

await main();
