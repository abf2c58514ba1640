/**
 * The method pool of the Node server: worker threads (piscina, a well-kept pool of
 * `worker_threads`) that run the calls reading the grid, so that the event loop stays free
 * for cheap calls, listings, docs and session reads. Each worker keeps its own engine and
 * block cache (`pool-worker.ts`). The queue is bounded: past `maxQueue` waiting calls a
 * call is refused at once with {@link BusyError} (answered 503 with `Retry-After`).
 *
 * The engine's progress comes back over the task's port (for jobs' `status`).
 *
 * Aborting a call (the client went away, the method timeout passed): a queued call is
 * dropped from the queue; a running one is told over its port and stops at the engine's
 * next check, so the worker and its cache live on.
 */
import os from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { BodyError } from '../contract/args';
import type { BodyInput } from '../contract/rds-body';
import { BusyError, CHEAP_METHODS, type CallOutput, type MethodCall, type MethodRunner, type ParsedBody } from '../contract/run';
import { unpackArgs } from './pack-args';
import { IndapiError, type ErrorCode } from '../core/errors';
import type { ParseAnswer, ParseTask, PoolAnswer, PoolError, PoolTask, PoolWorkerData } from './pool-worker';

/** Options of {@link createMethodPool}. */
export interface MethodPoolOptions {
  /** Bundle folder or URL, read by each worker's engine. */
  dataDir: string;
  /** Worker threads (default: the cores, `os.availableParallelism()`). */
  threads?: number;
  /** Most calls waiting for a worker (default 64); past it calls answer 503. */
  maxQueue?: number;
  /** Block cache of each worker's engine, bytes (default 192 MiB). */
  cacheBytes?: number;
  /** Seconds sent in `Retry-After` when the queue is full (default 5). */
  retryAfterS?: number;
  /**
   * Niceness added to the worker threads (Linux; piscina's `niceIncrement` via @napi-rs/nice;
   * default 5): the event loop, answering cheap calls, gets the CPU first when the cores are busy.
   */
  nice?: number;
  /**
   * Largest V8 heap of each worker, MiB (`resourceLimits.maxOldGenerationSizeMb`; default:
   * Node's own). A worker past it is replaced (its block cache is lost) and its call or body
   * answers 503 with `Retry-After`; this bounds the RSS the pool can take.
   */
  heapMB?: number;
  /** Worker entry (tests); default `pool-worker.mjs` beside this file. */
  workerFile?: string | URL;
  /** Extra `workerData` (tests). */
  workerData?: Record<string, unknown>;
}

/** A {@link MethodRunner} on worker threads, with its shutdown. */
export interface MethodPool extends MethodRunner {
  /** Calls running or queued. */
  pending(): number;
  /** Stops the workers (running calls are dropped). */
  close(): Promise<void>;
}

/** Rebuilds an error answered by a worker. */
function revive(e: PoolError): Error {
  if (e.status !== undefined) return new BodyError(e.status, e.message);
  if (e.code) return new IndapiError(e.code as ErrorCode, e.message, e.detail);
  return new Error(e.message);
}

/** Creates the pool; workers start at once (and each loads its engine on its first call). */
export function createMethodPool(o: MethodPoolOptions): MethodPool {
  const threads = Math.max(1, o.threads ?? os.availableParallelism());
  const data: PoolWorkerData & Record<string, unknown> = { ...o.workerData, dataDir: o.dataDir, cacheBytes: o.cacheBytes ?? 192 * 1024 * 1024 };
  const pool = new Piscina({
    filename: String(o.workerFile ?? new URL('./pool-worker.mjs', import.meta.url)),
    minThreads: threads,
    maxThreads: threads,
    maxQueue: Math.max(0, o.maxQueue ?? 64) || 1,
    idleTimeout: Infinity,
    niceIncrement: process.platform === 'linux' ? Math.max(0, Math.floor(o.nice ?? 5)) : 0,
    workerData: data,
    ...(o.heapMB ? { resourceLimits: { maxOldGenerationSizeMb: o.heapMB } } : {}),
  });
  const retryAfterS = o.retryAfterS ?? 5;
  const maxQueue = Math.max(0, o.maxQueue ?? 64);
  let pending = 0;

  /** Runs a task on the pool, bounded by the queue, dropped from the queue when `signal` aborts. */
  async function submit<T>(task: object, transfer: unknown[], signal: AbortSignal, dequeue: AbortController): Promise<T> {
    if (signal.aborted) throw new IndapiError('ABORTED', 'The request was aborted.');
    // piscina's own maxQueue does not count tasks that carry an AbortSignal: bound them here.
    if (pool.queueSize >= maxQueue && pending >= threads) throw new BusyError(retryAfterS);
    pending++;
    try {
      return (await pool.run(task, { transferList: transfer as never, signal: dequeue.signal })) as T;
    } catch (e) {
      if (e instanceof Error && e.message === 'Task queue is at limit') throw new BusyError(retryAfterS);
      if (e instanceof Error && e.name === 'AbortError') throw new IndapiError('ABORTED', 'The request was aborted.');
      // a worker past its heap limit (heapMB) is replaced: the work was too large for now
      if ((e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw new BusyError(retryAfterS, 'The server ran out of memory for this request (its worker heap limit). Try again later or send less.');
      throw e;
    } finally {
      pending--;
    }
  }

  async function run(call: MethodCall, signal: AbortSignal, onProgress?: (done: number, total: number) => void): Promise<CallOutput> {
    const { port1, port2 } = new MessageChannel();
    if (onProgress) port1.on('message', (m: { progress?: [number, number] }) => { if (m?.progress) onProgress(m.progress[0], m.progress[1]); });
    // Set by the worker, synchronously, when it takes the call: then an abort goes over the port.
    const started = new Int32Array(new SharedArrayBuffer(4));
    const dequeue = new AbortController();
    const onAbort = () => {
      if (Atomics.load(started, 0) === 1) port1.postMessage('abort');
      else dequeue.abort();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const task: PoolTask = { call, port: port2, started: started.buffer as SharedArrayBuffer };
      const answer = await submit<PoolAnswer>(task, [port2], signal, dequeue);
      if (!answer.ok) throw revive(answer.error);
      return answer.out;
    } finally {
      signal.removeEventListener('abort', onAbort);
      port1.close();
    }
  }

  /** Reads a body on a worker (the bytes are moved there, not copied twice); a queued read is dropped on abort. */
  async function parseBody(input: BodyInput, signal: AbortSignal): Promise<ParsedBody> {
    const b = input.bytes;
    const bytes = b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer ? b : new Uint8Array(b); // a copy (a Buffer of a shared slab cannot move)
    const dequeue = new AbortController();
    const onAbort = () => dequeue.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const task: ParseTask = { parse: { ...input, bytes } };
      const answer = await submit<ParseAnswer>(task, [bytes.buffer], signal, dequeue);
      if (!answer.ok) throw revive(answer.error);
      return { raw: unpackArgs(answer.args), checked: answer.checked };
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  return {
    run,
    parseBody,
    inline: CHEAP_METHODS,
    pending: () => pending,
    close: () => pool.destroy(),
  };
}
