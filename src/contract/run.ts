/**
 * Running one method call, in the handler's own thread or elsewhere (the Node server's
 * worker threads, `src/node/pool.ts`): the handler gives a {@link MethodCall} (plain data
 * that can cross a thread) and gets a {@link CallOutput} back. Uses no Node built-in.
 */
import { wantsFiles } from './package-files';
import type { Engine } from '../core/api';
import { throwIfAborted } from '../core/errors';
import { checkCallLimits, checkValueLimits, DEFAULT_LIMITS, valueBytes, type CallLimits } from './limits';
import { METHOD_BY_NAME, type GenFile, type MethodResult } from './methods';
import { bindArgs, type RawArgs } from './args';
import type { RValue } from './rliteral';
import type { BodyInput } from './rds-body';
import { printValue } from './rprint';

/** A call, as plain data (structured-cloneable). */
export interface MethodCall {
  /** Method name, e.g. "indapi". */
  method: string;
  /** Bound arguments (see `bindArgs`). */
  args: Record<string, unknown>;
  /** The call as R source, for errors (`In call:`). */
  source: string;
  /** URL of the request (written into data packages). */
  requestUrl: string;
  /** Time of the call, ISO 8601. */
  now: string;
}

/** What a call produced: the method's result with its printed value, its size, and the ZIP of its files when asked for. */
export interface CallOutput extends MethodResult {
  /** The value printed as R prints it (R/.val/print, stdout). */
  print: string;
  /** Size of the value as JSON, bytes. */
  valueBytes: number;
  /** ZIP archive of the files (built once, with `zipFiles` of src/core/formats), when requested and there are files. */
  zip?: Uint8Array;
}

/**
 * Runs calls away from the thread that answers requests (the Node server's pool). The
 * handler sends every method not in {@link MethodRunner.inline} to it.
 */
export interface MethodRunner {
  /**
   * Runs a call; aborting `signal` stops it (the queued call is dropped, the running one
   * stops at its next check); `onProgress` hears the engine's progress (done of total,
   * features or layers), when the runner can pass it on.
   * @throws IndapiError as the method throws them; {@link BusyError} when the queue is full
   */
  run(call: MethodCall, signal: AbortSignal, onProgress?: (done: number, total: number) => void): Promise<CallOutput>;
  /** Methods cheap enough to run in the handler's thread (default: category, describe). */
  inline?: ReadonlySet<string>;
  /**
   * Reads a large request body (at least `LARGE_BODY_BYTES`, rds-body.ts) away from the
   * handler's thread, as `parseRequestBody` does; absent: bodies are read in the handler's thread.
   * @throws BodyError, IndapiError UNPARSABLE as `parseRequestBody`; {@link BusyError} when the queue is full
   */
  parseBody?(input: BodyInput, signal: AbortSignal): Promise<ParsedBody>;
}

/**
 * Checks a call before any work: the call's limits on the raw arguments (unless `rawChecked`:
 * already checked where the body was parsed), the method's signature ({@link bindArgs}), the
 * limits on `domains` once bound, and the method's typed boundary. Runs in the handler's
 * thread, and on a pool thread right after a large body is parsed (so a refused 10 MB
 * argument never crosses back).
 * @returns the bound arguments by R name
 * @throws IndapiError BAD_ARGUMENT, UNUSED_ARGUMENT, TOO_LARGE naming the argument, `detail.call` the call
 */
export function checkCall(name: string, raw: RawArgs, callText: string, limits: CallLimits, rawChecked = false): Record<string, unknown> {
  if (!rawChecked) checkCallLimits(raw, callText, limits);
  const m = METHOD_BY_NAME.get(name)!;
  const bound: Record<string, unknown> = bindArgs(name, m.args, raw);
  if ('domains' in bound && bound.domains !== undefined) checkCallLimits([['domains', bound.domains as RValue]], callText, limits);
  // the typed boundary (values read further, e.g. catchment's `xy`): a 400 before any work or queueing
  m.typed(bound);
  return bound;
}

/** Methods that only read the catalog: answered in the handler's thread, never queued. */
export const CHEAP_METHODS: ReadonlySet<string> = new Set(['category', 'describe']);

/** A body read by {@link MethodRunner.parseBody}: the arguments, and whether {@link checkCall} already passed on them. */
export interface ParsedBody {
  raw: RawArgs;
  /** True when the body's `check` ran where it was parsed (its call limits need no second pass). */
  checked: boolean;
}

/** The runner's queue is full: answered 503 with `Retry-After`. */
export class BusyError extends Error {
  constructor(
    /** Seconds after which to try again. */
    readonly retryAfterS: number,
    message = 'The server is busy: too many calls are waiting. Try again in a few seconds.',
  ) {
    super(message);
    this.name = 'BusyError';
  }
}

/** What {@link executeCall} runs on. */
export interface CallEnv {
  engine: Engine;
  genFile?: GenFile;
}

/** File formats (a `format` that is not a table) write files; their value is a list of names, never per-cell. */
function isPerCell(a: Record<string, unknown>): boolean {
  // the format as the registry reads it (" DataTable" is the table), as the methods do
  return a.collapse === false && !wantsFiles(a.format);
}

/**
 * Runs a call: the method, then the checks on its value (cells of a per-cell answer,
 * bytes), its printed form and, with `zip`, the archive of its files. `onProgress` hears
 * the engine's progress (done of total: features, layers, countries).
 * @throws IndapiError as the method throws them, BAD_ARGUMENT when the value is over a limit, ABORTED
 */
export async function executeCall(
  env: CallEnv,
  call: MethodCall,
  signal: AbortSignal,
  opts: { zip?: boolean; limits?: CallLimits; onProgress?: (done: number, total: number) => void } = {},
): Promise<CallOutput> {
  const m = METHOD_BY_NAME.get(call.method);
  if (!m) throw new Error(`Unknown method ${call.method}`);
  const now = new Date(call.now);
  const result = await m.run({ engine: env.engine, genFile: env.genFile, signal, onProgress: opts.onProgress, requestUrl: call.requestUrl, now, request: call.args }, m.typed(call.args));
  throwIfAborted(signal);
  const bytes = valueBytes(result.value ?? null);
  checkValueLimits(result.value, call.source, isPerCell(call.args), bytes, opts.limits ?? DEFAULT_LIMITS);
  const out: CallOutput = { ...result, print: printValue(result.value), valueBytes: bytes };
  if (opts.zip && result.files?.length) {
    // Loaded on demand: the service worker loads the writers only when a file is asked for.
    const { zipFiles } = await import('../core/formats');
    out.zip = await zipFiles(result.files, { signal }, now);
  }
  return out;
}
