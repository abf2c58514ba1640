/**
 * Engine worker (Comlink): a thin wrapper exposing the core {@link Engine} with
 * cancellation by call id (AbortSignal is not transferable) and progress callbacks.
 * Failures come back as `{ ok: false, error: { code, message, detail } }` so the typed
 * error code survives the worker boundary.
 */
import { expose } from 'comlink';
import type { CallOptions, Engine } from '../src/core/api';
import { isIndapiError } from '../src/core/errors';
import { createWorkerEngine } from './engine-factory';
import type { CallOutcome, EngineWorkerApi } from './protocol/engine';
import { RangeLog, type ReadRange } from '../src/core/io/range-log';


let engine: Engine | null = null;
let log: RangeLog | null = null;
const ctrls = new Map<number, AbortController>();

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
  /** Calls `engine[method](args, { signal, onProgress })` under id `id`. */
  async call(id: number, method: keyof Engine, args: unknown, onProgress?: CallOptions['onProgress']): Promise<CallOutcome<unknown>> {
    const ac = new AbortController();
    ctrls.set(id, ac);
    try {
      if (!engine) throw new Error('engine not initialised');
      const fn = (engine as any)[method] as (...a: unknown[]) => Promise<unknown>;
      const opts: CallOptions = { signal: ac.signal, onProgress: onProgress ? (d, t) => void onProgress(d, t) : undefined };
      const value = method === 'catalog' || method === 'catalogCsv' ? await fn.call(engine, opts) : await fn.call(engine, args, opts);
      return { ok: true, value };
    } catch (e) {
      if (isIndapiError(e)) return { ok: false, error: { code: e.code, message: e.message, detail: e.detail ? JSON.parse(JSON.stringify(e.detail)) : undefined } };
      if (ac.signal.aborted) return { ok: false, error: { code: 'ABORTED', message: 'Cancelled.' } };
      return { ok: false, error: { code: 'INTERNAL', message: (e as Error)?.message ?? String(e) } };
    } finally {
      ctrls.delete(id);
    }
  },
  /** Aborts call `id` (no-op when it has finished). */
  cancel(id: number) { ctrls.get(id)?.abort(); },
};

expose(api);
