/**
 * The contract's file formats (`format` of indapi, genFile, catchment): the core's
 * `buildPackage` (src/core/package), the use case the app's files worker runs too.
 */
import { IndapiError } from '../core/errors';
import { findFormat } from '../core/formats/registry';
import type { PackageKind } from '../core/package/kinds';
import type { MethodContext, MethodResult } from './methods/types';

/**
 * True when `format` asks for files: given, and not "data.table" (any spelling the registry
 * accepts, e.g. "DataTable ").
 */
export function wantsFiles(format: unknown): format is string {
  return typeof format === 'string' && format !== '' && findFormat(format)?.input !== 'none';
}

/**
 * Runs the query the `format` needs and its writers: the core's `buildPackage`
 * (src/core/package) over the method's package kind and typed value, as the app's files
 * worker does.
 * @param ctx the run's context: its request (the arguments as bound) is what the package reproduces
 * @param kind the method's package kind (its spec's `package`)
 * @param q the method's typed value
 * @param format the requested format (any spelling the registry accepts)
 * @throws IndapiError BAD_FORMAT when the server has no writers or the kind does not write `format`
 */
export async function withFiles<A>(ctx: MethodContext, kind: PackageKind<A>, q: A, format: string): Promise<MethodResult> {
  const a = ctx.request;
  if (!ctx.genFile) throw new IndapiError('BAD_FORMAT', `File formats are not available on this server ('${format}').`);
  // loaded on first use, as the writers are (src/contract/handler.ts loadGenFile)
  const { buildPackage } = await import('../core/package');
  const out = await buildPackage(ctx.engine, { kind, query: q, request: { ...a }, format, requestUrl: ctx.requestUrl, now: ctx.now, write: ctx.genFile }, { signal: ctx.signal });
  const warnings = a.dir !== undefined ? [`argument 'dir' is ignored: generated files are kept in the session (files/ and zip).`] : [];
  return { ...out, warnings };
}

