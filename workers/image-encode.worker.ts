/**
 * Image encoding worker (the map export, src/app/map-export.ts): draws the ImageBitmap it is
 * sent on an OffscreenCanvas kept in memory (`willReadFrequently`: not a GPU canvas, so no
 * read-back) and encodes it as PNG or JPEG with `convertToBlob`, here rather than on the page's
 * main thread, where Chromium encodes `toBlob` in idle time (minutes for an A4 300-dpi image
 * while the map draws). One request a message: { id, bitmap, type, quality } in, { id, blob }
 * or { id, error } out.
 */
/// <reference lib="webworker" />

/** A request: the image (transferred; closed here) and the encoding. */
interface EncodeRequest { id: number; bitmap: ImageBitmap; type: 'image/png' | 'image/jpeg'; quality?: number }

self.onmessage = async (e: MessageEvent<EncodeRequest>) => {
  const { id, bitmap, type, quality } = e.data;
  try {
    const c = new OffscreenCanvas(bitmap.width, bitmap.height);
    const g = c.getContext('2d', { willReadFrequently: true })!;
    g.drawImage(bitmap, 0, 0);
    bitmap.close();
    const blob = await c.convertToBlob({ type, quality });
    self.postMessage({ id, blob });
  } catch (err) {
    self.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
