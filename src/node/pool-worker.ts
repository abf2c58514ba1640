/**
 * One worker of the method pool (`pool.ts`): holds its own engine (with its own block
 * cache) and file writers over the bundle named in `workerData.dataDir`, and runs calls
 * sent by the pool. The engine's progress goes back over the task's port (`{ progress:
 * [done, total] }`, each whole percent). A call is aborted cooperatively: the pool posts on the task's port and
 * the engine stops at its next check, so the worker (and its warm cache) survives.
 */
import type { MessagePort } from 'node:worker_threads';
import { workerData } from 'node:worker_threads';
import { BodyError, type RawArgs } from '../contract/args';
import { parseRequestBody, type BodyInput } from '../contract/rds-body';
import { deparseCall } from '../contract/deparse';
import { checkCall, executeCall, type CallEnv, type CallOutput, type MethodCall } from '../contract/run';
import { packArgs, type PackedArgs } from './pack-args';
import { isIndapiError } from '../core/errors';
import { openNodeRuntime } from './bundle-runtime';

/** What the pool sends: the call, a port for "abort", and a flag the worker sets (to 1) when it takes the call. */
export interface PoolTask {
  call: MethodCall;
  port: MessagePort;
  started: SharedArrayBuffer;
}

/** An error as plain data: its name, code (IndapiError) or status (BodyError), message and detail. */
export interface PoolError {
  name: string;
  code?: string;
  /** HTTP status of a BodyError. */
  status?: number;
  message: string;
  detail?: Record<string, unknown>;
}

/** What the worker answers: the output, or the error as plain data. */
export type PoolAnswer = { ok: true; out: CallOutput } | { ok: false; error: PoolError };

/** What the pool sends to read a large request body (`parseRequestBody`) on this thread. */
export interface ParseTask {
  parse: BodyInput;
}

/** What the worker answers to a {@link ParseTask}: the arguments, or the error as plain data. */
export type ParseAnswer = { ok: true; args: PackedArgs; checked: boolean } | { ok: false; error: PoolError };

/** A thrown value as plain data (so that its code or status survives the thread boundary). */
function plainError(e: unknown): PoolError {
  const err = e as Error & { code?: string; detail?: Record<string, unknown> };
  return {
    name: err?.name ?? 'Error',
    code: isIndapiError(e) ? e.code : undefined,
    status: e instanceof BodyError ? e.status : undefined,
    message: err?.message ?? String(e),
    detail: isIndapiError(e) ? e.detail : undefined,
  };
}

/** What the pool passes as `workerData`. */
export interface PoolWorkerData {
  /** Bundle folder or URL. */
  dataDir: string;
  /** Block cache of this worker's engine, bytes. */
  cacheBytes: number;
}

let env: Promise<CallEnv> | undefined;

function runtime(): Promise<CallEnv> {
  const d = workerData as PoolWorkerData;
  env ??= openNodeRuntime(d.dataDir, d.cacheBytes).then((rt) => ({ engine: rt.engine, genFile: rt.genFile }));
  return env.catch((e) => {
    env = undefined;
    throw e;
  });
}

/** Posts the engine's progress to the pool as `{ progress: [done, total] }`, at most every 1 % of the work. */
function progressPoster(port: MessagePort): (done: number, total: number) => void {
  let last = -1;
  return (done, total) => {
    const p = total > 0 ? Math.floor((done / total) * 100) : 0;
    if (p === last) return;
    last = p;
    port.postMessage({ progress: [done, total] });
  };
}

/** Runs one call, or reads one body; never throws (errors are answered as data, so their code survives the thread boundary). */
export default async function runTask(task: PoolTask | ParseTask): Promise<PoolAnswer | ParseAnswer> {
  if ('parse' in task) {
    try {
      const raw: RawArgs = parseRequestBody(task.parse);
      const check = task.parse.check;
      // refused here, a 10 MB argument never crosses back to the thread answering requests
      if (check) checkCall(check.method, raw, deparseCall(check.method, raw), check.limits);
      return { ok: true, args: packArgs(raw), checked: !!check };
    } catch (e) {
      return { ok: false, error: plainError(e) };
    }
  }
  const ac = new AbortController();
  task.port.on('message', () => ac.abort());
  Atomics.store(new Int32Array(task.started), 0, 1);
  try {
    return { ok: true, out: await executeCall(await runtime(), task.call, ac.signal, { zip: true, onProgress: progressPoster(task.port) }) };
  } catch (e) {
    return { ok: false, error: plainError(e) };
  } finally {
    task.port.close();
  }
}
