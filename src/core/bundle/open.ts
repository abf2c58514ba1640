/**
 * The bundle reader: one object per bundle root through which the engine, the Node server, the
 * page, the service worker and the workers read the bundle's files (manifest, catalog, countries,
 * class tables, outlines, COGs). Pure over injected loaders (as PMTiles' `Source`): a browser
 * passes `fetch` (src/core/io/fetch-source.ts), Node file reads (src/node/file-source.ts).
 * Each file is read once and kept (a failed read is not kept: the next call reads again); calls
 * made while a read runs share it, and a caller's abort ends only its own wait. COGs are read by
 * range through `cog(code)`, never whole.
 */
import { IndapiError, isIndapiError, throwIfAborted, untilAborted } from '../errors';
import type { GridDef } from '../grid';
import type { RangeSource, SourceFactory, TextLoader } from '../io/source';
import type { ClassEntry, VarRecord } from '../types';
import { classTablePath, layerPath, manifestGrid, NATIONAL_SERIES_PATH, outlinePath, parseManifest, SERIES_CATALOG_PATH, type BundleManifest, type OutlineLevel } from './layout';
import { parseNationalSeries, type NationalSeries } from './series';
import { parseClassTable, parseIso, parseVi, type IsoRow } from './tables';

/** How a reader reaches the bundle's files (paths relative to the bundle root, `/`-separated). */
export interface BundleLoaders {
  /**
   * Reads a whole file as text.
   * @throws IndapiError IO (or OFFLINE, BAD_BUNDLE, NOT_FOUND as the loader knows) when it cannot, ABORTED on abort
   */
  text: TextLoader;
  /** Opens byte ranges of a file (the COGs); readers that read no COG leave it out. */
  source?: SourceFactory;
}

/** The files of one bundle, read on demand (see the module comment). */
export interface Bundle {
  /**
   * manifest.json, parsed.
   * @throws IndapiError from the loader when it cannot be read, IO when it is not a manifest
   */
  manifest(signal?: AbortSignal): Promise<BundleManifest>;
  /**
   * manifest.json, or null when the file cannot be read (an early bundle without one).
   * @throws IndapiError IO when it is there but not a manifest, ABORTED on abort
   */
  optionalManifest(signal?: AbortSignal): Promise<BundleManifest | null>;
  /** The bundle's grid (manifest.json `grid`, else SSA_GRID). @throws as {@link manifest} */
  grid(signal?: AbortSignal): Promise<GridDef>;
  /** The manifest's version. @throws as {@link manifest} */
  version(signal?: AbortSignal): Promise<string>;
  /** Paths the manifest lists, or null when it cannot be read or lists none. Never rejects. */
  files(signal?: AbortSignal): Promise<Set<string> | null>;
  /** vi.csv as read (the `catalogCsv` answer). @throws IndapiError from the loader */
  catalogText(signal?: AbortSignal): Promise<string>;
  /**
   * A small file's text as read (`manifest.json`, `vi.csv`, `iso.csv`, `classes/<code>.csv`,
   * `series/vi.csv`), read once and shared with the parsed answers above (so a caller that
   * hands these texts on, e.g. the page to the engine worker, causes no second read). Not for
   * the outlines, kept parsed only.
   * @throws IndapiError from the loader
   */
  text(rel: string, signal?: AbortSignal): Promise<string>;
  /** vi.csv's records ({@link parseVi}). @throws IndapiError from the loader, IO when malformed */
  catalog(signal?: AbortSignal): Promise<VarRecord[]>;
  /** iso.csv's countries and regions ({@link parseIso}). @throws IndapiError from the loader, IO */
  iso(signal?: AbortSignal): Promise<IsoRow[]>;
  /** A layer's class table at `classes/<code>.csv`. @throws IndapiError from the loader, IO */
  classTable(code: string, signal?: AbortSignal): Promise<ClassEntry[]>;
  /** The class table at a path a catalog record names (`classTable` field). @throws as {@link classTable} */
  classTableAt(path: string, signal?: AbortSignal): Promise<ClassEntry[]>;
  /**
   * Outlines of a level (`basemap/<countries|admin1|admin2>.geojson`) as parsed GeoJSON, or
   * undefined when the manifest lists files but not this one (no failed request) or it cannot
   * be read. Rejects only with ABORTED.
   */
  outlines<T = unknown>(level: OutlineLevel, signal?: AbortSignal): Promise<T | undefined>;
  /** Byte ranges of a layer's COG (`cog/<code>.tif`). @throws IndapiError INTERNAL when the loaders have no `source` */
  cog(code: string): RangeSource;
  /**
   * The one way to a variable's values: its COG's path and byte ranges, of `year` for a
   * gridded series (`cog/<code>_<YYYY>.tif`, src/core/bundle/layout.ts `layerPath`).
   */
  layer(code: string, opts?: { year?: number }): LayerRef;
  /**
   * The national series (`series/national.csv` and `series/vi.csv`), or null when the bundle
   * has none (the manifest does not list them: bundles made before series).
   * @throws IndapiError IO when listed but unreadable or malformed, ABORTED
   */
  series(signal?: AbortSignal): Promise<BundleSeries | null>;
  /**
   * The national series' catalog records (`series/vi.csv`) alone, without their values: [] when
   * the manifest does not list them (what the app's catalog adds to vi.csv's records).
   * @throws IndapiError IO when listed but unreadable or malformed, ABORTED
   */
  seriesCatalog(signal?: AbortSignal): Promise<VarRecord[]>;
}

