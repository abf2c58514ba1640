/**
 * Window reads over COGs with a bounded block cache.
 *
 * - Headers are parsed once per file and IFD and kept; a failed parse is forgotten. IFD 0 is the
 *   full-resolution image (all the engine reads); IFDs 1..n, a GDAL COG's internal overviews,
 *   are read for drawing (the map's raster worker). An overview takes IFD 0's georeferencing,
 *   band scale and no-data value (GDAL's rule: an overview IFD carries none of its own
 *   metadata). The header bytes of a file are read once for all its IFDs and kept; a block
 *   lying inside them (a small overview's tiles follow the IFDs) is taken from them.
 * - Decoded blocks (tiles) live in an LRU cache bounded in bytes (`lru-cache` `maxSize`), as
 *   stored (an Int16 tile of a scaled layer takes 2 bytes a cell); windows are decoded to values
 *   (./decode.ts) when assembled, in a second cache bounded in bytes too.
 * - Concurrent requests for the same block share one read; adjacent missing blocks of a
 *   window are fetched in one range request.
 * - Every read is abortable. A shared read is only cancelled when every caller waiting on
 *   it has aborted; an aborted or failed read is never cached.
 * - A file whose source reports BUNDLE_CHANGED (republished under a read: its ETag changed)
 *   is forgotten, header, blocks and windows, and its source reset: the failing read throws
 *   BUNDLE_CHANGED and the next one re-opens the new file (old headers never meet new blocks).
 */
import { LRUCache } from 'lru-cache';
import { IndapiError, throwIfAborted } from '../errors';
import type { RangeSource, SourceFactory } from '../io/source';
import { decodeBlock, emptyBlock, readTiffInfo, TiffBytes, type BlockArray, type Inflate, type TiffInfo } from './tiff';
import { inflateZlib } from './inflate';
import { decodeRun, isScaled, sampleDecoder } from './decode';

/**
 * A layer's window as the engine reads it: values (Float32 for plain Float32 files, which hold
 * exactly those values; else Float64; no-data NaN) or class values (Int32, no-data -1).
 */
export type LayerData = Float32Array | Float64Array | Int32Array;

/** A pixel window [x0, y0, x1, y1): columns x0..x1-1, rows y0..y1-1 (row 0 = north). */
export type PixelWindow = [x0: number, y0: number, x1: number, y1: number];

/** Options of a {@link CogStore}. */
export interface CogStoreOptions {
  /** Opens a file relative to the bundle root. */
  source: SourceFactory;
  /** zlib decompressor; default: fflate (pure JS). Node passes its native zlib. */
  inflate?: Inflate;
  /** Block cache bound in bytes of decoded samples; default 256 MB. */
  cacheBytes?: number;
  /** Bytes of a file read at least for its headers (./tiff.ts `TiffBytes`); default 4 KiB. */
  headerBytes?: number;
}

/** Most IFDs {@link CogStore.levels} follows in one file (a GDAL COG of the SSA window has 4). */
const MAX_IFDS = 32;
/** Files whose header bytes are kept (the oldest forgotten first: at most 256 KiB with 4 KiB headers; a forgotten file's next overview header or first tiles are read again). */
const MAX_HEADS = 64;

/** Blocks closer than this many bytes are fetched in one request. */
const MERGE_GAP = 32768;

interface Pending {
  promise: Promise<BlockArray>;
  waiters: number;
  run: Run;
}
interface Run {
  controller: AbortController;
  live: number;
}

/** Reads windows of COG files through a shared block cache. */
export class CogStore {
  private readonly source: SourceFactory;
  private readonly inflate: Inflate;
  private readonly sources = new Map<string, RangeSource>();
  private readonly headerBytes?: number;
  private readonly infos = new Map<string, Map<number, Promise<TiffInfo>>>(); // parsed IFDs by path, then IFD index
  /** Header bytes kept by path (the last {@link MAX_HEADS} files opened). */
  private readonly heads = new Map<string, TiffBytes>();
  private readonly cache: LRUCache<string, BlockArray>;
  private readonly pending = new Map<string, Pending>();
  /** Assembled windows (derived from blocks), a quarter of the block cache's bound. */
  private readonly windows: LRUCache<string, LayerData>;
  /** Counters for tests and the benchmark. */
  readonly stats = { requests: 0, bytesRead: 0, blocksDecoded: 0, cacheHits: 0 };

