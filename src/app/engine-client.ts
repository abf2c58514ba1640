/**
 * Main-thread client of the engine worker: implements {@link Engine} by calling the
 * worker through Comlink with a call id, turning an AbortSignal into `cancel(id)` and
 * typed worker failures back into {@link IndapiError}s.
 */
import { proxy, wrap, type Remote } from 'comlink';
import type { CallOptions, Engine } from '../core/api';
import { IndapiError, type ErrorCode } from '../core/errors';
import type { EngineWorkerApi } from '../../workers/protocol/engine';
import type { ReadRange } from '../core/io/range-log';

let nextId = 1;

/** Wraps a remote engine worker as an {@link Engine}. */
export function engineClient(remote: Remote<EngineWorkerApi>): Engine {
  async function call<T>(method: keyof Engine, args: unknown, opts?: CallOptions): Promise<T> {
    const id = nextId++;
    if (opts?.signal?.aborted) throw new IndapiError('ABORTED', 'Cancelled.');
    const onAbort = () => void remote.cancel(id);
    opts?.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const out = await remote.call(id, method, args, opts?.onProgress ? proxy(opts.onProgress) : undefined);
      if (!out.ok) throw new IndapiError(out.error.code as ErrorCode, out.error.message, out.error.detail);
      return out.value as T;
    } finally {
      opts?.signal?.removeEventListener('abort', onAbort);
    }
  }
  const m = <K extends keyof Engine>(k: K) => ((a: any, o?: CallOptions) => call(k, a, o)) as any;
  return {
    catalog: (o?: CallOptions) => call('catalog', undefined, o),
    catalogCsv: (o?: CallOptions) => call('catalogCsv', undefined, o),
    category: m('category'), describe: m('describe'), getLayer: m('getLayer'), getLayerTable: m('getLayerTable'),
    getLayerCells: m('getLayerCells'), getLayerWKT: m('getLayerWKT'), classify: m('classify'), similar: m('similar'),
    catchment: m('catchment'),
  };
}

/** An engine running in its own worker. */
export type StartedEngine = Engine & {
  /**
   * Ends the worker once the calls running now have finished; calls made after that go to
   * `successor()` (e.g. a worker started after the service worker took control).
   */
  retire(successor: () => Engine): void;
};

/** Options of {@link startEngine}. */
export interface StartEngineOptions {
  /**
   * Record the COG ranges the worker reads and hand them over when it is retired (a worker
   * started while the service worker did not control the page; see range-log.ts).
   */
  onRetiredReads?: (ranges: ReadRange[]) => void;
}

/** Starts the engine worker for the bundle under `dataBase` and returns its client. */
export function startEngine(dataBase: string, o: StartEngineOptions = {}): StartedEngine {
  const w = new Worker(new URL('../../workers/engine.worker.ts', import.meta.url), { type: 'module', name: 'engine' });
  const remote = wrap<EngineWorkerApi>(w);
  void remote.init(dataBase, !!o.onRetiredReads);
  let successor: (() => Engine) | null = null;
  let ended = false;
  let running = 0;
  const end = () => {
    if (!successor || ended || running !== 0) return;
    ended = true;
    if (!o.onRetiredReads) return w.terminate();
    const hand = o.onRetiredReads;
    remote.reads().then(hand, () => hand([])).finally(() => w.terminate());
  };
  const client = engineClient(remote);
  const out = { retire: (next: () => Engine) => { successor = next; end(); } } as StartedEngine;
  for (const k of Object.keys(client) as Array<keyof Engine>) {
    (out as any)[k] = (...a: unknown[]) => {
      if (ended) return (successor!() as any)[k](...a);
      running++;
      const p = (client as any)[k](...a) as Promise<unknown>;
      p.then(() => undefined, () => undefined).finally(() => { running--; end(); });
      return p;
    };
  }
  return out;
}
