/**
 * The one reader of the list-valued request arguments shared by the engine and the file
 * namer (`var`, `iso3`, `q`, `stats`, and `by` in its list or object form): what the contract
 * bound from an R literal or JSON, read once the same way everywhere.
 */
import { IndapiError } from './errors';
import type { ByArg } from './types';

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
export function byCodesOf(by: ByArg | string | undefined | null): string[] {
  if (by === undefined || by === null) return [];
  if (typeof by === 'string') return [by];
  if (Array.isArray(by)) return asList(by, 'by');
  if (typeof by === 'object') return Object.keys(by);
  throw new IndapiError('BAD_ARGUMENT', "'by' must be a list of codes or an object of breaks / classes.");
}