  constructor(opts: CogStoreOptions) {
    this.source = opts.source;
    this.inflate = opts.inflate ?? inflateZlib;
    this.headerBytes = opts.headerBytes;
    this.cache = new LRUCache<string, BlockArray>({
      maxSize: Math.max(1, opts.cacheBytes ?? 256 * 1024 * 1024),
      sizeCalculation: (v) => Math.max(1, v.byteLength),
    });
    this.windows = new LRUCache<string, LayerData>({
      maxSize: Math.max(1, Math.floor((opts.cacheBytes ?? 256 * 1024 * 1024) / 4)),
      sizeCalculation: (v) => Math.max(1, v.byteLength),
    });
  }

  /** Bytes currently held by the block cache. */
  get cachedBytes(): number {
    return this.cache.calculatedSize ?? 0;
  }

  /** Empties the block cache and the header cache. */
  clear(): void {
    this.cache.clear();
    this.windows.clear();
    this.infos.clear();
    this.heads.clear();
  }

  /** Clears the caches and closes the sources that can be closed (file handles). */
  async close(): Promise<void> {
    this.clear();
    const srcs = [...this.sources.values()];
    this.sources.clear();
    await Promise.all(srcs.map((s) => (s as { close?: () => Promise<void> }).close?.()));
  }

  private src(path: string): RangeSource {
    let s = this.sources.get(path);
    if (!s) {
      s = this.source(path);
      this.sources.set(path, s);
    }
    return s;
  }

  /**
   * Header of one IFD of a file (cached): IFD 0, the full-resolution image, by default; an
   * overview IFD with IFD 0's georeferencing, band scale and no-data value (see the module comment).
   * @param ifd 0-based index in the file's IFD chain
   * @throws IndapiError IO when the file cannot be read or parsed or has no IFD `ifd`, ABORTED on abort
   */
  async info(path: string, signal?: AbortSignal, ifd = 0): Promise<TiffInfo> {
    throwIfAborted(signal);
    let byIfd = this.infos.get(path);
    if (!byIfd) this.infos.set(path, (byIfd = new Map()));
    let p = byIfd.get(ifd);
    if (!p) {
      let head = this.heads.get(path);
      if (!head) {
        const src = this.src(path);
        this.heads.set(path, (head = new TiffBytes((o, l, s) => this.fetch(src, o, l, s), this.headerBytes)));
        for (const k of this.heads.keys()) if (this.heads.size > MAX_HEADS) this.heads.delete(k);
      }
      // The header read is not tied to one caller's signal, so an abort cannot poison it.
      const own = readTiffInfo(head, undefined, ifd);
      p = ifd === 0 ? own : Promise.all([own, this.info(path, undefined, 0)])
        .then(([o, full]) => ({ ...o, geo: full.geo, scale: full.scale, offset: full.offset, noData: full.noData }));
      const q = p, m = byIfd.set(ifd, q);
      q.catch(() => { if (m.get(ifd) === q) m.delete(ifd); });
    }
    return withAbort(p, signal);
  }

  /**
   * Headers of every IFD of a file, IFD 0 (full resolution) first, then its overviews, each
   * coarser than the one before (see {@link info}).
   * @throws IndapiError IO when the file cannot be read or parsed, ABORTED on abort
   */
  async levels(path: string, signal?: AbortSignal): Promise<TiffInfo[]> {
    const out = [await this.info(path, signal)];
    while (out[out.length - 1].hasNextIfd && out.length < MAX_IFDS) out.push(await this.info(path, signal, out.length));
    return out;
  }

