/**
 * The shapes of a contract method: its specification, what a run may use and what it
 * produced, and the file writers' entry point. A leaf of src/contract: the method table
 * (methods.ts), each method in its own file (catchment-method.ts) and the package step
 * (package-files.ts) import these, and none of them imports another for its types.
 */
import type { Engine, GeneratedFile, Graphic } from '../core/api';
import type { GenFileInput as CoreGenFileInput, GenFileResult } from '../core/formats/registry';
import type { ArgSpec } from './args';

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
  requestUrl?: string;
  now: Date;
}

/** One method: signature, documentation and implementation. */
export interface MethodSpec {
  /** R function name. */
  name: string;
  /** One-line title. */
  title: string;
  /** Description paragraph(s). */
  description: string;
  /** Formal arguments in R order. */
  args: ArgSpec[];
  /** Details paragraphs. */
  details: string[];
  /** What the value is. */
  value: string;
  /** Examples: curl and R (httr) lines; `{base}` stands for the server address. */
  examples: string[];
  /** Runs the method with bound arguments. */
  run(ctx: MethodContext, a: Record<string, unknown>): Promise<MethodResult>;
}
