/**
 * A small GeoTIFF writer: one band, strips, DEFLATE (Adobe, code 8, a zlib stream)
 * compressed with a horizontal predictor, GeoKeys for EPSG:4326 and the GDAL_NODATA tag.
 *
 * Specs:
 * - TIFF 6.0 (Adobe, 1992), https://www.itu.int/itudoc/itu-t/com16/tiff-fx/docs/tiff6.pdf:
 *   little-endian header `II*\0` + offset of IFD0; IFD entries sorted by tag
 *   (uint16 tag, uint16 type, uint32 count, uint32 value-or-offset); Predictor 2
 *   (section 14, horizontal differencing); ColorMap (tag 320, 3 x 2^bits SHORTs, R then G
 *   then B, 0..65535) with PhotometricInterpretation 3 (palette).
 * - Adobe TIFF Technical Note 3 (floating-point predictor 3): per row, the bytes of the
 *   samples are split into planes, most significant byte first, then byte-differenced.
 * - Adobe PageMaker 6.0 TIFF Technical Notes: Compression 8 = Deflate (zlib, RFC 1950).
 * - OGC GeoTIFF 1.1 (OGC 19-008r4), http://docs.opengeospatial.org/is/19-008r4/19-008r4.html:
 *   ModelPixelScaleTag 33550, ModelTiepointTag 33922, GeoKeyDirectoryTag 34735 with
 *   GTModelTypeGeoKey (1024) = 2 geographic, GTRasterTypeGeoKey (1025) = 1 PixelIsArea,
 *   GeographicTypeGeoKey (2048) = 4326, GeogAngularUnitsGeoKey (2054) = 9102 degree.
 * - GDAL's TIFFTAG_GDAL_NODATA (42113), ASCII: https://gdal.org/drivers/raster/gtiff.html
 */
import { zlibSync } from 'fflate';
import { ByteWriter, utf8 } from './bytes';
import { predictRows } from './predictor';

/** Sample types the writers support (Int16, Int32 and Float64: the COG writer, ./cog.ts, for the table ingest). */
export type TiffSampleType = 'Float32' | 'Float64' | 'Byte' | 'UInt16' | 'Int16' | 'Int32';

/** Input of {@link writeGeoTiff}. */
export interface GeoTiffInput {
  /** Columns. */
  width: number;
  /** Rows. */
  height: number;
  /** Samples, row-major, north row first; length width*height. */
  data: Float32Array | Uint8Array | Uint16Array;
  /** Sample type; must match `data`. */
  sampleType: TiffSampleType;
  /** West edge of the raster, degrees. */
  xmin: number;
  /** North edge of the raster, degrees. */
  ymax: number;
  /** Cell size, degrees (square cells). */
  cellSize: number;
  /** No-data value, written to GDAL_NODATA. */
  noData: number;
  /** Palette for Byte rasters: up to 256 colours `#rrggbb`, index = pixel value. */
  palette?: string[];
  /** 1 none, 2 horizontal differencing, 3 floating point (default: 3 for Float32, 2 otherwise). */
  predictor?: 1 | 2 | 3;
  /** false: write uncompressed (for size comparisons). Default true. */
  compress?: boolean;
  /** Rows per strip (default: about 64 KiB of raw samples per strip). */
  rowsPerStrip?: number;
  /** Free text for the ImageDescription tag (270). */
  description?: string;
}

/** TIFF field type codes used by the writers (TIFF 6.0 section 2). */
export const TIFF_TYPE = { ASCII: 2, SHORT: 3, LONG: 4, DOUBLE: 12 } as const;
const { SHORT, LONG, ASCII, DOUBLE } = TIFF_TYPE;

/** One TIFF IFD entry: tag, field type (TIFF 6.0 section 2: 2 ASCII, 3 SHORT, 4 LONG, 12 DOUBLE) and values. */
export interface TiffEntry {
  /** Tag number. */
  tag: number;
  /** Field type code. */
  type: number;
  /** Values (numbers) or the bytes of an ASCII value, NUL included. */
  values: number[] | Uint8Array;
}
type Entry = TiffEntry;

/** Bytes per sample of a sample type (Float64 8, Float32 and Int32 4, UInt16 and Int16 2, Byte 1). */
export function bytesPerSample(t: TiffSampleType): number {
  return t === 'Float64' ? 8 : t === 'Float32' || t === 'Int32' ? 4 : t === 'UInt16' || t === 'Int16' ? 2 : 1;
}

/** TIFF SampleFormat (tag 339) of a sample type: 1 unsigned integer, 2 signed integer, 3 IEEE float (TIFF 6.0 section 19). */
export function sampleFormat(t: TiffSampleType): 1 | 2 | 3 {
  return t === 'Float32' || t === 'Float64' ? 3 : t === 'Int16' || t === 'Int32' ? 2 : 1;
}

/**
 * The georeferencing and no-data entries of a full-resolution image: ModelPixelScaleTag 33550,
 * ModelTiepointTag 33922 (upper-left corner), GeoKeyDirectoryTag 34735 (geographic, PixelIsArea,
 * EPSG:4326, degrees; OGC 19-008r4) and GDAL_NODATA 42113.
 * @param g west edge `xmin` and north edge `ymax` in degrees, square `cellSize` in degrees, `noData`
 */