/** One variable's values in a bundle (see {@link Bundle.layer}). */
export interface LayerRef {
  /** Path relative to the bundle root (`cog/<code>.tif`, `cog/<code>_<YYYY>.tif` for a year): the key a COG store reads by. */
  path: string;
  /**
   * Byte ranges of the COG.
   * @throws IndapiError INTERNAL when the loaders have no `source`
   */
  source(): RangeSource;
}

/** The national series of a bundle: their values and their catalog records. */
export interface BundleSeries {
  /** `series/national.csv`, parsed. */
  table: NationalSeries;
  /** `series/vi.csv`'s records (vi.csv's columns plus `series`). */
  records: VarRecord[];
}

/** Options of {@link openBundle}. */
export interface OpenBundleOptions {
  /** Aborts every read made for the bundle (each call may pass its own signal too). */
  signal?: AbortSignal;
}

/**
 * Opens a bundle over its loaders; nothing is read until asked.
 * @param loaders how files are read (see {@link BundleLoaders})
 * @param opts `signal`: aborts every read of this bundle
 */
export function openBundle(loaders: BundleLoaders, opts: OpenBundleOptions = {}): Bundle {
  const kept = new Map<string, Promise<unknown>>();
  /**
   * Reads and parses a file once (the read shared by every caller, aborted only by the bundle's
   * signal); a failure is forgotten so the next call tries again; a caller's `signal` ends its wait.
   */
  const once = <T>(key: string, read: () => Promise<T>, signal?: AbortSignal): Promise<T> => {
    throwIfAborted(signal);
    let p = kept.get(key) as Promise<T> | undefined;
    if (!p) {
      p = read();
      kept.set(key, p);
      p.catch(() => kept.delete(key));
    }
    return untilAborted(p, signal);
  };
  const read = (rel: string) => loaders.text(rel, opts.signal);
  /** A file's text, read once ('#text' keys: apart from the parsed answers). */
  const text = (rel: string, signal?: AbortSignal) => once(`${rel}#text`, () => read(rel), signal);
  const manifestText = (signal?: AbortSignal) => text('manifest.json', signal);
  const manifest = (signal?: AbortSignal) => once('manifest.json', async () => parseManifest(await manifestText()), signal);
  const optionalManifest = async (signal?: AbortSignal) => {
    try {
      await manifestText(signal);
    } catch (e) {
      if (isIndapiError(e) && e.code === 'ABORTED') throw e;
      return null;
    }
    return manifest(signal);
  };
  const classTableAt = (path: string, signal?: AbortSignal) => once(path, async () => parseClassTable(await text(path), path), signal);
  const b: Bundle = {
    manifest,
    optionalManifest,
    grid: async (signal) => manifestGrid(await manifest(signal)),
    version: async (signal) => (await manifest(signal)).version,
    files: (signal) => manifest(signal).then((m) => (m.files.length ? new Set(m.files.map((f) => String(f.path))) : null), () => null),
    catalogText: (signal) => text('vi.csv', signal),
    text,
    catalog: (signal) => once('vi.csv#records', async () => parseVi(await b.catalogText()), signal),
    iso: (signal) => once('iso.csv', async () => parseIso(await text('iso.csv')), signal),
    classTable: (code, signal) => classTableAt(classTablePath(code), signal),
    classTableAt,
    outlines: async <T>(level: OutlineLevel, signal?: AbortSignal) => {
      const path = outlinePath(level);
      const listed = await b.files(signal);
      if (listed && !listed.has(path)) return undefined;
      try {
        return await once(path, async () => JSON.parse(await read(path)) as T, signal);
      } catch (e) {
        if (isIndapiError(e) && e.code === 'ABORTED') throw e;
        return undefined;
      }
    },
    cog: (code) => b.layer(code).source(),
    layer: (code, o = {}) => {
      const path = layerPath(code, o);
      return {
        path,
        source: () => {
          if (!loaders.source) throw new IndapiError('INTERNAL', 'This bundle reader was opened without a byte-range source.');
          return loaders.source(path);
        },
      };
    },
    series: async (signal) => {
      const listed = await b.files(signal);
      if (!listed || !listed.has(NATIONAL_SERIES_PATH) || !listed.has(SERIES_CATALOG_PATH)) return null;
      return once('series', async () => {
        const [t, records] = await Promise.all([read(NATIONAL_SERIES_PATH), b.seriesCatalog()]);
        return { table: parseNationalSeries(t), records };
      }, signal);
    },
    seriesCatalog: async (signal) => {
      const listed = await b.files(signal);
      if (!listed || !listed.has(NATIONAL_SERIES_PATH) || !listed.has(SERIES_CATALOG_PATH)) return [];
      return once(SERIES_CATALOG_PATH, async () => parseVi(await text(SERIES_CATALOG_PATH)), signal);
    },
  };
  return b;
}