  /** Forgets everything cached of `path` (headers, blocks, windows, shared reads) and resets its source. */
  forget(path: string): void {
    this.infos.delete(path);
    this.heads.delete(path);
    for (const k of [...this.cache.keys()]) if (k.startsWith(`${path}#`)) this.cache.delete(k);
    for (const k of [...this.windows.keys()]) if (k.startsWith(`${path}|`)) this.windows.delete(k);
    for (const k of [...this.pending.keys()]) if (k.startsWith(`${path}#`)) this.pending.delete(k);
    this.sources.get(path)?.reset?.();
  }

  private async fetch(src: RangeSource, offset: number, length: number, signal?: AbortSignal): Promise<ArrayBuffer> {
    this.stats.requests++;
    try {
      const b = await src.getBytes(offset, length, signal);
      this.stats.bytesRead += b.byteLength;
      return b;
    } catch (e) {
      if (signal?.aborted) throw new IndapiError('ABORTED', 'The request was aborted.');
      if (e instanceof IndapiError && e.code === 'BUNDLE_CHANGED') {
        for (const [path, s] of this.sources) if (s === src) this.forget(path);
        throw e;
      }
      if (e instanceof IndapiError) throw e;
      throw new IndapiError('IO', `Cannot read ${src.key}: ${(e as Error).message}`);
    }
  }

  /**
   * The blocks of IFD `ifd` of `path` that a window touches, fetched and decoded as needed.
   * @returns map from block index (row-major) to samples
   */
  async blocks(path: string, win: PixelWindow, signal?: AbortSignal, ifd = 0): Promise<{ info: TiffInfo; blocks: Map<number, BlockArray> }> {
    const info = await this.info(path, signal, ifd);
    const file = `${path}#${ifd}/`;
    const [x0, y0, x1, y1] = win;
    const bx0 = Math.floor(x0 / info.blockWidth), bx1 = Math.ceil(x1 / info.blockWidth);
    const by0 = Math.floor(y0 / info.blockHeight), by1 = Math.ceil(y1 / info.blockHeight);
    const out = new Map<number, BlockArray>();
    const missing: number[] = [];
    for (let by = by0; by < by1; by++) {
      for (let bx = bx0; bx < bx1; bx++) {
        const idx = by * info.blocksAcross + bx;
        const key = `${file}${idx}`;
        const hit = this.cache.get(key);
        if (hit) { out.set(idx, hit); this.stats.cacheHits++; }
        else missing.push(idx);
      }
    }
    if (missing.length === 0) return { info, blocks: out };
    throwIfAborted(signal);
    // Start (or join) reads of the missing blocks; group new ones into contiguous runs.
    const waits: Array<Promise<void>> = [];
    const toFetch: number[] = [];
    const joined: Array<[number, Pending]> = [];
    for (const idx of missing) {
      const p = this.pending.get(`${file}${idx}`);
      if (p) joined.push([idx, p]);
      else toFetch.push(idx);
    }
    toFetch.sort((a, b) => info.offsets[a] - info.offsets[b]);
    const src = this.src(path);
    let i = 0;
    while (i < toFetch.length) {
      let j = i + 1;
      let end = info.offsets[toFetch[i]] + info.byteCounts[toFetch[i]];
      while (j < toFetch.length && info.offsets[toFetch[j]] - end <= MERGE_GAP && info.byteCounts[toFetch[j]] > 0) {
        end = Math.max(end, info.offsets[toFetch[j]] + info.byteCounts[toFetch[j]]);
        j++;
      }
      const group = toFetch.slice(i, j);
      this.startRun(path, file, src, info, group, end);
      for (const idx of group) joined.push([idx, this.pending.get(`${file}${idx}`)!]);
      i = j;
    }
    for (const [idx, p] of joined) {
      p.waiters++;
      waits.push(p.promise.then((arr) => { out.set(idx, arr); }));
    }
    try {
      await withAbort(Promise.all(waits), signal);
    } finally {
      for (const [idx, p] of joined) {
        p.waiters--;
        if (p.waiters === 0 && signal?.aborted) {
          // Last waiter of this block gone: forget the shared read so later callers start
          // afresh, and cancel the run when none of its blocks is wanted any more.
          const key = `${file}${idx}`;
          if (this.pending.get(key) === p) this.pending.delete(key);
          p.run.live--;
          if (p.run.live === 0) p.run.controller.abort();
        }
      }
      // Unobserved rejections of abandoned reads are expected.
      for (const w of waits) w.catch(() => undefined);
    }
    return { info, blocks: out };
  }

