/**
 * Messages of the engine worker (workers/engine.worker.ts), shared by the worker and the
 * page (src/app/engine-client.ts): the Comlink API as a plain interface, with no code, so
 * importing it pulls in nothing of the worker.
 */
import type { CallOptions, Engine } from '../../src/core/api';
import type { ReadRange } from '../../src/core/io/range-log';

/** Outcome of a call: value or typed error (the error's `code` survives the worker boundary). */
export type CallOutcome<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string; detail?: Record<string, unknown> } };

/** The engine worker's Comlink API. */
export interface EngineWorkerApi {
  /**
   * Creates the engine over the bundle at `dataBase` (URL ending in "/"). `record`: keep the
   * COG ranges read (a worker the service worker does not control, see src/core/io/range-log.ts).
   */
  init(dataBase: string, record?: boolean): void;
  /** The COG ranges read so far when recording (merged), else none. */
  reads(): ReadRange[];
  /**
   * Calls `engine[method](args, { signal, onProgress })` under id `id`; a failure comes back
   * as `{ ok: false, error }` (code ABORTED when cancelled, INTERNAL when untyped).
   */
  call(id: number, method: keyof Engine, args: unknown, onProgress?: CallOptions['onProgress']): Promise<CallOutcome<unknown>>;
  /** Aborts call `id` (no-op when it has finished). */
  cancel(id: number): void;
}
