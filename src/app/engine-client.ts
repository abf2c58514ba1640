/**
 * Main-thread client of the engine worker: an {@link Engine} derived from the worker's
 * per-method message map (workers/protocol/engine.ts), calling the worker through Comlink with
 * a call id, turning an AbortSignal into `cancel(id)` and typed worker failures back into
 * {@link IndapiError}s.
 */
import { proxy, wrap, type Remote } from 'comlink';
import type { CallOptions, Engine } from '../core/api';
import { IndapiError } from '../core/errors';
import { bindCalls, ENGINE_CALLS, engineOf, type EngineArgs, type EngineCall, type EngineMethod, type EngineResult, type EngineWorkerApi } from '../../workers/protocol/engine';
import { fromWireError } from '../../workers/protocol/outcome';
import type { ReadRange } from '../core/io/range-log';

let nextId = 1;

/** One engine worker call as the page saw it: method and `performance.now()` milliseconds at its start and its answer. */
export interface EngineCallTime { method: string; startMs: number; endMs: number }

/** The last {@link ENGINE_CALL_LOG_MAX} calls, oldest first (hover look-ups included). */
const callLog: EngineCallTime[] = [];
/** How many calls {@link engineCallTimes} keeps. */
export const ENGINE_CALL_LOG_MAX = 500;

/**
 * The engine worker calls of this page since `sinceMs` (`performance.now()` ms), with their times
 * in the page (message to the worker, the worker's work, the answer's transfer): the engine's own
 * time of an interaction, beside the time to the result on screen (bench/interactions.ts).
 */
export function engineCallTimes(sinceMs = 0): EngineCallTime[] {
  return callLog.filter((c) => c.startMs >= sinceMs);
}

function logCall(method: string, startMs: number): void {
  callLog.push({ method, startMs, endMs: performance.now() });
  if (callLog.length > ENGINE_CALL_LOG_MAX) callLog.splice(0, callLog.length - ENGINE_CALL_LOG_MAX);
}

/**
 * The generic call of a remote engine worker.
 * @throws IndapiError with the worker's code (ABORTED when `opts.signal` aborts it)
 */
function remoteCall(remote: Remote<EngineWorkerApi>): EngineCall {
  return async <M extends EngineMethod>(method: M, args: EngineArgs<M>, opts?: CallOptions): Promise<EngineResult<M>> => {
    const id = nextId++;
    if (opts?.signal?.aborted) throw new IndapiError('ABORTED', 'Cancelled.');
    const onAbort = () => void remote.cancel(id);
    opts?.signal?.addEventListener('abort', onAbort, { once: true });
    const t0 = performance.now();
    try {
      const out = await remote.call(id, method, args, opts?.onProgress ? proxy(opts.onProgress) : undefined);
      if (!out.ok) throw fromWireError(out.error);
      // the worker answered `method` with ENGINE_CALLS[method], typed EngineResult<M>; Comlink's
      // `Remote` type drops the call's type parameter, so it says "the result of some method"
      return out.value as EngineResult<M>;
    } finally {
      logCall(method, t0);
      opts?.signal?.removeEventListener('abort', onAbort);
    }
  };
}

/** Wraps a remote engine worker as an {@link Engine}. */
export function engineClient(remote: Remote<EngineWorkerApi>): Engine {
  return engineOf(bindCalls(remoteCall(remote)));
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
  /**
   * Bundle text files the page has read or is reading (path relative to the bundle root, and
   * its text): handed to the worker as they arrive, so that its engine does not read them again
   * (src/core/io/seeded-text.ts). A rejected text makes the worker read that file itself.
   */
  seeds?: ReadonlyArray<{ rel: string; text: Promise<string> }>;
}

/**
 * Preloads the chunks the engine worker's script imports statically (the build lists them in
 * index.html as `<script type="application/json" id="engine-preload">`, vite.config.ts) beside
 * the script itself, rather than after it has arrived: a first summary clicked at once on a slow
 * link waits one round trip less. `rel=preload as=fetch` (anonymous CORS, as a module worker
 * asks) fills the HTTP cache the worker's own requests read. No effect without the list.
 */
function preloadWorkerChunks(): void {
  const list = typeof document === 'undefined' ? null : document.getElementById('engine-preload')?.textContent;
  try {
    for (const href of (list ? JSON.parse(list) : []) as string[]) {
      const l = document.createElement('link');
      l.rel = 'preload';
      l.as = 'fetch';
      l.crossOrigin = '';
      l.href = href;
      document.head.appendChild(l);
    }
  } catch { /* a malformed list: the worker still fetches its chunks */ }
}

/**
 * Creates the worker's engine over the bundle under `dataBase` (`record`: it keeps the COG ranges
 * it reads), announcing `seeds` and handing each text over as it arrives (null when the page's
 * read failed: the worker then reads that file itself). Never rejects.
 */
export function initWorker(remote: Remote<EngineWorkerApi>, dataBase: string, record: boolean, seeds: StartEngineOptions['seeds'] = []): void {
  void remote.init(dataBase, record, seeds.map((x) => x.rel)).catch(() => undefined);
  for (const { rel, text } of seeds) void text.then((t) => remote.seed(rel, t), () => remote.seed(rel, null)).catch(() => undefined);
}

/** Starts the engine worker for the bundle under `dataBase` and returns its client. */
export function startEngine(dataBase: string, o: StartEngineOptions = {}): StartedEngine {
  const w = new Worker(new URL('../../workers/engine.worker.ts', import.meta.url), { type: 'module', name: 'engine' });
  preloadWorkerChunks();
  const remote = wrap<EngineWorkerApi>(w);
  initWorker(remote, dataBase, !!o.onRetiredReads, o.seeds);
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
  const viaWorker = remoteCall(remote);
  const call: EngineCall = (method, args, opts) => {
    if (ended && successor) return ENGINE_CALLS[method](successor(), args, opts);
    running++;
    const p = viaWorker(method, args, opts);
    p.then(() => undefined, () => undefined).finally(() => { running--; end(); });
    return p;
  };
  const retire = (next: () => Engine) => { successor = next; end(); };
  return { ...engineOf(bindCalls(call)), retire };
}
