/**
 * Decoding one TIFF block (tile or strip) from its stored bytes into samples: decompression
 * (the injected zlib inflate), byte order, the predictor (TIFF 6.0 section 14: 2, horizontal
 * differencing; Adobe Photoshop TIFF Technical Note 3: 3, floating point) and, for float
 * samples, GDAL no-data as NaN (./nodata.ts).
 *
 * This is the engine's cold path (every tile of a whole-region query passes here), so each
 * sample type has its own loop over one typed-array type (monomorphic for the JIT), the
 * predictor is undone in the inflated buffer where it can be, and the common case of the
 * bundle (Float32, predictor 3, little-endian on a little-endian host, blocks a multiple of 4
 * samples wide) takes the planes' byte sums four bytes at a time (SWAR) into a row aside and
 * turns them back into samples four at a time (a 4 x 4 byte transpose of 32-bit words), with
 * the no-data test on the samples' bits.
 */
import { IndapiError } from '../errors';
import { predictor3Simd } from './simd';

/** Sample kinds a decoded block can have. */
export type SampleKind = 'uint8' | 'uint16' | 'int16' | 'uint32' | 'int32' | 'float32' | 'float64';

/** A decoded block (tile or strip): one sample per pixel, row-major, `blockWidth * blockHeight` values. */
export type BlockArray = Uint8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

/** What decoding a block needs to know of its file (part of ./tiff.ts's `TiffInfo`). */
export interface BlockLayout {
  /** Block (tile, or strip: full width x RowsPerStrip) size in pixels. */
  blockWidth: number;
  blockHeight: number;
  /** Sample type. */
  kind: SampleKind;
  /** TIFF compression code (1 none, 8 / 32946 deflate). */
  compression: number;
  /** TIFF predictor (1, 2, 3). */
  predictor: number;
  /** File byte order. */
  littleEndian: boolean;
  /** GDAL no-data value, or null when the file has none. */
  noData: number | null;
}

/**
 * Decompresses zlib (RFC 1950) streams, as TIFF compression 8 stores them. Injected so Node
 * can use its native zlib. The result must be a buffer the caller may modify (not shared).
 * @param expectedBytes the decompressed size the block should have (a hint for one allocation)
 */
export type Inflate = (data: Uint8Array, expectedBytes?: number) => Uint8Array | Promise<Uint8Array>;

const HOST_LE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Bytes per sample of a kind. */
export function bytesPerSample(kind: SampleKind): number {
  return kind === 'uint8' ? 1 : kind === 'uint16' || kind === 'int16' ? 2 : kind === 'float64' ? 8 : 4;
}

/** A typed array of `kind` over `n` samples of `buf` from byte `off` (which must be aligned). */
function view(kind: SampleKind, buf: ArrayBufferLike, off: number, n: number): BlockArray {
  switch (kind) {
    case 'uint8': return new Uint8Array(buf, off, n);
    case 'uint16': return new Uint16Array(buf, off, n);
    case 'int16': return new Int16Array(buf, off, n);
    case 'uint32': return new Uint32Array(buf, off, n);
    case 'int32': return new Int32Array(buf, off, n);
    case 'float32': return new Float32Array(buf, off, n);
    case 'float64': return new Float64Array(buf, off, n);
  }
}

/**
 * Decodes one block's stored bytes into samples (length blockWidth x blockHeight).
 * Float blocks get NaN where the value equals the no-data value (and past the rows of a
 * short last strip).
 * @throws IndapiError IO when the data is truncated or cannot be decompressed
 */
export async function decodeBlock(info: BlockLayout, raw: Uint8Array, inflate: Inflate): Promise<BlockArray> {
  const bps = bytesPerSample(info.kind);
  const blockBytes = info.blockWidth * info.blockHeight * bps;
  let data: Uint8Array;
  if (info.compression === 1) data = raw.slice(); // the fetched bytes are not ours to modify
  else {
    try {
      data = await inflate(raw, blockBytes);
    } catch (e) {
      throw new IndapiError('IO', `TIFF: cannot decompress a block (${(e as Error).message}).`);
    }
  }
  return decodeSamples(info, data);
}