  /** Starts one read of the blocks `group` of one IFD (bytes from the first one's offset to `end`; `file`: their cache keys' prefix). */
  private startRun(path: string, file: string, src: RangeSource, info: TiffInfo, group: number[], end: number): void {
    const run: Run = { controller: new AbortController(), live: group.length };
    const start = info.offsets[group[0]];
    const sparse = group.length === 1 && info.byteCounts[group[0]] === 0;
    // the part of the run the header read holds already is not read again
    const kept = sparse ? new Uint8Array(0) : this.heads.get(path)?.prefix(start, end - start) ?? new Uint8Array(0);
    const bytes: Promise<Uint8Array> = sparse || kept.length === end - start
      ? Promise.resolve(kept)
      : this.fetch(src, start + kept.length, end - start - kept.length, run.controller.signal).then((b) => joinBytes(kept, new Uint8Array(b)));
    for (const idx of group) {
      const key = `${file}${idx}`;
      const promise = bytes.then(async (buf) => {
        if (run.controller.signal.aborted) throw new IndapiError('ABORTED', 'The request was aborted.');
        const len = info.byteCounts[idx];
        if (len === 0) return emptyBlock(info);
        const off = info.offsets[idx] - start;
        if (off + len > buf.length) throw new IndapiError('IO', `Short read of ${path}: block ${idx} is truncated.`);
        const arr = await decodeBlock(info, buf.subarray(off, off + len), this.inflate);
        this.stats.blocksDecoded++;
        return arr;
      });
      const entry: Pending = { promise, waiters: 0, run };
      this.pending.set(key, entry);
      promise.then(
        (arr) => {
          if (this.pending.get(key) === entry) this.pending.delete(key);
          if (!run.controller.signal.aborted) this.cache.set(key, arr);
        },
        () => { if (this.pending.get(key) === entry) this.pending.delete(key); },
      );
    }
  }

  /**
   * Reads a window as values (Float64; no-data and NaN as NaN), row-major, (x1-x0) x (y1-y0),
   * decoded by the bundle's one rule (./decode.ts: a decimal scale 10^-k as `stored / 10^k`,
   * the double nearest the ingested text). Float32 files give their Float32 values exactly.
   * The array may be shared with later calls (window cache): do not modify it.
   * @param ifd the IFD read (0, full resolution, by default; see {@link info})
   * @throws IndapiError IO, ABORTED
   */
  async readFloat(path: string, win: PixelWindow, signal?: AbortSignal, ifd = 0): Promise<Float64Array> {
    const wkey = `${path}|${ifd}|f|${win.join(',')}`;
    const hit = this.windows.get(wkey);
    if (hit) return hit as Float64Array;
    const { info, blocks } = await this.blocks(path, win, signal, ifd);
    const out = floatValues(info, win, blocks);
    this.windows.set(wkey, out);
    return out;
  }

