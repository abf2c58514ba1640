/**
 * Injected I/O interfaces of the core, after PMTiles' `Source`/`Cache`. Browser adapters
 * (fetch with Range headers, Cache Storage) and Node adapters (file handles) implement
 * them outside the core.
 */

/** Reads byte ranges of one file (a COG, a CSV). */
export interface RangeSource {
  /** Stable key of the file, e.g. its URL or path; used as a cache key. */
  readonly key: string;
  /**
   * Reads `length` bytes starting at `offset`. May return fewer bytes at end of file.
   * @throws IndapiError code IO on failure, ABORTED when `signal` aborts
   */
  getBytes(offset: number, length: number, signal?: AbortSignal): Promise<ArrayBuffer>;
  /** Total size in bytes, when known without a read. */
  size?(signal?: AbortSignal): Promise<number>;
  /**
   * Forgets what the source remembers of the file's version (its ETag), so that the next
   * read opens the file afresh. Called by the COG store after a BUNDLE_CHANGED failure.
   */
  reset?(): void;
}

/** Opens a {@link RangeSource} for a path relative to the bundle root (`public/data/`). */
export type SourceFactory = (relativePath: string) => RangeSource;

/** Reads a whole text file relative to the bundle root (vi.csv, classes/*.csv, iso.csv). */
export type TextLoader = (relativePath: string, signal?: AbortSignal) => Promise<string>;