/**
 * Turns a block's decompressed bytes into samples (see {@link decodeBlock}); `data` may be
 * modified (the predictor is undone in place where the layout allows).
 * @throws IndapiError IO when the data holds not even one row
 */
export function decodeSamples(info: BlockLayout, data: Uint8Array): BlockArray {
  const bps = bytesPerSample(info.kind);
  const w = info.blockWidth, h = info.blockHeight, n = w * h;
  // The last strip of a stripped file may be short.
  const rows = Math.min(h, Math.floor(data.length / (w * bps)));
  if (rows <= 0) throw new IndapiError('IO', 'TIFF: truncated block.');
  const float = info.kind === 'float32' || info.kind === 'float64';
  let arr: BlockArray;
  let noDataDone = false;
  if (info.predictor === 3) [arr, noDataDone] = floatPredictor(info, data, rows, bps);
  else {
    // samples in host order, in a buffer of n samples (the inflated one when it fits and is aligned)
    const bytes = data.length >= n * bps && data.byteOffset % bps === 0 ? data : copyInto(new Uint8Array(n * bps), data, rows * w * bps);
    if (bps > 1 && info.littleEndian !== HOST_LE) swapBytes(bytes, bps, rows * w * bps);
    arr = view(info.kind, bytes.buffer, bytes.byteOffset, n);
    if (info.predictor === 2) horizontalPredictor(bytes, bps, w, rows);
  }
  if (float && !noDataDone && info.noData !== null && !Number.isNaN(info.noData)) {
    if (info.kind === 'float32') noDataToNaN32(arr as Float32Array, Math.fround(info.noData), rows * w);
    else noDataToNaN64(arr as Float64Array, info.noData, rows * w);
  }
  if (rows < h && float) arr.fill(NaN, rows * w);
  return arr;
}

function copyInto(dst: Uint8Array, src: Uint8Array, len: number): Uint8Array {
  dst.set(src.subarray(0, len));
  return dst;
}

/**
 * Undoes predictor 2 in place, per row, with integer arithmetic on the samples' bits (as
 * libtiff's horAcc8/16/32/64: sums wrap at the sample's width, signed or not alike).
 */
function horizontalPredictor(bytes: Uint8Array, bps: number, w: number, rows: number): void {
  const off = bytes.byteOffset, len = rows * w;
  if (bps === 1) accumulate8(bytes, w, rows);
  else if (bps === 2) accumulate16(new Uint16Array(bytes.buffer, off, len), w, rows);
  else if (bps === 4) accumulate32(new Int32Array(bytes.buffer, off, len), w, rows);
  else accumulate64(new BigInt64Array(bytes.buffer, off, len), w, rows);
}

// The running sum stays in a register (not re-read from the element just stored).
function accumulate8(a: Uint8Array, w: number, rows: number): void {
  for (let r = 0, o = 0; r < rows; r++, o += w) {
    let acc = a[o];
    for (let i = o + 1; i < o + w; i++) a[i] = acc = (acc + a[i]) & 0xff;
  }
}
function accumulate16(a: Uint16Array, w: number, rows: number): void {
  for (let r = 0, o = 0; r < rows; r++, o += w) {
    let acc = a[o];
    for (let i = o + 1; i < o + w; i++) a[i] = acc = (acc + a[i]) & 0xffff;
  }
}
function accumulate32(a: Int32Array, w: number, rows: number): void {
  for (let r = 0, o = 0; r < rows; r++, o += w) {
    let acc = a[o];
    for (let i = o + 1; i < o + w; i++) a[i] = acc = (acc + a[i]) | 0;
  }
}
function accumulate64(a: BigInt64Array, w: number, rows: number): void {
  for (let r = 0, o = 0; r < rows; r++, o += w) for (let i = o + 1; i < o + w; i++) a[i] = BigInt.asIntN(64, a[i] + a[i - 1]);
}

/**
 * Undoes predictor 3 (per row: differences of bytes, the bytes split into planes, most
 * significant plane first) into a new buffer of samples in host order. The running sums
 * are taken in `data` itself.
 */
