/**
 * Messages of the engine worker (workers/engine.worker.ts), shared by the worker and the page
 * (src/app/engine-client.ts), as a per-method message map derived from the core's
 * {@link Engine} interface (as maplibre's `actor_messages.ts`): a method's arguments and result
 * here are its arguments and result in `src/core/api/index.ts`, so a change there reaches the worker
 * and the page through the compiler. The worker dispatches and the page builds its client from
 * {@link ENGINE_CALLS}, the one run-time list of the methods (types vanish at run time), which
 * `tsc` checks against `Engine`: a method missing or extra, or a wrong argument or result
 * type, fails the type check.
 */
import type { CallOptions, Engine } from '../../src/core/api';
import { IndapiError } from '../../src/core/errors';
import type { ReadRange } from '../../src/core/io/range-log';
import type { Outcome } from './outcome';

/** A method of the engine. */
export type EngineMethod = keyof Engine;
type EngineFn<M extends EngineMethod> = NonNullable<Engine[M]>;

/**
 * Arguments of method `M`: its first parameter; `undefined` for a method that takes only call
 * options (`catalog`, `catalogCsv`). Distributes over a union of methods.
 */
export type EngineArgs<M extends EngineMethod> = M extends EngineMethod
  ? Parameters<EngineFn<M>> extends [infer A, (CallOptions | undefined)?] ? A : undefined
  : never;

/** Result of method `M` (what its promise resolves to). */
export type EngineResult<M extends EngineMethod> = Awaited<ReturnType<EngineFn<M>>>;

/** The message map: for each engine method, the arguments the page sends and the result the worker answers. */
export type EngineMessages = { [M in EngineMethod]: { args: EngineArgs<M>; result: EngineResult<M> } };

/** The engine in the protocol's one calling convention: every method takes (arguments, options). */
export type EngineCalls = { [M in EngineMethod]: (args: EngineArgs<M>, opts?: CallOptions) => Promise<EngineResult<M>> };

/** One call of any method, typed by the method. */
export type EngineCall = <M extends EngineMethod>(method: M, args: EngineArgs<M>, opts?: CallOptions) => Promise<EngineResult<M>>;

/** How each method is invoked on an engine with the protocol's arguments. */
export type EngineInvokers = { [M in EngineMethod]: (engine: Engine, args: EngineArgs<M>, opts?: CallOptions) => Promise<EngineResult<M>> };

/**
 * Every engine method, invoked with the protocol's arguments: the worker's dispatch, and the
 * list of methods the page's client has. Adding a method to `Engine` adds one line here (the
 * type check asks for it).
 */
export const ENGINE_CALLS: EngineInvokers = {
  catalog: (e, _a, o) => e.catalog(o),
  catalogCsv: (e, _a, o) => e.catalogCsv(o),
  category: (e, a, o) => e.category(a, o),
  describe: (e, a, o) => e.describe(a, o),
  getLayer: (e, a, o) => e.getLayer(a, o),
  getLayerTable: (e, a, o) => e.getLayerTable(a, o),
  getLayerCells: (e, a, o) => e.getLayerCells(a, o),
  getLayerWKT: (e, a, o) => e.getLayerWKT(a, o),
  classify: (e, a, o) => e.classify(a, o),
  similar: (e, a, o) => e.similar(a, o),
  catchment: (e, a, o) => (e.catchment ? e.catchment(a, o) : Promise.reject(new IndapiError('NOT_FOUND', 'This engine has no catchment method.'))),
};

/** True when `m` names an engine method (a message from elsewhere may name anything). */
export function isEngineMethod(m: string): m is EngineMethod {
  return Object.prototype.hasOwnProperty.call(ENGINE_CALLS, m);
}

/** The engine's methods, in {@link ENGINE_CALLS} order. */
export const ENGINE_METHODS: readonly EngineMethod[] = Object.keys(ENGINE_CALLS).filter(isEngineMethod);

/**
 * The protocol's calls over one generic call: an entry per method of {@link ENGINE_METHODS},
 * each `(args, opts) => call(method, args, opts)`. (The compiler checks such an entry against
 * `EngineCalls[M]` when reading that type, not when building it, TypeScript #47109: hence the
 * one assertion on the finished record.)
 */
export function bindCalls(call: EngineCall): EngineCalls {
  const entry = <M extends EngineMethod>(m: M) => [m, (a: EngineArgs<M>, o?: CallOptions) => call(m, a, o)] as const;
  return Object.fromEntries(ENGINE_METHODS.map(entry)) as EngineCalls;
}

/** Methods taking only call options. */
type NoArgMethod = { [M in EngineMethod]: EngineArgs<M> extends undefined ? M : never }[EngineMethod];

/**
 * An {@link Engine} over the protocol's calls: the methods that take only options
 * ({@link NoArgMethod}, listed by the type check) get them as their first parameter.
 */
export function engineOf(c: EngineCalls): Engine {
  const noArgs: { [M in NoArgMethod]: Engine[M] } = {
    catalog: (o) => c.catalog(undefined, o),
    catalogCsv: (o) => c.catalogCsv(undefined, o),
  };
  return { ...c, ...noArgs };
}

/** Outcome of a call: value or typed error (the error's `code` survives the worker boundary). */
export type CallOutcome<T> = Outcome<T>;

/** The engine worker's Comlink API. */
export interface EngineWorkerApi {
  /**
   * Creates the engine over the bundle at `dataBase` (URL ending in "/"). `record`: keep the
   * COG ranges read (a worker the service worker does not control, see src/core/io/range-log.ts).
   * `seeded`: paths (relative to the bundle root) of text files the page has read or is reading
   * and will hand over with {@link seed}; the engine's reads of them wait for the page's copy
   * (src/core/io/seeded-text.ts) instead of fetching them again.
   */
  init(dataBase: string, record?: boolean, seeded?: string[]): void;
  /** Hands over the page's text of bundle file `rel` announced to {@link init}; null: the page could not read it (the engine reads it itself). */
  seed(rel: string, text: string | null): void;
  /** The COG ranges read so far when recording (merged), else none. */
  reads(): ReadRange[];
  /**
   * Calls `method` with `args` and `{ signal, onProgress }` under id `id`; a failure comes back
   * as `{ ok: false, error }` (code ABORTED when cancelled, INTERNAL when untyped, NOT_FOUND for
   * a method the engine lacks).
   */
  call<M extends EngineMethod>(id: number, method: M, args: EngineArgs<M>, onProgress?: CallOptions['onProgress']): Promise<CallOutcome<EngineResult<M>>>;
  /** Aborts call `id` (no-op when it has finished). */
  cancel(id: number): void;
}
