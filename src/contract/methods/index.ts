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
import type { MethodSpec } from './types';

export type { GenFile, GenFileInput, GenFileOutput, MethodContext, MethodResult, MethodSpec } from './types';

/** The methods, in the order `R/` lists them (alphabetical, as OpenCPU sorts). */
export const METHODS: readonly MethodSpec[] = [catchment, category, classify, describe, genFile, getLayer, getLayerWKT, indapi, similar];

/** Methods by name. */
export const METHOD_BY_NAME: ReadonlyMap<string, MethodSpec> = new Map(METHODS.map((m) => [m.name, m]));