  /**
   * Reads a window as values, row-major: a Float32 file without scale or offset as Float32
   * (its values exactly, NaN for no data: half the memory of {@link readFloat}'s Float64 and no
   * conversion; the engine's cold whole-grid reads), any other as {@link readFloat}.
   * The array may be shared with later calls (window cache): do not modify it.
   * @param ifd the IFD read (0, full resolution, by default; see {@link info})
   * @throws IndapiError IO, ABORTED
   */
  async readValues(path: string, win: PixelWindow, signal?: AbortSignal, ifd = 0): Promise<Float32Array | Float64Array> {
    const info = await this.info(path, signal, ifd);
    if (info.kind !== 'float32' || isScaled(info)) return this.readFloat(path, win, signal, ifd);
    const wkey = `${path}|${ifd}|s|${win.join(',')}`;
    const hit = this.windows.get(wkey);
    if (hit) return hit as Float32Array;
    const { blocks } = await this.blocks(path, win, signal, ifd);
    const out = float32Values(info, win, blocks);
    this.windows.set(wkey, out);
    return out;
  }

  /**
   * Reads a whole IFD (the full-resolution image or one of its overviews) as the map draws it,
   * row-major, NaN for no data: Float64 values ({@link readFloat}'s) for a scaled or 64-bit
   * band, else Float32 (a Float32 band's values exactly; integers as Float32 holds them). A new
   * array, not kept in the window cache (the caller keeps it); its blocks go to the block cache.
   * @param ifd 0-based index in the file's IFD chain (see {@link levels})
   * @throws IndapiError IO, ABORTED
   */
  async readLevel(path: string, ifd: number, signal?: AbortSignal): Promise<{ info: TiffInfo; values: Float32Array | Float64Array }> {
    const info = await this.info(path, signal, ifd);
    const win: PixelWindow = [0, 0, info.width, info.height];
    const { blocks } = await this.blocks(path, win, signal, ifd);
    const wide = isScaled(info) || info.kind === 'float64';
    return { info, values: wide ? floatValues(info, win, blocks) : float32Values(info, win, blocks) };
  }

  /**
   * Reads a window as Int32 class values (no-data as -1), row-major.
   * The array may be shared with later calls (window cache): do not modify it.
   * @param ifd the IFD read (0, full resolution, by default; see {@link info})
   * @throws IndapiError IO, ABORTED
   */
  async readInt(path: string, win: PixelWindow, signal?: AbortSignal, ifd = 0): Promise<Int32Array> {
    const wkey = `${path}|${ifd}|i|${win.join(',')}`;
    const hit = this.windows.get(wkey);
    if (hit) return hit as Int32Array;
    const { info, blocks } = await this.blocks(path, win, signal, ifd);
    const out = intValues(info, win, blocks);
    this.windows.set(wkey, out);
    return out;
  }
}

/** A window's values as Float64 ({@link CogStore.readFloat}'s rule) from its blocks. */
function floatValues(info: TiffInfo, win: PixelWindow, blocks: Map<number, BlockArray>): Float64Array {
  const out = new Float64Array((win[2] - win[0]) * (win[3] - win[1]));
  const dec = sampleDecoder({ noData: info.noData, float32: info.kind === 'float32', scale: info.scale, offset: info.offset });
  const plain = (info.kind === 'float32' || info.kind === 'float64') && !isScaled(info);
  assemble(info, win, blocks, (dstOff, blk, srcOff, n) => {
    // float blocks already hold NaN for no data (decodeBlock)
    if (plain && blk instanceof Float32Array) widen32(blk, srcOff, out, dstOff, n);
    else if (plain) out.set(blk.subarray(srcOff, srcOff + n), dstOff);
    else decodeRun(blk, srcOff, out, dstOff, n, dec);
  });
  return out;
}

/** A window's values as Float32 from the blocks of an unscaled band (Float32 blocks copied: they hold NaN for no data already; others decoded, ./decode.ts). */
function float32Values(info: TiffInfo, win: PixelWindow, blocks: Map<number, BlockArray>): Float32Array {
  const out = new Float32Array((win[2] - win[0]) * (win[3] - win[1]));
  const dec = sampleDecoder({ noData: info.noData, float32: info.kind === 'float32', scale: info.scale, offset: info.offset });
  assemble(info, win, blocks, (dstOff, blk, srcOff, n) => {
    if (blk instanceof Float32Array) out.set(blk.subarray(srcOff, srcOff + n), dstOff);
    else decodeRun(blk, srcOff, out, dstOff, n, dec);
  });
  return out;
}

