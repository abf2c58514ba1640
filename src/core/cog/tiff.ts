/**
 * A small reader of single-band tiled (or stripped) GeoTIFFs / Cloud-Optimized GeoTIFFs,
 * enough for the bundle's COGs: classic TIFF and BigTIFF headers, one image file directory
 * (by default the first: full resolution; overviews are never used for statistics, but any
 * IFD of the chain can be read, e.g. a GDAL internal overview for drawing), DEFLATE or no
 * compression, predictors 1 (none), 2 (horizontal) and 3 (floating point), and GDAL's
 * no-data tag.
 *
 * Format references: TIFF 6.0 (Adobe, 1992) sections 2 (structure), 14 (predictor) and 15
 * (tiles); BigTIFF (Aware Systems, https://www.awaresystems.be/imaging/tiff/bigtiff.html);
 * Adobe Photoshop TIFF Technical Note 3 (floating-point predictor 3); GeoTIFF 1.1 (OGC
 * 19-008r4) for ModelPixelScale/ModelTiepoint; GDAL_NODATA tag 42113 and GDAL_METADATA tag
 * 42112 (band scale and offset, ./decode.ts) (GDAL GTiff driver doc).
 */
import { IndapiError } from '../errors';
import { parseGdalScale, type BandScale } from './decode';
import type { BlockLayout, SampleKind } from './block';

/** TIFF tag numbers used here. */
const TAG = {
  ImageWidth: 256,
  ImageLength: 257,
  BitsPerSample: 258,
  Compression: 259,
  StripOffsets: 273,
  SamplesPerPixel: 277,
  RowsPerStrip: 278,
  StripByteCounts: 279,
  PlanarConfiguration: 284,
  Predictor: 317,
  TileWidth: 322,
  TileLength: 323,
  TileOffsets: 324,
  TileByteCounts: 325,
  SampleFormat: 339,
  ModelPixelScale: 33550,
  ModelTiepoint: 33922,
  GdalMetadata: 42112,
  GdalNoData: 42113,
} as const;

/** Byte size of each TIFF field type (index = type id). */
const TYPE_SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 16: 8, 17: 8, 18: 8 };

/** What the reader knows about a file after parsing one IFD (the first by default) (with its band's GDAL scale and offset, ./decode.ts). */
export interface TiffInfo extends BandScale, BlockLayout {
  /** Image width and height in pixels. */
  width: number;
  height: number;
  /** Blocks across and down. */
  blocksAcross: number;
  blocksDown: number;
  /** Byte offset and length of each block, row-major. A length of 0 is a sparse block (all no-data). */
  offsets: Float64Array;
  byteCounts: Float64Array;
  /** Georeferencing, degrees: west edge, north edge, pixel width and height (positive). Null without GeoTIFF tags. */
  geo: { xmin: number; ymax: number; resX: number; resY: number } | null;
  /** True when another IFD follows this one in the file's chain (in a GDAL COG: a coarser overview). */
  hasNextIfd: boolean;
}

/** Reads `length` bytes at `offset` of the file. */
export type ByteReader = (offset: number, length: number, signal?: AbortSignal) => Promise<ArrayBuffer>;

/**
 * Bytes fetched for the header in one go. GDAL COGs keep the first IFD and its tile tables in
 * the first few KB: 1.3 KB in every file of the default bundle (15 tiles of 256 x 256), about
 * 2.6 KB for the whole 5-arc-minute lattice every bundle lies on (4320 x 2160 cells, 153 tiles;
 * the ingest writes 256 x 256 tiles); the overviews' IFDs follow, then their data, which the
 * engine never reads. It was 64 KB, then 16 KB: most of a small layer's file, and 4 headers of
 * 16 KB are about 0.3 s on a 1.6 Mbps link before a first summary. A larger header (another
 * tiling) costs one more read.
 */
const HEADER_FETCH = 4096;

/**
 * The bytes of one file fetched for its headers, kept so that the IFDs of one file (a COG's
 * full-resolution image and its overviews) are parsed from one read, and so that blocks lying
 * inside them (a small overview's tiles follow the IFDs in a GDAL COG) need no read of their
 * own. A miss reads at least `fetchBytes` from the missing offset; concurrent misses covered
 * by a read under way share it. A failed read is not kept.
 */