function floatPredictor(info: BlockLayout, data: Uint8Array, rows: number, bps: number): [samples: BlockArray, noDataDone: boolean] {
  const w = info.blockWidth, n = w * info.blockHeight, rowBytes = w * bps;
  // GDAL/libtiff write big-endian files with the planes of the byte-swapped word: the planes
  // are most significant first in host order exactly when the file's order is the host's.
  const msbFirst = HOST_LE === info.littleEndian;
  if (bps === 4 && msbFirst && HOST_LE && data.byteOffset % 4 === 0 && data.length >= n * 4) {
    // in place: the samples end up in the inflated buffer itself (one block less to allocate)
    const words = new Int32Array(data.buffer, data.byteOffset, n);
    const nd = info.kind === 'float32' && info.noData !== null && !Number.isNaN(info.noData) ? noDataBits(info.noData) : [NAN32, NAN32] as [number, number];
    if (predictor3Simd(data, w, rows, nd[0], nd[1])) {
      // done by the WebAssembly SIMD kernel (./simd.ts)
    } else if (w % 4 === 0) {
      // the summed planes of a row go aside (`row`), then come back as samples by 4 x 4 byte transposes
      const row = new Int32Array(w);
      for (let r = 0; r < rows; r++) {
        prefixSumWords(words, r * w, (r + 1) * w, row);
        transpose32(row, words, r * w, w >> 2, nd[0], nd[1]);
      }
    } else {
      for (let r = 0; r < rows; r++) prefixSumWords(words, r * w, (r + 1) * w, words, r * w);
      interleave32(data, words, w, rows, nd);
    }
    return [view(info.kind, data.buffer, data.byteOffset, n), true];
  }
  const out = new ArrayBuffer(n * bps);
  for (let r = 0, o = 0; r < rows; r++, o += rowBytes) prefixSumBytes(data, o, o + rowBytes);
  interleaveBytes(data, new Uint8Array(out), w, rows, bps, msbFirst);
  return [view(info.kind, out, 0, n), false];
}

/** The bits of a Float32 quiet NaN. */
const NAN32 = 0x7fc00000;

/** The bit patterns of a Float32 no-data value (two for zero: +0 and -0 compare equal). */
function noDataBits(noData: number): [number, number] {
  const f = new Float32Array([noData]);
  const bits = new Int32Array(f.buffer)[0];
  return f[0] === 0 ? [0, 0x80000000 | 0] : [bits, bits];
}

function prefixSumBytes(d: Uint8Array, from: number, to: number): void {
  let acc = d[from];
  for (let i = from + 1; i < to; i++) {
    acc = (acc + d[i]) & 255;
    d[i] = acc;
  }
}

/**
 * The running byte sums of {@link prefixSumBytes} over little-endian 32-bit words, four
 * bytes a step (SWAR): bytes b0..b3 of a word become b0, b0+b1, b0+b1+b2, b0+..+b3 (mod
 * 256) plus the previous word's last sum, computed in 16-bit lanes so that no lane carries
 * into the next. Words `from..to-1` of `u` are read and written to `out` from `outFrom`
 * (default: 0; `out` may be `u` itself with `outFrom` = `from`).
 */
function prefixSumWords(u: Int32Array, from: number, to: number, out: Int32Array, outFrom = 0): void {
  let carry = 0;
  for (let i = from, j = outFrom; i < to; i++, j++) {
    const x = u[i];
    const lo = x & 0x00ff00ff, hi = (x >>> 8) & 0x00ff00ff; // lanes: b0, b2 | b1, b3
    const pairs = lo + hi; // b0+b1, b2+b3
    const c = carry * 0x00010001;
    const even = lo + (pairs << 16) + c; // b0, b0+b1+b2
    const odd = pairs + (pairs << 16) + c; // b0+b1, b0+b1+b2+b3
    const r = (even & 0x00ff00ff) | ((odd & 0x00ff00ff) << 8);
    out[j] = r;
    carry = r >>> 24;
  }
}

/**
 * One row's four byte planes (`row`: `q` words each, most significant plane first, as
 * little-endian words) -> `4 q` host (little-endian) 32-bit samples in `out` from `at`, four
 * samples a step by a 4 x 4 byte transpose (word t of the result takes byte t of each
 * plane's word); a sample equal to one of the no-data bit patterns `nd0`, `nd1` becomes a NaN.
 */
