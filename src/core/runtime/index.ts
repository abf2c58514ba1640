/**
 * The one factory of a realm's runtime: the service worker, the app's engine and files
 * workers, the Node server and its pool, the export CLI and the benches each build their engine,
 * their file writers and the bundle version here, over the bundle I/O they pass in (fetch with
 * the service worker's caches, fetch, file reads), so the wiring is written once. Nothing is
 * kept in module globals: the graphics of a runtime (the SVG-to-PNG renderer and the outlines
 * drawn on plots and written into GeoPackages) travel with its writers' input.
 */
import type { Inflate } from '../cog/tiff';
import { openBundle, type Bundle } from '../bundle';
import { createEngine, type IndapiEngine } from '../engine';
import type { Basemap, GenFileInput, GenFileResult, GraphicsDefaults, Rasterizer } from '../formats';
import type { CallOptions } from '../api';
import type { SourceFactory, TextLoader } from '../io/source';

/** What a runtime is built over. */
export interface RuntimeOptions {
  /** Opens byte ranges of the bundle's COGs, paths relative to the bundle root. */
  source: SourceFactory;
  /** Reads the bundle's text files (vi.csv, manifest.json, classes/, basemap/...), paths relative to the root. */
  text: TextLoader;
  /** A reader already open over the same bundle (src/core/bundle/open.ts) to share; default one opened here over `text` and `source`. */
  bundle?: Bundle;
  /** The engine's block cache bound, bytes (decoded samples); default the engine's (256 MiB). */
  cacheBytes?: number;
  /** zlib decompressor of DEFLATE tiles (Node passes its native zlib); default fflate. */
  inflate?: Inflate;
  /** SVG-to-PNG renderer of plot and hist (`createResvgRasterizer`); none: those formats fail with INTERNAL unless a call passes its own. */
  rasterize?: Rasterizer;
}

/** The file writers of a runtime: the core's `genFile` with the runtime's graphics and bundle version. */
export type RuntimeWriter = (input: GenFileInput, opts?: CallOptions & { pal?: string }) => Promise<GenFileResult>;

/** A realm's runtime: one bundle reader, one engine, the writers and the version, built by {@link createRuntime}. */
export interface Runtime {
  /** The bundle reader the engine and the writers share. */
  bundle: Bundle;
  /** The zonal statistics engine over the bundle. */
  engine: IndapiEngine;
  /**
   * The file writers (`genFile` of src/core/formats) with the runtime's graphics (renderer,
   * country, admin-1 and admin-2 outlines read from the bundle when a plot or GeoPackage needs
   * them) and the bundle's version written as the package version. A call's own `basemap`,
   * `admin1`, `admin2`, `rasterize` or `version` win.
   */
  genFile: RuntimeWriter;
  /** The bundle's version (manifest.json `version`), undefined when the manifest has none or cannot be read. */
  version(signal?: AbortSignal): Promise<string | undefined>;
  /** The runtime's graphics: what its writers draw with. */
  graphics: GraphicsDefaults;
}

/**
 * Builds a runtime over a bundle's I/O. Reads nothing until first used.
 * @param o the bundle I/O, an optional shared reader, the engine's cache bound and inflate, the renderer
 * @returns the bundle reader, engine, writers and version of the realm
 */
export function createRuntime(o: RuntimeOptions): Runtime {
  const bundle = o.bundle ?? openBundle({ text: o.text, source: o.source });
  const engine = createEngine({ source: o.source, text: o.text, bundle, cacheBytes: o.cacheBytes, inflate: o.inflate });
  const version = (signal?: AbortSignal) => bundle.version(signal).catch(() => undefined);
  // outlines only when a writer asks (admin-2: ingested bundles with ADM2 units)
  const graphics: GraphicsDefaults = {
    rasterize: o.rasterize,
    basemap: () => bundle.outlines<Basemap>('countries'),
    admin1: () => bundle.outlines<Basemap>('admin1'),
    admin2: () => bundle.outlines<Basemap>('admin2'),
  };
  // the writers are imported on first use: a realm that only queries (the app's engine worker)
  // does not load them (and their palettes) before its first answer
  const write: RuntimeWriter = async (input, opts) =>
    (await import('../formats')).genFile({ ...input, graphics: { ...graphics, ...input.graphics }, version: input.version ?? (await version(opts?.signal)) }, opts);
  return { bundle, engine, genFile: write, version, graphics };
}