export class TiffBytes {
  private chunks: Array<{ start: number; bytes: Uint8Array }> = [];
  private inflight: Array<{ start: number; end: number; done: Promise<unknown> }> = [];

  /**
   * @param read byte-range reader of the file
   * @param fetchBytes bytes read at least per miss (default {@link HEADER_FETCH}, 4 KiB)
   */
  constructor(private readonly read: ByteReader, private readonly fetchBytes = HEADER_FETCH) {}

  /** Bytes `offset .. offset + length - 1` when one kept read holds them all, else undefined (never reads). */
  covering(offset: number, length: number): Uint8Array | undefined {
    const p = this.prefix(offset, length);
    return p.length === length ? p : undefined;
  }

  /** The longest run of kept bytes from `offset` on, at most `length` (empty when none is kept there; never reads). */
  prefix(offset: number, length: number): Uint8Array {
    let best: Uint8Array = new Uint8Array(0);
    for (const c of this.chunks) {
      const end = Math.min(c.start + c.bytes.length, offset + length);
      if (offset >= c.start && end - offset > best.length) best = c.bytes.subarray(offset - c.start, end - c.start);
    }
    return best;
  }

  /**
   * A view of bytes `offset .. offset + length - 1`, read when no kept read holds them.
   * @throws IndapiError IO when the file ends before them; the reader's errors
   */
  async ensure(offset: number, length: number, signal?: AbortSignal): Promise<DataView> {
    let got = this.covering(offset, length);
    const run = got ? undefined : this.inflight.find((r) => offset >= r.start && offset + length <= r.end);
    if (run) {
      await run.done.catch(() => undefined);
      got = this.covering(offset, length);
    }
    if (got) return new DataView(got.buffer, got.byteOffset, length);
    const want = Math.max(length, this.fetchBytes);
    const p = this.read(offset, want, signal).then((b) => new Uint8Array(b));
    const entry = { start: offset, end: offset + want, done: p };
    this.inflight.push(entry);
    try {
      const buf = await p;
      if (buf.length < length) throw new IndapiError('IO', `TIFF: unexpected end of file at byte ${offset + buf.length}.`);
      this.chunks.push({ start: offset, bytes: buf });
      return new DataView(buf.buffer, buf.byteOffset, length);
    } finally {
      this.inflight.splice(this.inflight.indexOf(entry), 1);
    }
  }
}

function readUint(dv: DataView, pos: number, size: number, le: boolean): number {
  switch (size) {
    case 1: return dv.getUint8(pos);
    case 2: return dv.getUint16(pos, le);
    case 4: return dv.getUint32(pos, le);
    case 8: return Number(dv.getBigUint64(pos, le));
    default: throw new IndapiError('IO', `TIFF: bad integer size ${size}.`);
  }
}

function readValue(dv: DataView, pos: number, type: number, le: boolean): number {
  switch (type) {
    case 1: case 7: return dv.getUint8(pos);
    case 6: return dv.getInt8(pos);
    case 3: return dv.getUint16(pos, le);
    case 8: return dv.getInt16(pos, le);
    case 4: return dv.getUint32(pos, le);
    case 9: return dv.getInt32(pos, le);
    case 11: return dv.getFloat32(pos, le);
    case 12: return dv.getFloat64(pos, le);
    case 16: case 18: return Number(dv.getBigUint64(pos, le));
    case 17: return Number(dv.getBigInt64(pos, le));
    case 5: return dv.getUint32(pos, le) / dv.getUint32(pos + 4, le);
    case 10: return dv.getInt32(pos, le) / dv.getInt32(pos + 4, le);
    default: throw new IndapiError('IO', `TIFF: unsupported field type ${type}.`);
  }
}