/** A window's class values as Int32 (no-data -1) from its blocks. */
function intValues(info: TiffInfo, win: PixelWindow, blocks: Map<number, BlockArray>): Int32Array {
  const out = new Int32Array((win[2] - win[0]) * (win[3] - win[1]));
  const nd = info.noData;
  const isFloat = info.kind === 'float32' || info.kind === 'float64';
  assemble(info, win, blocks, (dstOff, blk, srcOff, n) => {
    if (!isFloat) {
      if (nd === null) out.set(blk.subarray(srcOff, srcOff + n), dstOff);
      else if (blk instanceof Uint8Array) classRun8(blk, srcOff, out, dstOff, n, nd);
      else if (blk instanceof Uint16Array) classRun16(blk, srcOff, out, dstOff, n, nd);
      else for (let k = 0; k < n; k++) { const v = blk[srcOff + k]; out[dstOff + k] = v === nd ? -1 : v; }
    } else {
      for (let k = 0; k < n; k++) {
        const v = blk[srcOff + k];
        out[dstOff + k] = v === nd || v !== v ? -1 : Math.round(v);
      }
    }
  });
  return out;
}

/** `n` Float32 samples of `src` from `srcOff` as doubles into `dst` from `dstOff` (a loop of one array type each: faster than `set` across types). */
function widen32(src: Float32Array, srcOff: number, dst: Float64Array, dstOff: number, n: number): void {
  for (let k = 0; k < n; k++) dst[dstOff + k] = src[srcOff + k];
}

/** `n` Uint8 class values of `src` from `srcOff` into `dst` from `dstOff`, the no-data value `nd` as -1. */
function classRun8(src: Uint8Array, srcOff: number, dst: Int32Array, dstOff: number, n: number, nd: number): void {
  for (let k = 0; k < n; k++) { const v = src[srcOff + k]; dst[dstOff + k] = v === nd ? -1 : v; }
}

/** `n` Uint16 class values of `src` from `srcOff` into `dst` from `dstOff`, the no-data value `nd` as -1. */
function classRun16(src: Uint16Array, srcOff: number, dst: Int32Array, dstOff: number, n: number, nd: number): void {
  for (let k = 0; k < n; k++) { const v = src[srcOff + k]; dst[dstOff + k] = v === nd ? -1 : v; }
}

/** Copies the parts of blocks that fall inside the window, row by row. */
function assemble(
  info: TiffInfo,
  win: PixelWindow,
  blocks: Map<number, BlockArray>,
  copy: (dstOff: number, blk: BlockArray, srcOff: number, n: number) => void,
): void {
  const [x0, y0, x1, y1] = win;
  const w = x1 - x0;
  const bw = info.blockWidth, bh = info.blockHeight;
  for (const [idx, blk] of blocks) {
    const bx = idx % info.blocksAcross, by = Math.floor(idx / info.blocksAcross);
    const cx0 = Math.max(x0, bx * bw), cx1 = Math.min(x1, (bx + 1) * bw, info.width);
    const cy0 = Math.max(y0, by * bh), cy1 = Math.min(y1, (by + 1) * bh, info.height);
    if (cx1 <= cx0 || cy1 <= cy0) continue;
    const n = cx1 - cx0;
    for (let y = cy0; y < cy1; y++) {
      copy((y - y0) * w + (cx0 - x0), blk, (y - by * bh) * bw + (cx0 - bx * bw), n);
    }
  }
}

/** `a` then `b` (`b` itself when `a` is empty). */
function joinBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Resolves like `p`, or rejects with ABORTED as soon as `signal` aborts. */
export function withAbort<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(new IndapiError('ABORTED', 'The request was aborted.'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new IndapiError('ABORTED', 'The request was aborted.'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => { signal.removeEventListener('abort', onAbort); resolve(v); },
      (e) => { signal.removeEventListener('abort', onAbort); reject(e); },
    );
  });
}
