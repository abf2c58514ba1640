/**
 * Minimal PNG encoder for RGBA images (the map's cell image embedded in the plot SVG).
 *
 * Spec: PNG (ISO/IEC 15948, W3C https://www.w3.org/TR/png/): signature, IHDR (width,
 * height, bit depth 8, colour type 6 RGBA), one IDAT with the zlib-compressed scanlines
 * (filter type 0 per line), IEND; every chunk with a CRC-32 over type and data.
 */
import { zlibSync } from 'fflate';
import { ByteWriter } from './bytes';

let crcTable: Uint32Array | undefined;

/** CRC-32 (ISO 3309, polynomial 0xEDB88320) as PNG uses it. */
export function crc32(b: Uint8Array, crc = 0xffffffff): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = crc;
  for (let i = 0; i < b.length; i++) c = crcTable[(c ^ b[i]) & 0xff] ^ (c >>> 8);
  return c >>> 0;
}

function chunk(w: ByteWriter, type: string, data: Uint8Array): void {
  const t = new Uint8Array([...type].map((c) => c.charCodeAt(0)));
  w.u32(data.length).bytes(t).bytes(data);
  const both = new Uint8Array(4 + data.length);
  both.set(t);
  both.set(data, 4);
  w.u32((crc32(both) ^ 0xffffffff) >>> 0);
}

/**
 * The PNG scanlines of rows y0 .. y0 + rows - 1 of an RGBA image: each row its filter type 0
 * (None) byte, then its width * 4 bytes.
 * @param rgba width*height*4 bytes, row-major, top row first
 */
export function pngScanlines(rgba: Uint8Array | Uint8ClampedArray, width: number, y0: number, rows: number): Uint8Array {
  const stride = width * 4 + 1;
  const raw = new Uint8Array(rows * stride);
  for (let r = 0; r < rows; r++) raw.set(rgba.subarray((y0 + r) * width * 4, (y0 + r + 1) * width * 4), r * stride + 1);
  return raw;
}

/**
 * A PNG file (8-bit RGBA, no interlace) around `idat`, the zlib stream (RFC 1950) of all its
 * scanlines ({@link pngScanlines}), compressed by any zlib (fflate here, the browser's
 * `CompressionStream('deflate')` in the map export's encoding worker).
 */
export function pngFile(width: number, height: number, idat: Uint8Array): Uint8Array {
  const w = new ByteWriter(false, idat.length + 64);
  w.bytes(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const ihdr = new ByteWriter(false, 13).u32(width).u32(height).u8(8).u8(6).u8(0).u8(0).u8(0).result();
  chunk(w, 'IHDR', ihdr);
  chunk(w, 'IDAT', idat);
  chunk(w, 'IEND', new Uint8Array(0));
  return w.result();
}

/**
 * Encodes an RGBA image as PNG.
 * @param width pixels
 * @param height pixels
 * @param rgba width*height*4 bytes, row-major, top row first
 */
export function encodePng(width: number, height: number, rgba: Uint8Array): Uint8Array {
  return pngFile(width, height, zlibSync(pngScanlines(rgba, width, 0, height), { level: 6 }));
}
