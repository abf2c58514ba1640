/**
 * Node factory of the engine: reads a bundle folder (default `public/data`) with file
 * handles and decompresses tiles with Node's native zlib.
 */
import { inflateSync } from 'node:zlib';
import { createEngine, type IndapiEngine } from '../core/engine';
import { fileSourceFactory, fileTextLoader } from './file-source';

/** Options of {@link createNodeEngine}. */
export interface NodeEngineOptions {
  /** Block cache bound in bytes; default 256 MB. */
  cacheBytes?: number;
}

/**
 * Creates an engine over a local bundle folder.
 * @param dataDir folder holding manifest.json, vi.csv, iso.csv, classes/, cog/
 */
export function createNodeEngine(dataDir = 'public/data', opts: NodeEngineOptions = {}): IndapiEngine {
  return createEngine({
    source: fileSourceFactory(dataDir),
    text: fileTextLoader(dataDir),
    cacheBytes: opts.cacheBytes,
    inflate: (d) => inflateSync(d),
  });
}
