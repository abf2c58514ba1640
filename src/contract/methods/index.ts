/**
 * The methods of library `indapi3`, listed once: each is a module of this folder with its R
 * signature, its documentation (served under `man/<method>/text|html` and `info`), its typed
 * boundary (`bindArgs`: raw arguments to the src/core/api/index.ts types) and how it runs on the
 * {@link Engine} and the file writers. The router, the argument checks and the docs all read
 * this list. To add a method: a module here and one line below (README "How to add a method").
 */
import { catchment } from './catchment';
import { category } from './category';
import { classify } from './classify';
import { describe } from './describe';
import { genFile } from './genFile';
import { getLayer } from './getLayer';
import { getLayerWKT } from './getLayerWKT';
import { indapi } from './indapi';
import { similar } from './similar';
import { IndapiError } from '../../core/errors';
import type { FormatSpec } from '../../core/formats/registry';
import type { PackageKind } from '../../core/package/kinds';
import type { MethodSpec } from './types';

export type { GenFile, GenFileInput, GenFileOutput, MethodContext, MethodResult, MethodSpec } from './types';

/** The methods, in the order `R/` lists them (alphabetical, as OpenCPU sorts). */
const LIST = [catchment, category, classify, describe, genFile, getLayer, getLayerWKT, indapi, similar] as const;

/** The method names: the one union of them (the app's queries and the files worker's requests name a method by it). */
export type MethodName = (typeof LIST)[number]['name'];

/** The methods, in the order `R/` lists them (alphabetical, as OpenCPU sorts). */
export const METHODS: readonly MethodSpec[] = LIST;

/** Methods by name. */
export const METHOD_BY_NAME: ReadonlyMap<string, MethodSpec> = new Map(METHODS.map((m) => [m.name, m]));

/**
 * The formats a method's downloads are written in, in the Download panel's order (its package
 * kind's, src/core/package/kinds.ts); none for a method without downloads.
 */
export function downloadFormats(method: string): readonly FormatSpec[] {
  return METHOD_BY_NAME.get(method)?.package?.formats ?? [];
}

/**
 * What `buildPackage` (src/core/package) needs of a method's call: its package kind, its
 * typed value (the spec's `typed`, from arguments by R name as a panel or the router holds
 * them) and the request as sent, for the README.
 * @param method a method name
 * @param args the call's arguments by R name
 * @throws IndapiError BAD_FORMAT for a method without downloads; the spec's `typed` errors (BAD_ARGUMENT naming the argument)
 */
export function methodPackage(method: string, args: Record<string, unknown>): { kind: PackageKind<unknown>; query: unknown; request: Record<string, unknown> } {
  const m = METHOD_BY_NAME.get(method);
  if (!m?.package) throw new IndapiError('BAD_FORMAT', `${method} writes no files.`, { arg: 'format' });
  return { kind: m.package, query: m.typed(args), request: args };
}
