/**
 * Typed failures of the core. Every error the engine, catalog, WKT parser or writers
 * throw on purpose is an {@link IndapiError} with a stable `code`; the contract layer maps
 * codes to HTTP statuses in one table (`src/contract/status.ts`). Validation findings that
 * are not failures are returned as result objects instead.
 */

/** Stable failure codes. */
export type ErrorCode =
  | 'UNKNOWN_CODE' // var/by code not in the catalog
  | 'UNKNOWN_ISO3' // iso3 not a country or region of the bundle
  | 'BAD_ARGUMENT' // wrong type or value of an argument
  | 'UNUSED_ARGUMENT' // argument the method does not define
  | 'UNPARSABLE' // request value that cannot be parsed
  | 'BAD_BREAKS' // by-breaks not increasing numbers
  | 'UNKNOWN_CLASS' // class filter names classes that do not exist
  | 'BAD_WKT' // WKT does not parse
  | 'OUTSIDE_GRID' // geometry outside the bundle's grid
  | 'TOO_LARGE' // too many vertices / cells / bytes
  | 'NOT_FOUND' // a unit, session, file or method that does not exist
  | 'NO_MATCH' // a pattern matched nothing
  | 'BAD_FORMAT' // unknown output format
  | 'EMPTY_SELECTION' // a query that selects no cells where cells are needed
  | 'ABORTED' // the caller aborted
  | 'IO' // a read failed
  | 'OFFLINE' // a bundle file is needed but the device is offline and it is not stored on it
  | 'BAD_BUNDLE' // the data bundle at the configured location is missing, partial, fails sha256, or its host lacks range requests / CORS
  | 'BUNDLE_CHANGED' // a bundle file changed while being read (its ETag differs from the one its cached header came with): retry
  | 'INTERNAL';

/** A failure with a stable code and a message meant for the person who sent the request. */
export class IndapiError extends Error {
  /** Stable code, see {@link ErrorCode}. */
  readonly code: ErrorCode;
  /** Extra machine-readable detail (offending values, positions). */
  readonly detail?: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, detail?: Record<string, unknown>) {
    super(message);
    this.name = 'IndapiError';
    this.code = code;
    this.detail = detail;
  }
}

/** True when `e` is an {@link IndapiError} (works across realms by duck typing). */
export function isIndapiError(e: unknown): e is IndapiError {
  return typeof e === 'object' && e !== null && (e as any).name === 'IndapiError' && typeof (e as any).code === 'string';
}

/**
 * Throws an ABORTED {@link IndapiError} when the signal is aborted.
 * @throws IndapiError code ABORTED
 */
export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new IndapiError('ABORTED', 'The request was aborted.');
}

/**
 * `p`, or ABORTED as soon as `signal` aborts (the work behind `p` goes on, e.g. a read shared
 * with other callers: only this wait ends).
 * @throws IndapiError ABORTED (at once when `signal` is already aborted)
 */
export function untilAborted<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  throwIfAborted(signal);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new IndapiError('ABORTED', 'The request was aborted.'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
