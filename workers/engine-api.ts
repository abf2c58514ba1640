/**
 * The engine worker's API (protocol/engine.ts) over an engine made by `create`: dispatch
 * through the per-method message map, cancellation by call id, progress callbacks, typed
 * errors. Kept apart from engine.worker.ts (which exposes it) so tests can run it over a
 * MessageChannel.
 */
import type { CallOptions, Engine } from '../src/core/api';
import { IndapiError } from '../src/core/errors';
import { ENGINE_CALLS, isEngineMethod, type EngineArgs, type EngineMethod, type EngineResult, type EngineWorkerApi } from './protocol/engine';
import type { Outcome } from './protocol/outcome';
import { CallRegistry } from './calls';
import { RangeLog, type ReadRange } from '../src/core/io/range-log';
import { TextSeeds } from '../src/core/io/seeded-text';

/**
 * Makes the engine over the bundle at `dataBase`, reading with `doFetch` (default: fetch) and
 * its text files first from `seeds` (the page's copies, src/core/io/seeded-text.ts).
 */
export type EngineMaker = (dataBase: string, doFetch?: typeof fetch, seeds?: TextSeeds) => Engine;

/** The worker's API over engines made by `create`. */
export function createEngineWorkerApi(create: EngineMaker): EngineWorkerApi {
  let engine: Engine | null = null;
  let log: RangeLog | null = null;
  const seeds = new TextSeeds();
  const calls = new CallRegistry();
  return {
    /**
     * Creates the engine over the bundle at `dataBase` (URL ending in "/"). `record`: keep the
     * COG ranges read (a worker the service worker does not control, see src/core/io/range-log.ts).
     * `seeded`: bundle paths whose text the page will hand over with {@link EngineWorkerApi.seed}.
     */
    init(dataBase: string, record = false, seeded: string[] = []) {
      log = record ? new RangeLog((u) => u.startsWith(dataBase) && /\.tiff?$/i.test(new URL(u).pathname)) : null;
      for (const rel of seeded) seeds.expect(rel);
      engine = create(dataBase, log ? log.wrap((...a) => fetch(...a)) : undefined, seeds);
    },
    /** The page's text of bundle file `rel`, or null when it could not read it (the engine then reads it itself). */
    seed(rel: string, text: string | null) { seeds.offer(rel, text); },
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
}
