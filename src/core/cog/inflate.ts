/**
 * Default zlib (RFC 1950) decompressor of the core: fflate, pure JavaScript, so it runs in
 * browsers, workers and Node alike. Node adapters may inject the native `zlib.inflateSync`.
 */
import { unzlibSync } from 'fflate';

/**
 * Decompresses one zlib stream (TIFF compression 8 / 32946).
 * @throws Error when the stream is corrupt
 */
export function inflateZlib(data: Uint8Array): Uint8Array {
  return unzlibSync(data);
}