/**
 * Parses the header and one IFD of a TIFF (the first by default).
 * @param read byte-range reader of the file, or the file's kept header bytes ({@link TiffBytes},
 *   shared by the reads of several IFDs)
 * @param ifdIndex which IFD of the file's chain, 0-based: in a GDAL COG 0 is the full-resolution
 *   image and 1, 2, ... its internal overviews, each coarser (halved) than the one before. An
 *   overview IFD has no GeoTIFF tags (`geo` null) nor GDAL_METADATA (scale 1, offset 0 here): its
 *   georeferencing and band scale are those of IFD 0 (GDAL's rule); its GDAL_NODATA is its own.
 * @throws IndapiError IO when the file is not a TIFF this reader supports (several bands,
 *   planar separate, unsupported compression or sample type), or has no IFD `ifdIndex`
 */
export async function readTiffInfo(read: ByteReader | TiffBytes, signal?: AbortSignal, ifdIndex = 0): Promise<TiffInfo> {
  const bytes = read instanceof TiffBytes ? read : new TiffBytes(read);
  const hb = { ensure: (offset: number, length: number) => bytes.ensure(offset, length, signal) };
  const head = await hb.ensure(0, 16);
  const bo = head.getUint16(0, false);
  if (bo !== 0x4949 && bo !== 0x4d4d) throw new IndapiError('IO', 'Not a TIFF file (bad byte-order mark).');
  const le = bo === 0x4949;
  const magic = head.getUint16(2, le);
  let big: boolean;
  let ifdOffset: number;
  if (magic === 42) { big = false; ifdOffset = head.getUint32(4, le); }
  else if (magic === 43) { big = true; ifdOffset = Number(head.getBigUint64(8, le)); }
  else throw new IndapiError('IO', `Not a TIFF file (magic ${magic}).`);

  const countSize = big ? 8 : 2;
  const entrySize = big ? 20 : 12;
  const offSize = big ? 8 : 4;
  for (let k = 0; k < ifdIndex; k++) {
    // the next IFD's offset follows the entries (TIFF 6.0 section 2); 0 ends the chain
    const count = readUint(await hb.ensure(ifdOffset, countSize), 0, countSize, le);
    ifdOffset = readUint(await hb.ensure(ifdOffset + countSize + count * entrySize, offSize), 0, offSize, le);
    if (ifdOffset === 0) throw new IndapiError('IO', `TIFF: no IFD ${ifdIndex} (the file has ${k + 1}).`);
  }
  const cdv = await hb.ensure(ifdOffset, countSize);
  const n = readUint(cdv, 0, countSize, le);
  const edv = await hb.ensure(ifdOffset + countSize, n * entrySize + offSize);
  const hasNextIfd = readUint(edv, n * entrySize, offSize, le) !== 0;
  const tags = new Map<number, { type: number; count: number; inline: boolean; pos: number; dv: DataView }>();
  for (let i = 0; i < n; i++) {
    const p = i * entrySize;
    const tag = edv.getUint16(p, le);
    const type = edv.getUint16(p + 2, le);
    const count = readUint(edv, p + 4, big ? 8 : 4, le);
    const size = (TYPE_SIZE[type] ?? 1) * count;
    const valPos = p + 4 + (big ? 8 : 4);
    if (size <= offSize) tags.set(tag, { type, count, inline: true, pos: valPos, dv: edv });
    else tags.set(tag, { type, count, inline: false, pos: readUint(edv, valPos, offSize, le), dv: edv });
  }
  async function values(tag: number): Promise<number[] | null> {
    const t = tags.get(tag);
    if (!t) return null;
    const sz = TYPE_SIZE[t.type] ?? 1;
    const dv = t.inline ? t.dv : await hb.ensure(t.pos, sz * t.count);
    const base = t.inline ? t.pos : 0;
    const out: number[] = new Array(t.count);
    for (let i = 0; i < t.count; i++) out[i] = readValue(dv, base + i * sz, t.type, le);
    return out;
  }
  async function text(tag: number): Promise<string | null> {
    const t = tags.get(tag);
    if (!t) return null;
    const dv = t.inline ? t.dv : await hb.ensure(t.pos, t.count);
    const base = t.inline ? t.pos : 0;
    let s = '';
    for (let i = 0; i < t.count; i++) {
      const c = dv.getUint8(base + i);
      if (c === 0) break;
      s += String.fromCharCode(c);
    }
    return s;
  }
  const one = async (tag: number, dflt?: number): Promise<number> => {
    const v = await values(tag);
    if (v && v.length) return v[0];
    if (dflt === undefined) throw new IndapiError('IO', `TIFF: missing required tag ${tag}.`);
    return dflt;
  };

  const width = await one(TAG.ImageWidth);
  const height = await one(TAG.ImageLength);
  const spp = await one(TAG.SamplesPerPixel, 1);
  if (spp !== 1) throw new IndapiError('IO', `TIFF: ${spp} samples per pixel; only single-band files are supported.`);
  const bps = await one(TAG.BitsPerSample, 1);
  const fmt = await one(TAG.SampleFormat, 1);
  const compression = await one(TAG.Compression, 1);
  if (![1, 8, 32946].includes(compression)) throw new IndapiError('IO', `TIFF: compression ${compression} is not supported (use DEFLATE or none).`);
  const predictor = await one(TAG.Predictor, 1);
  if (![1, 2, 3].includes(predictor)) throw new IndapiError('IO', `TIFF: predictor ${predictor} is not supported.`);
  const kind = sampleKind(fmt, bps);

  let blockWidth: number, blockHeight: number, offsets: number[] | null, byteCounts: number[] | null;
  if (tags.has(TAG.TileWidth)) {
    blockWidth = await one(TAG.TileWidth);
    blockHeight = await one(TAG.TileLength);
    offsets = await values(TAG.TileOffsets);
    byteCounts = await values(TAG.TileByteCounts);
  } else {
    blockWidth = width;
    blockHeight = Math.min(height, await one(TAG.RowsPerStrip, height));
    offsets = await values(TAG.StripOffsets);
    byteCounts = await values(TAG.StripByteCounts);
  }
  if (!offsets || !byteCounts) throw new IndapiError('IO', 'TIFF: missing block offsets.');
  const blocksAcross = Math.ceil(width / blockWidth);
  const blocksDown = Math.ceil(height / blockHeight);
  if (offsets.length < blocksAcross * blocksDown) throw new IndapiError('IO', 'TIFF: too few block offsets.');

  const nd = await text(TAG.GdalNoData);
  const noData = nd !== null && nd.trim() !== '' ? Number(nd.trim()) : null;
  const { scale: bandScale, offset: bandOffset } = parseGdalScale(await text(TAG.GdalMetadata));

  let geo: TiffInfo['geo'] = null;
  const scale = await values(TAG.ModelPixelScale);
  const tie = await values(TAG.ModelTiepoint);
  if (scale && tie && tie.length >= 6) {
    // Tiepoint (I, J, K, X, Y, Z): raster point (I, J) maps to model (X, Y). PixelIsArea assumed (GDAL's default).
    geo = { resX: scale[0], resY: scale[1], xmin: tie[3] - tie[0] * scale[0], ymax: tie[4] + tie[1] * scale[1] };
  }
  return {
    width, height, blockWidth, blockHeight, blocksAcross, blocksDown,
    offsets: Float64Array.from(offsets), byteCounts: Float64Array.from(byteCounts),
    kind, compression, predictor, littleEndian: le, noData, geo, scale: bandScale, offset: bandOffset, hasNextIfd,
  };
}

function sampleKind(fmt: number, bps: number): SampleKind {
  if (fmt === 1 && bps === 8) return 'uint8';
  if (fmt === 1 && bps === 16) return 'uint16';
  if (fmt === 2 && bps === 16) return 'int16';
  if (fmt === 1 && bps === 32) return 'uint32';
  if (fmt === 2 && bps === 32) return 'int32';
  if (fmt === 3 && bps === 32) return 'float32';
  if (fmt === 3 && bps === 64) return 'float64';
  throw new IndapiError('IO', `TIFF: sample format ${fmt} with ${bps} bits is not supported.`);
}

export { bytesPerSample, decodeBlock, emptyBlock, type BlockArray, type BlockLayout, type Inflate, type SampleKind } from './block';
