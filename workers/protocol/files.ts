/**
 * Messages of the files worker (workers/files.worker.ts), shared by the worker and the
 * download panel (src/app/panels/DownloadPanel.tsx). Types only.
 */
import type { Geometry } from 'geojson';
import type { MethodName } from '../../src/contract/methods';
import type { EngineMethod } from './engine';
import type { Outcome } from './outcome';

/** What to build. */
export interface BuildRequest {
  /**
   * Contract method of the query (indapi for getLayer / areas, similar, catchment; classify with
   * `result`, an upload's table): its spec's package kind builds the files (src/contract/methods).
   */
  method: MethodName;
  /** Query arguments (var, iso3, by, wkt, exact, x, ...). */
  args: Record<string, unknown>;
  /** File format (any alias). */
  format: string;
  /** URL the same request would be sent to, for the README. */
  requestUrl?: string;
  /**
   * The engine's result of this query computed already (the engine worker's result on screen:
   * a summary table, a ranking, a catchment; an upload's table): written as is, so that query
   * reads no COG and runs no Dijkstra again here (formats mapping cells of the main query
   * still read them). Of the type the method's package kind takes (src/core/package/kinds.ts).
   */
  result?: unknown;
  /** A table long by year (a `year` column) written long (default, as the API) or wide: one column per value and year (src/core/package/wide.ts). */
  layout?: 'long' | 'wide';
  /** The shapes of the table's `feature` numbers (an uploaded file's polygons, EPSG:4326): the GeoPackage's geometries. */
  shapes?: Geometry[];
}

/** A built package. */
export interface BuildResult {
  /** The ZIP archive. */
  zip: Uint8Array;
  /** Its file name. */
  zipName: string;
  /** The files inside it, with size in bytes. */
  files: Array<{ name: string; mediaType: string; bytes: number }>;
  /** Graphics drawn (SVG text and the PNG rendered from it). */
  graphics: Array<{ svg: string; png: Uint8Array }>;
  /**
   * Where the worker's time went, milliseconds (`performance.now()` in the worker): the package
   * (the query and the writers, graphics' rasterising by the page included) and the ZIP.
   */
  timings: { packageMs: number; zipMs: number };
}

/** Outcome: value or typed error (its `code` survives the worker boundary). */
export type BuildOutcome = Outcome<BuildResult>;

/**
 * The page's engine (the engine worker's client) as the files worker queries it: one call of an
 * engine method with its protocol arguments (protocol/engine.ts), progress done of total; the
 * outcome carries a typed error. With it the files worker runs no engine of its own: a tab has
 * one engine (and its one block cache), the engine worker's.
 */
export type EngineQuery = (method: EngineMethod, args: unknown, onProgress?: (done: number, total: number) => void) => Promise<Outcome<unknown>>;

/** The files worker's Comlink API. */
export interface FilesWorkerApi {
  /** Sets the bundle root URL (ending in "/"). */
  init(base: string): void;
  /**
   * Builds the files and the ZIP of a request, reporting progress in percent; `rasterize`
   * turns an SVG into PNG bytes (done by the page, which has the fonts); `query`: the page's
   * engine, which runs what the package still needs (without it, the worker's own engine does).
   */
  build(id: number, req: BuildRequest, rasterize: (svg: string) => Promise<Uint8Array>, onProgress?: (done: number, total: number) => void, query?: EngineQuery): Promise<BuildOutcome>;
  /** Aborts build `id`. */
  cancel(id: number): void;
  /** Bundle root in use. */
  base(): string;
}
