/**
 * Building a download package, the one use case behind every download: the contract's file
 * formats (`indapi`, `genFile`, `catchment` with `format`, src/contract) and the app's
 * Download panel (workers/files.worker.ts) call {@link buildPackage}, so the browser and the
 * API build packages by the same code. The method's spec names its package kind
 * (./kinds.ts: its formats and inputs); the format is resolved in the kind's list (400 for
 * one it does not write, before any work), the result handed in is used or the query the
 * format's input needs runs (summary table, per-cell result, the method's own result), and
 * the files are written.
 */
import type { CallOptions, Engine, GeneratedFile, Graphic } from '../api';
import { throwIfAborted } from '../errors';
import { genFile as coreGenFile, type GenFileInput, type GenFileResult } from '../formats';
import type { PackageKind } from './kinds';
import { layerArgs } from './layer-args';
import { wideByYear, type TableLayout } from './wide';

export { layerArgs };
export { hasYearColumn, wideByYear, type TableLayout } from './wide';
export { CATCHMENT_PACKAGE, LAYER_PACKAGE, SIMILAR_PACKAGE, tablePackage, type KindCall, type PackageInputs, type PackageKind } from './kinds';

/** The writers of a realm: the core's `genFile`, or a wrapper adding the bundle version (src/node, workers/sw.ts). */
export type PackageWriter = (input: GenFileInput, opts?: CallOptions) => Promise<GenFileResult>;

/**
 * A package to build: the method's kind (its spec's `package`, src/contract/methods), its
 * typed value and, when the caller has it, the result of that query (the result on screen).
 */
export interface PackageCall<Q = unknown, R = unknown> {
  /** How the method's packages are built: its formats and its inputs (src/core/package/kinds.ts). */
  kind: PackageKind<Q, R>;
  /** The method's typed value (src/core/api types: IndapiArgs, SimilarArgs, CatchmentCallArgs, ...). */
  query: Q;
  /** The request's arguments as sent (R names): what the README and datapackage.json reproduce. */
  request: Record<string, unknown>;
  /**
   * The result of the same query computed already (the engine worker's result on screen, an
   * upload's job): written as is, that query does not run again.
   */
  result?: R;
  /** The requested format (any spelling the registry accepts). */
  format: string;
  /** The URL the request is sent to, for the README. */
  requestUrl?: string;
  /** Creation time (default now). */
  now?: Date;
  /** Bundle version, written as the package version. */
  version?: string;
  /** What the writers also get (basemap, rasterize, ...). */
  extra?: Partial<GenFileInput>;
  /** The realm's writers (default the core's `genFile`). */
  write?: PackageWriter;
  /** A table long by year written long (default, as the API) or wide, one column per year (./wide.ts `wideByYear`). */
  layout?: TableLayout;
}

/** A built package. */
export interface PackageResult {
  /** The method's value: the names of the files, or (plot, hist) the summary table drawn. */
  value: unknown;
  /** The files, in listing order. */
  files: GeneratedFile[];
  /** Graphics (plot, hist). */
  graphics: Graphic[];
  /** Name of the package's ZIP. */
  zipName: string;
}

/** Query progress (0..1) to the call's percent (query 2..66, writing 66..100). */
function stepper(onProgress?: (done: number, total: number) => void) {
  return (p: number) => onProgress?.(Math.round(p), 100);
}

/**
 * Builds the package of a call: resolves the format in the kind's list, takes the result
 * handed in or runs the query the format's input needs, and writes the files.
 * @param engine the engine of the realm
 * @param call the kind, the typed value, the request as sent, the result if computed, format, request URL, writers
 * @param opts abort signal; progress in percent (query then writing)
 * @returns the method's value, the files, graphics and the ZIP name
 * @throws IndapiError BAD_FORMAT for a format the method does not write (before any query);
 *   the query's errors (BAD_ARGUMENT, UNKNOWN_CODE, ...); the writers' (EMPTY_SELECTION, TOO_LARGE); ABORTED
 */
export async function buildPackage<Q, R>(engine: Engine, call: PackageCall<Q, R>, opts: CallOptions = {}): Promise<PackageResult> {
  const { signal } = opts;
  const step = stepper(opts.onProgress);
  step(2);
  const qOpts: CallOptions = { signal, onProgress: (d, t) => step(2 + (t ? (d / t) * 64 : 0)) };
  // the format first: a format the kind does not write is refused before any work
  const fmt = call.kind.resolve(call.format);
  const inputs = await call.kind.inputs(engine, call.query, { spec: fmt, request: call.request, result: call.result }, qOpts);
  throwIfAborted(signal);
  step(66);
  const { spec, cells } = inputs;
  const table = call.layout === 'wide' && inputs.table ? wideByYear(inputs.table) : inputs.table;
  const write = call.write ?? coreGenFile;
  const out = await write(
    {
      ...call.extra,
      nameArea: inputs.nameArea,
      format: call.format, formats: [spec], method: inputs.method, args: inputs.args, table, cells, source: inputs.source,
      meta: spec.input === 'cells' ? (cells?.meta ?? []) : ((table ?? cells)?.meta ?? []),
      requestUrl: call.requestUrl, now: call.now, version: call.version,
    },
    { signal, onProgress: (d, t) => step(66 + (t ? (d / t) * 34 : 0)) },
  );
  step(100);
  const value = spec.input === 'table+cells' && table ? table.rows : out.files.map((f) => f.name);
  return { value, files: out.files, graphics: out.graphics, zipName: out.zipName };
}
