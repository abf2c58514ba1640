/**
 * Node factory of the engine: reads a bundle folder (default `public/data`) with file
 * handles and decompresses tiles with Node's native zlib.
 */
import { inflate } from 'node:zlib';
import type { IndapiEngine } from '../core/engine';
import { createRuntime } from '../core/runtime';
import type { Inflate } from '../core/cog/tiff';
import { fileSourceFactory, fileTextLoader } from './file-source';

/** Options of {@link createNodeEngine}. */
export interface NodeEngineOptions {
  /** Block cache bound in bytes; default 256 MB. */
  cacheBytes?: number;
}

/**
 * Node's native zlib as the core's {@link Inflate}, asynchronous: the blocks inflate on libuv's
 * thread pool while the JavaScript thread decodes the blocks already inflated (on 2 cores a cold
 * whole-grid read overlaps the two; issue 26.5). With the block's expected size the output is one
 * buffer of that size (zlib's default 16 KB chunks would be joined by a copy).
 * @returns a promise rejected with zlib's Error when the stream is corrupt
 */
export const nodeInflate: Inflate = (data, expectedBytes) =>
  new Promise((resolve, reject) => {
    inflate(data, expectedBytes ? { chunkSize: Math.max(64, expectedBytes + 64) } : {}, (err, out) => (err ? reject(err) : resolve(out)));
  });

/**
 * Creates an engine over a local bundle folder: the engine of a runtime (src/core/runtime) over
 * file reads with Node's native zlib (tests, benches; the server and the export CLI use the
 * whole runtime, src/node/bundle-runtime.ts).
 * @param dataDir folder holding manifest.json, vi.csv, iso.csv, classes/, cog/
 */
export function createNodeEngine(dataDir = 'public/data', opts: NodeEngineOptions = {}): IndapiEngine {
  return createRuntime({ source: fileSourceFactory(dataDir), text: fileTextLoader(dataDir), cacheBytes: opts.cacheBytes, inflate: nodeInflate }).engine;
}
