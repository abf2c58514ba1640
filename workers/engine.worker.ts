/**
 * Engine worker (Comlink): a thin wrapper exposing the core {@link Engine} through the
 * per-method message map of protocol/engine.ts, with cancellation by call id (AbortSignal is
 * not transferable) and progress callbacks. Failures come back as
 * `{ ok: false, error: { code, message, detail } }` so the typed error code survives the
 * worker boundary.
 */
import { expose } from 'comlink';
import type { CallOptions, Engine } from '../src/core/api';
import { IndapiError } from '../src/core/errors';
import { createWorkerEngine } from './engine-factory';
import { ENGINE_CALLS, isEngineMethod, type EngineArgs, type EngineMethod, type EngineResult, type EngineWorkerApi } from './protocol/engine';
import type { Outcome } from './protocol/outcome';
import { CallRegistry } from './calls';
import { RangeLog, type ReadRange } from '../src/core/io/range-log';

let engine: Engine | null = null;
let log: RangeLog | null = null;
const calls = new CallRegistry();

const api: EngineWorkerApi = {
  /**
   * Creates the engine over the bundle at `dataBase` (URL ending in "/"). `record`: keep the
   * COG ranges read (a worker the service worker does not control, see src/core/io/range-log.ts).
   */
  init(dataBase: string, record = false) {
    log = record ? new RangeLog((u) => u.startsWith(dataBase) && /\.tiff?$/i.test(new URL(u).pathname)) : null;
    engine = createWorkerEngine(dataBase, log ? log.wrap((...a) => fetch(...a)) : undefined);
  },
  /** The COG ranges read so far when recording (merged), else none. */
  reads(): ReadRange[] { return log?.take() ?? []; },
  /** Calls `method` with `args` and `{ signal, onProgress }` under id `id`. */
  call<M extends EngineMethod>(id: number, method: M, args: EngineArgs<M>, onProgress?: CallOptions['onProgress']): Promise<Outcome<EngineResult<M>>> {
    return calls.run(id, (signal) => {
      if (!engine) throw new IndapiError('INTERNAL', 'engine not initialised');
      if (!isEngineMethod(method)) throw new IndapiError('NOT_FOUND', `No engine method ${String(method)}.`);
      return ENGINE_CALLS[method](engine, args, { signal, onProgress: onProgress ? (d, t) => void onProgress(d, t) : undefined });
    });
  },
  /** Aborts call `id` (no-op when it has finished). */
  cancel(id: number) { calls.cancel(id); },
};

expose(api);
