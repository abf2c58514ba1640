/**
 * The one reader of the list-valued request arguments shared by the engine and the file
 * namer (`var`, `iso3`, `q`, `stats`, and `by` in its list or object form): what the contract
 * bound from an R literal or JSON, read once the same way everywhere.
 */
import type { QueryValue } from './api';
import { IndapiError } from './errors';

/**
 * A list argument that may be given as one string (R's length-one character vector).
 * @param v the bound value: undefined/null (none), a string, or a list of strings
 * @param name the argument's name, for the message
 * @returns the strings in order (empty when absent)
 * @throws IndapiError BAD_ARGUMENT when it is neither text nor a list of non-empty text
 */
export function asList(v: unknown, name: string): string[] {
  if (v === undefined || v === null) return [];
  const a = Array.isArray(v) ? v : [v];
  for (const x of a) if (typeof x !== 'string' || x === '') throw new IndapiError('BAD_ARGUMENT', `'${name}' must be text or a list of text.`);
  return a as string[];
}

/**
 * Codes named by a `by` argument: the list itself, or the keys of the object form
 * (`{"ELEVATION": [0, 500, 1000]}`: custom breaks or a class filter per code).
 * @throws IndapiError BAD_ARGUMENT when `by` is neither
 */
export function byCodesOf(by: unknown): string[] {
  if (by === undefined || by === null) return [];
  if (typeof by === 'string') return [by];
  if (Array.isArray(by)) return asList(by, 'by');
  if (typeof by === 'object') return Object.keys(by);
  throw new IndapiError('BAD_ARGUMENT', "'by' must be a list of codes or an object of breaks / classes.");
}

/**
 * Country and region codes of an `iso3` argument, upper-cased: the one place a request's
 * codes are normalised (the engine's selection and the writers' {@link queryValue} read them here).
 * @param v the bound value (a code or a list of codes; undefined/null: none)
 * @throws IndapiError BAD_ARGUMENT when it is neither text nor a list of non-empty text
 */
export function iso3Codes(v: unknown): string[] {
  return asList(v, 'iso3').map((s) => s.toUpperCase());
}

/**
 * A request's arguments (the contract's names, as bound or as a panel sends them) as a
 * {@link QueryValue}: read once, at the writers' and the package's entry.
 * @param request var, by (list, object, or `similar`'s number), iso3, ids, wkt, collapse, pal
 * @throws IndapiError BAD_ARGUMENT for list arguments that are not text (the engine refuses them first)
 */
export function queryValue(request: Readonly<Record<string, unknown>>): QueryValue {
  const { by, wkt, collapse, pal } = request;
  const iso3 = iso3Codes(request.iso3);
  const area = iso3.length ? iso3 : request.ids !== undefined ? ['CELLS'] : wkt !== undefined ? ['WKT'] : ['SSA'];
  const q: QueryValue = {
    vars: asList(request.var, 'var'),
    // similar()'s `by` is a unit level, named as it is
    by: typeof by === 'number' ? [String(by)] : byCodesOf(by),
    iso3,
    area,
  };
  if (typeof wkt === 'string') q.wkt = wkt;
  if (typeof collapse === 'boolean') q.collapse = collapse;
  if (typeof pal === 'string') q.pal = pal;
  return q;
}
