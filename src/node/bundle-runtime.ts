/**
 * The Node runtime of the contract over a data bundle (a folder or an http(s) URL): the
 * engine and the file writers (PNG graphics with resvg-wasm and DejaVu Sans, outlines from
 * the bundle). Used by the server's own thread and by each worker of its pool
 * (`pool-worker.ts`).
 */
import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { openBundle, type Bundle, type BundleLoaders } from '../core/bundle';
import { IndapiError, isIndapiError } from '../core/errors';
import { createResvgRasterizer, type Rasterizer } from '../core/formats';
import { createRuntime, type Runtime } from '../core/runtime';
import { fetchSourceFactory, fetchTextLoader } from '../core/io/fetch-source';
import type { SourceFactory, TextLoader } from '../core/io/source';
import { fileSourceFactory, fileTextLoader } from './file-source';
import { nodeInflate } from './engine';

/** True when a DATA_DIR value is an http(s) URL rather than a folder. */
export function isDataUrl(s: string): boolean {
  return /^https?:\/\//i.test(s);
}

/**
 * The loaders of the bundle at a folder (file reads) or an http(s) URL (fetch with ranges,
 * checking that a COG's ETag does not change while it is read).
 */
function bundleLoaders(dataDir: string): Required<BundleLoaders> {
  return isDataUrl(dataDir)
    ? { source: fetchSourceFactory(dataDir, { checkEtag: true }), text: fetchTextLoader(dataDir) }
    : { source: fileSourceFactory(dataDir), text: fileTextLoader(dataDir) };
}

/** The reader of the bundle at a folder or a URL (src/core/bundle/open.ts), over {@link bundleLoaders}. */
export function nodeBundle(dataDir: string): Bundle {
  return openBundle(bundleLoaders(dataDir));
}

/** "missing" when an IO failure means the file is not there (ENOENT, HTTP 404). */
function isMissing(e: unknown): boolean {
  return isIndapiError(e) && e.code === 'IO' && /ENOENT|HTTP 404/.test(e.message);
}

/** Wraps a source factory and a text loader so a file listed but absent reports a partial bundle (BAD_BUNDLE). */
function guardPartial(where: string, source: SourceFactory, text: TextLoader): { source: SourceFactory; text: TextLoader } {
  const partial = (rel: string) => new IndapiError('BAD_BUNDLE', `The data bundle at ${where} is partial: ${rel} is missing.`);
  return {
    source: (rel) => {
      const s = source(rel);
      return {
        key: s.key,
        getBytes: (o, n, signal) => s.getBytes(o, n, signal).catch((e) => { throw isMissing(e) ? partial(rel) : e; }),
        size: s.size ? (signal) => s.size!(signal).catch((e) => { throw isMissing(e) ? partial(rel) : e; }) : undefined,
        reset: s.reset ? () => s.reset!() : undefined,
      };
    },
    text: (rel, signal) => text(rel, signal).catch((e) => { throw isMissing(e) ? partial(rel) : e; }),
  };
}

/**
 * The Node runtime over the bundle at a folder or a URL (src/core/runtime: one bundle reader,
 * the engine with Node's native zlib, the writers with PNG rendering by resvg-wasm and DejaVu
 * Sans and the bundle's outlines), after checking that its manifest is there. A file the
 * manifest lists but the bundle lacks reports a partial bundle (BAD_BUNDLE).
 * @param dataDir bundle folder or http(s) URL
 * @param cacheBytes the engine's block cache bound, bytes (default 256 MiB)
 * @throws IndapiError BAD_BUNDLE when there is no readable manifest.json
 */
export async function openNodeRuntime(dataDir: string, cacheBytes = 256 * 1024 * 1024): Promise<Runtime> {
  const l = bundleLoaders(dataDir);
  const io = guardPartial(dataDir, l.source, l.text);
  try {
    await openBundle(l).manifest(); // unguarded: a missing manifest is no bundle, not a partial one
  } catch (e) {
    throw new IndapiError('BAD_BUNDLE', `There is no data bundle at ${dataDir} (manifest.json: ${(e as Error).message}). Set DATA_DIR to a bundle folder or URL.`);
  }
  return createRuntime({ ...io, cacheBytes, inflate: nodeInflate, rasterize: nodeRasterizer() });
}

/** PNG rendering in Node: resvg-wasm with DejaVu Sans (loaded on the first PNG). */
export function nodeRasterizer(): Rasterizer {
  const require = createRequire(import.meta.url);
  return createResvgRasterizer({
    wasm: () => fsp.readFile(require.resolve('@resvg/resvg-wasm/index_bg.wasm')),
    fonts: async () => {
      const found = await Promise.all(FONT_FILES.map((f) => fsp.readFile(f).catch(() => undefined)));
      return found.flatMap((b) => (b ? [new Uint8Array(b)] : []));
    },
  });
}

/** The Node runtime over a bundle folder or URL without the manifest check (tests, benches, export): see {@link openNodeRuntime}. */
export function nodeRuntime(dataDir: string, cacheBytes?: number): Runtime {
  return createRuntime({ ...bundleLoaders(dataDir), cacheBytes, inflate: nodeInflate, rasterize: nodeRasterizer() });
}

/**
 * Fonts for PNG graphics: DejaVu Sans from the npm package `dejavu-fonts-ttf` (a
 * dependency, so a fresh `npm ci` has it), else Debian's fonts-dejavu-core.
 */
const FONT_FILES = (() => {
  const names = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'];
  try {
    const dir = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    const found = names.map((n) => path.join(dir, n)).filter((f) => existsSync(f));
    if (found.length) return found;
  } catch { /* package missing: fall back to Debian's fonts */ }
  return names.map((n) => `/usr/share/fonts/truetype/dejavu/${n}`);
})();

/** The bundle's name and version at its location, or "none". */
export async function bundleVersion(dataDir: string): Promise<string> {
  try {
    const m = await nodeBundle(dataDir).manifest();
    return `${m.name || 'bundle'} ${m.version || '?'} at ${dataDir}`;
  } catch {
    return 'none';
  }
}