function transpose32(row: Int32Array, out: Int32Array, at: number, q: number, nd0: number, nd1: number): void {
  for (let j = 0, o = at; j < q; j++, o += 4) {
    const a = row[j], b = row[q + j], c = row[2 * q + j], d = row[3 * q + j];
    const x = (d & 0x00ff00ff) | ((c & 0x00ff00ff) << 8); // d0 c0 d2 c2 (low byte first)
    const y = ((d >>> 8) & 0x00ff00ff) | (c & 0xff00ff00); // d1 c1 d3 c3
    const z = (b & 0x00ff00ff) | ((a & 0x00ff00ff) << 8); // b0 a0 b2 a2
    const u = ((b >>> 8) & 0x00ff00ff) | (a & 0xff00ff00); // b1 a1 b3 a3
    const s0 = (x & 0xffff) | (z << 16), s1 = (y & 0xffff) | (u << 16);
    const s2 = (x >>> 16) | (z & 0xffff0000), s3 = (y >>> 16) | (u & 0xffff0000);
    out[o] = s0 === nd0 || s0 === nd1 ? NAN32 : s0;
    out[o + 1] = s1 === nd0 || s1 === nd1 ? NAN32 : s1;
    out[o + 2] = s2 === nd0 || s2 === nd1 ? NAN32 : s2;
    out[o + 3] = s3 === nd0 || s3 === nd1 ? NAN32 : s3;
  }
}

/**
 * Four byte planes per row (most significant first) -> host (little-endian) 32-bit words,
 * written over the same row of `d` (through `out`, a view of `d`'s bytes; each row's planes
 * are copied aside first); a word equal to one of the no-data bit patterns becomes a NaN.
 */
function interleave32(d: Uint8Array, out: Int32Array, w: number, rows: number, nd: [number, number]): void {
  const nd0 = nd[0], nd1 = nd[1];
  const row = new Uint8Array(4 * w);
  const p1 = w, p2 = 2 * w, p3 = 3 * w;
  for (let r = 0, o = 0, k0 = 0; r < rows; r++, o += 4 * w, k0 += w) {
    row.set(d.subarray(o, o + 4 * w));
    for (let k = 0; k < w; k++) {
      const v = (row[k] << 24) | (row[p1 + k] << 16) | (row[p2 + k] << 8) | row[p3 + k];
      out[k0 + k] = v === nd0 || v === nd1 ? NAN32 : v;
    }
  }
}

/** Any sample size and plane order: byte b of each sample from plane b. */
function interleaveBytes(d: Uint8Array, out: Uint8Array, w: number, rows: number, bps: number, msbFirst: boolean): void {
  for (let r = 0; r < rows; r++) {
    const o = r * w * bps;
    for (let k = 0; k < w; k++) {
      for (let b = 0; b < bps; b++) out[o + k * bps + (msbFirst ? bps - 1 - b : b)] = d[o + b * w + k];
    }
  }
}

function noDataToNaN32(a: Float32Array, nd: number, len: number): void {
  for (let i = 0; i < len; i++) if (a[i] === nd) a[i] = NaN;
}
function noDataToNaN64(a: Float64Array, nd: number, len: number): void {
  for (let i = 0; i < len; i++) if (a[i] === nd) a[i] = NaN;
}

function swapBytes(b: Uint8Array, size: number, len: number): void {
  for (let i = 0; i < len; i += size) {
    for (let j = 0; j < size >> 1; j++) {
      const t = b[i + j];
      b[i + j] = b[i + size - 1 - j];
      b[i + size - 1 - j] = t;
    }
  }
}

/** A block filled with no-data (for sparse blocks). */
export function emptyBlock(info: BlockLayout): BlockArray {
  const n = info.blockWidth * info.blockHeight;
  const arr = view(info.kind, new ArrayBuffer(n * bytesPerSample(info.kind)), 0, n);
  if (info.kind === 'float32' || info.kind === 'float64') arr.fill(NaN);
  else if (info.noData !== null) arr.fill(info.noData);
  return arr;
}
