/**
 * Image encoding worker (the map export, src/app/map-export.ts): draws the ImageBitmap it is
 * sent on an OffscreenCanvas kept in memory (`willReadFrequently`: not a GPU canvas, so no
 * read-back), here rather than on the page's main thread, where Chromium encodes `toBlob` in
 * idle time (minutes for an A4 300-dpi image while the map draws). JPEG: `convertToBlob`. PNG:
 * the pixels' scanlines compressed by the browser's own zlib (`CompressionStream('deflate')`,
 * RFC 1950) into a PNG file (src/core/formats/png.ts): an A4 300-dpi map in well under a second,
 * where `convertToBlob`'s PNG encoder took 3-5 s (issue 26). One request a message:
 * { id, bitmap, type, quality } in, { id, blob } or { id, error } out.
 */
/// <reference lib="webworker" />
import { pngFile, pngScanlines } from '../src/core/formats/png';

/** A request: the image (transferred; closed here) and the encoding. */
interface EncodeRequest { id: number; bitmap: ImageBitmap; type: 'image/png' | 'image/jpeg'; quality?: number }

/** Rows per slice handed to the compressor (about 4 MB of scanlines). */
const SLICE_BYTES = 4 << 20;

/** PNG of an image's pixels (8-bit RGBA), compressed by the browser's zlib slice by slice. */
async function png(img: ImageData): Promise<Blob> {
  const { width, height, data } = img;
  const cs = new CompressionStream('deflate');
  const writer = cs.writable.getWriter();
  const zlib = new Response(cs.readable).arrayBuffer();
  const rows = Math.max(1, Math.floor(SLICE_BYTES / (width * 4 + 1)));
  for (let y = 0; y < height; y += rows) await writer.write(pngScanlines(data, width, y, Math.min(rows, height - y)) as Uint8Array<ArrayBuffer>);
  await writer.close();
  return new Blob([pngFile(width, height, new Uint8Array(await zlib)) as Uint8Array<ArrayBuffer>], { type: 'image/png' });
}

self.onmessage = async (e: MessageEvent<EncodeRequest>) => {
  const { id, bitmap, type, quality } = e.data;
  try {
    const c = new OffscreenCanvas(bitmap.width, bitmap.height);
    const g = c.getContext('2d', { willReadFrequently: true })!;
    g.drawImage(bitmap, 0, 0);
    bitmap.close();
    // (a browser without CompressionStream: Chrome < 80, Safari < 16.4, Firefox < 113 encodes with convertToBlob)
    const own = type === 'image/png' && typeof CompressionStream === 'function';
    const blob = own ? await png(g.getImageData(0, 0, c.width, c.height)) : await c.convertToBlob({ type, quality });
    self.postMessage({ id, blob });
  } catch (err) {
    self.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