export function geoEntries(g: { xmin: number; ymax: number; cellSize: number; noData: number }): TiffEntry[] {
  return [
    { tag: 33550, type: DOUBLE, values: [g.cellSize, g.cellSize, 0] },
    { tag: 33922, type: DOUBLE, values: [0, 0, 0, g.xmin, g.ymax, 0] },
    { tag: 34735, type: SHORT, values: [1, 1, 0, 4, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, 4326, 2054, 0, 1, 9102] },
    { tag: 42113, type: ASCII, values: asciiz(Number.isNaN(g.noData) ? 'nan' : String(g.noData)) },
  ];
}

/**
 * Applies the TIFF predictor to one row of raw little-endian sample bytes ({@link predictRows}).
 * @param row the row's bytes (width * bps)
 * @param width samples in the row
 * @param bps bytes per sample
 * @param predictor 1, 2 or 3
 */
export function applyPredictor(row: Uint8Array, width: number, bps: number, predictor: 1 | 2 | 3): Uint8Array {
  if (predictor === 1) return row;
  const out = new Uint8Array(row.length);
  predictRows(row, out, 1, width, bps, predictor);
  return out;
}

/** Parses `#rrggbb` to [r, g, b] in 0..255 (grey for anything else). */
export function parseHex(c: string | undefined): [number, number, number] {
  const m = /^#?([0-9a-f]{6})$/i.exec((c ?? '').trim());
  if (!m) return [190, 190, 190];
  const n = parseInt(m[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/**
 * Writes a single-band GeoTIFF (EPSG:4326, PixelIsArea).
 * @param input raster, georeferencing and options
 * @returns the TIFF file bytes
 */
export function writeGeoTiff(input: GeoTiffInput): Uint8Array {
  const { width, height, sampleType } = input;
  const bps = bytesPerSample(sampleType);
  const compress = input.compress !== false;
  const predictor = compress ? (input.predictor ?? (sampleFormat(sampleType) === 3 ? 3 : 2)) : 1;
  const rowsPerStrip = Math.max(1, Math.min(height, input.rowsPerStrip ?? Math.ceil(65536 / Math.max(1, width * bps))));
  const nStrips = Math.ceil(height / rowsPerStrip);
  const raw = new Uint8Array(input.data.buffer, input.data.byteOffset, input.data.byteLength);
  // Host is assumed little-endian for typed arrays (true for every supported platform); check.
  if (bps > 1 && new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('big-endian host not supported');

  const strips: Uint8Array[] = [];
  for (let s = 0; s < nStrips; s++) {
    const r0 = s * rowsPerStrip;
    const r1 = Math.min(height, r0 + rowsPerStrip);
    const rowBytes = width * bps;
    const chunk = new Uint8Array((r1 - r0) * rowBytes);
    for (let r = r0; r < r1; r++) {
      const row = raw.slice(r * rowBytes, (r + 1) * rowBytes);
      chunk.set(applyPredictor(row, width, bps, predictor), (r - r0) * rowBytes);
    }
    strips.push(compress ? zlibSync(chunk, { level: 6 }) : chunk);
  }

  const entries: Entry[] = [
    { tag: 256, type: LONG, values: [width] },
    { tag: 257, type: LONG, values: [height] },
    { tag: 258, type: SHORT, values: [bps * 8] },
    { tag: 259, type: SHORT, values: [compress ? 8 : 1] },
    { tag: 262, type: SHORT, values: [input.palette && sampleType === 'Byte' ? 3 : 1] },
    { tag: 273, type: LONG, values: new Array(nStrips).fill(0) },
    { tag: 277, type: SHORT, values: [1] },
    { tag: 278, type: LONG, values: [rowsPerStrip] },
    { tag: 279, type: LONG, values: strips.map((s) => s.length) },
    { tag: 284, type: SHORT, values: [1] },
    { tag: 339, type: SHORT, values: [sampleFormat(sampleType)] },
    ...geoEntries(input),
  ];
  if (input.description) entries.push({ tag: 270, type: ASCII, values: asciiz(input.description) });
  if (predictor !== 1) entries.push({ tag: 317, type: SHORT, values: [predictor] });
  if (input.palette && sampleType === 'Byte') {
    const map = new Array(3 * 256).fill(0);
    input.palette.slice(0, 256).forEach((c, i) => {
      const [r, g, b] = parseHex(c);
      map[i] = r * 257;
      map[256 + i] = g * 257;
      map[512 + i] = b * 257;
    });
    entries.push({ tag: 320, type: SHORT, values: map });
  }
  entries.sort((a, b) => a.tag - b.tag);

  return serialiseTiff([{ entries, blocks: strips, offsetsTag: 273 }]);
}

/** One image (IFD) of a TIFF file for {@link serialiseTiff}: its entries and its compressed strips or tiles. */
export interface TiffImage {
  /** IFD entries, sorted by tag; the offsets entry's values are filled in. */
  entries: TiffEntry[];
  /** Strips or tiles, in the order of the offsets entry. */
  blocks: Uint8Array[];
  /** The entry that receives the blocks' offsets: StripOffsets 273 or TileOffsets 324. */
  offsetsTag: 273 | 324;
}

/** Layout options of {@link serialiseTiff} (GDAL's COG layout, https://gdal.org/drivers/raster/cog.html). */
export interface TiffLayout {
  /** Bytes right after the 8-byte header (GDAL's structural metadata, the "ghost area"). */
  ghost?: Uint8Array;
  /** COG layout: blocks of the last image first, each with a 4-byte size leader and its last 4 bytes repeated as trailer. */
  cog?: boolean;
}

/**
 * The one TIFF file layout of the project (TIFF 6.0, little-endian): header `II*\0`, the
 * optional ghost area, then each IFD followed by its out-of-line values (word-aligned), then
 * the blocks. Plain GeoTIFFs keep the blocks in IFD order; COGs (`layout.cog`) put the
 * smallest overview's blocks first and frame each block with a leader and trailer, as GDAL's
 * COG driver does. Used by {@link writeGeoTiff} and `writeCog` (./cog.ts).
 * @param images IFDs in file order (full resolution first)
 * @returns the file bytes
 * @throws Error on an internal layout inconsistency (a bug)
 */
export function serialiseTiff(images: TiffImage[], layout: TiffLayout = {}): Uint8Array {
  const framing = layout.cog ? 8 : 0;
  let pos = 8 + (layout.ghost?.length ?? 0);
  pos += pos % 2;
  const ifdPos: number[] = [];
  const extOf = new Map<Entry, number>();
  for (const im of images) {
    ifdPos.push(pos);
    pos += 2 + im.entries.length * 12 + 4;
    for (const e of im.entries) {
      const size = typeSize(e.type) * e.values.length;
      if (size > 4) {
        extOf.set(e, pos);
        pos += size + (size % 2);
      }
    }
  }
  const order = images.map((_, i) => i);
  if (layout.cog) order.reverse();
  for (const i of order) {
    const im = images[i];
    const offs = im.entries.find((e) => e.tag === im.offsetsTag);
    if (!offs) throw new Error(`TIFF layout error (no offsets tag ${im.offsetsTag})`);
    offs.values = im.blocks.map((b) => {
      const o = pos + framing / 2;
      pos += b.length + framing;
      return o;
    });
  }

  const w = new ByteWriter(true, pos + 16);
  w.u8(0x49).u8(0x49).u16(42).u32(ifdPos[0]);
  if (layout.ghost) w.bytes(layout.ghost);
  if (w.length % 2) w.u8(0);
  images.forEach((im, i) => {
    if (w.length !== ifdPos[i]) throw new Error('TIFF layout error (IFD)');
    w.u16(im.entries.length);
    for (const e of im.entries) {
      w.u16(e.tag).u16(e.type).u32(e.values.length);
      const ext = extOf.get(e);
      if (ext !== undefined) w.u32(ext);
      else {
        const start = w.length;
        for (const v of e.values) writeValue(w, e.type, v);
        w.zeros(4 - (w.length - start));
      }
    }
    w.u32(i + 1 < images.length ? ifdPos[i + 1] : 0);
    for (const e of im.entries) {
      const ext = extOf.get(e);
      if (ext === undefined) continue;
      if (w.length !== ext) throw new Error('TIFF layout error (values)');
      for (const v of e.values) writeValue(w, e.type, v);
      if (w.length % 2) w.u8(0);
    }
  });
  for (const i of order) {
    for (const b of images[i].blocks) {
      if (layout.cog) w.u32(b.length);
      w.bytes(b);
      if (layout.cog) w.bytes(b.subarray(b.length - 4));
    }
  }
  return w.result();
}

/** Bytes of one value of a TIFF field type (SHORT 2, LONG 4, DOUBLE 8, ASCII/BYTE 1). */
function typeSize(t: number): number {
  return t === SHORT ? 2 : t === LONG ? 4 : t === DOUBLE ? 8 : 1;
}

function writeValue(w: ByteWriter, type: number, v: number): void {
  if (type === SHORT) w.u16(v);
  else if (type === LONG) w.u32(v);
  else if (type === DOUBLE) w.f64(v);
  else w.u8(v);
}

/** A TIFF ASCII value: the UTF-8 bytes of `s` and a terminating NUL. */
export function asciiz(s: string): Uint8Array {
  const b = utf8(s);
  const out = new Uint8Array(b.length + 1);
  out.set(b);
  return out;
}

/**
 * ESRI world file (`.tfw`) text: six lines, pixel x size, rotation 0, rotation 0,
 * negative pixel y size, x and y of the centre of the upper-left pixel.
 * Spec: https://en.wikipedia.org/wiki/World_file (ESRI "World files for raster datasets").
 */
export function worldFile(xmin: number, ymax: number, cellSize: number): string {
  const f = (x: number) => x.toFixed(10);
  return [f(cellSize), f(0), f(0), f(-cellSize), f(xmin + cellSize / 2), f(ymax - cellSize / 2)].join('\n') + '\n';
}
