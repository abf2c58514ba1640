/**
 * The shapes of a contract method: its specification ({@link MethodSpec}), what a run may
 * use and what it produced, and the file writers' entry point. A leaf of
 * src/contract/methods: every method module (one file per method), the registry (index.ts)
 * and the package step (../package-files.ts) import these, and none imports another method.
 */
import type { Engine, GeneratedFile, Graphic } from '../../core/api';
import type { GenFileInput as CoreGenFileInput, GenFileResult } from '../../core/formats/registry';
import type { PackageKind } from '../../core/package/kinds';
import { bindArgs, type ArgSpec, type BoundArgs, type RawArgs } from '../args';

/** Input of the file writers: the core's own type (`genFile` of `src/core/formats`). */
export type GenFileInput = CoreGenFileInput;

/** Output of the file writers: the core's own type. */
export type GenFileOutput = GenFileResult;

/** The file writers' entry point. @throws IndapiError BAD_FORMAT for an unknown format */
export type GenFile = (input: GenFileInput, opts?: { signal?: AbortSignal; pal?: string }) => Promise<GenFileOutput>;

/** What a method run produced. */
export interface MethodResult {
  /** The returned value (R/.val), JSON-compatible. */
  value: unknown;
  files?: GeneratedFile[];
  graphics?: Graphic[];
  zipName?: string;
  warnings?: string[];
}

/** What a method run may use. */
export interface MethodContext {
  engine: Engine;
  genFile?: GenFile;
  signal?: AbortSignal;
  /** Progress of the engine's work, done of total (features, layers, countries): what a job's `status` shows. */
  onProgress?: (done: number, total: number) => void;
  requestUrl?: string;
  now: Date;
  /**
   * The request's arguments as bound (R names, values as sent): what a data package's README
   * and datapackage.json reproduce (src/core/package normalises them itself).
   */
  request: Readonly<Record<string, unknown>>;
}

/** One method: signature, documentation, its typed boundary, implementation and downloads. `N` is its name. */
export interface MethodSpec<A = unknown, N extends string = string> {
  /** R function name. */
  name: N;
  /** One-line title. */
  title: string;
  /** Description paragraph(s). */
  description: string;
  /** Formal arguments in R order. */
  args: readonly ArgSpec[];
  /** Details paragraphs. */
  details: string[];
  /** What the value is. */
  value: string;
  /** Examples: curl and R (httr) lines; `{base}` stands for the server address. */
  examples: string[];
  /**
   * The method's typed arguments (src/core/api/index.ts types) from a request's raw arguments:
   * checked against {@link MethodSpec.args}, parsed, never evaluated.
   * @throws IndapiError UNUSED_ARGUMENT, BAD_ARGUMENT naming the argument (400)
   */
  bindArgs(raw: RawArgs): A;
  /**
   * The typed arguments from arguments already checked by {@link bindArgs} of `../args`
   * (the plain record a call carries across threads, src/contract/run.ts).
   * @throws IndapiError BAD_ARGUMENT naming the argument, for values read further (e.g. `xy`)
   */
  typed(bound: Readonly<Record<string, unknown>>): A;
  /** Runs the method with its typed arguments. */
  run(ctx: MethodContext, a: A): Promise<MethodResult>;
  /**
   * How its downloads are built, for a method that writes files (a `format` argument) or whose
   * results the app saves: the formats it writes and how the writers' inputs come from its
   * typed value or from its result (src/core/package/kinds.ts). The API (`withFiles` of
   * ../package-files.ts), the app's files worker and its Download panel read it here.
   */
  package?: PackageKind<NoInfer<A>>;
}

/** What a method module declares: its signature `S` (literal, so its bound values are typed) and how it runs. */
export interface MethodDef<S extends readonly ArgSpec[], A, N extends string> extends Omit<MethodSpec<A, N>, 'args' | 'bindArgs' | 'typed'> {
  /** Formal arguments in R order. */
  args: S;
  /** The typed arguments from the bound ones (R names to the engine's). */
  typed(bound: BoundArgs<S>): A;
}

/**
 * A method from its module's declaration: adds {@link MethodSpec.bindArgs} (the contract's
 * checks of `args`, then `typed`) and the reading of a checked record.
 */
export function defineMethod<const S extends readonly ArgSpec[], A, const N extends string>(d: MethodDef<S, A, N>): MethodSpec<A, N> {
  return {
    ...d,
    bindArgs: (raw) => d.typed(bindArgs(d.name, d.args, raw)),
    // a record bound against these same `args` (by the router, before it crossed a thread)
    typed: (bound) => d.typed(bound as BoundArgs<S>),
  };
}
