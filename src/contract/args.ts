/**
 * Reading a method call's arguments from a request body (JSON or form-encoded R
 * literals, as OpenCPU accepts them) and checking them against the method's R signature.
 */
import { IndapiError } from '../core/errors';
import type { ByArg } from '../core/types';
import { deparse, deparseCall, SHORT } from './deparse';
import { parseRLiteral, type RValue } from './rliteral';

/** Raw arguments in request order: name and parsed value. */
export type RawArgs = Array<[string, RValue]>;

/** A failure while reading the body that is not an R error (no "In call:" line). */
export class BodyError extends Error {
  constructor(
    /** HTTP status: 400 bad body, 413 too large, 415 unsupported type. */
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'BodyError';
  }
}

/**
 * Reads the arguments of a POST body.
 * - `application/json`: one JSON object; each member is an argument, values as given
 *   (a plain string is a string, never R code).
 * - `application/x-www-form-urlencoded`: each field is an R literal ({@link parseRLiteral});
 *   `multipart/form-data` and `application/rds` are read from their bytes (./rds-body.ts).
 * - empty body: no arguments.
 * @param text the body text (already size-checked by the caller).
 * @throws BodyError 400 for malformed JSON or a top level that is not an object, 415 for another content type.
 * @throws IndapiError UNPARSABLE for a form value that is not an R literal.
 */
export function parseBody(contentType: string | null, text: string): RawArgs {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (text.trim() === '') return [];
  if (type === 'application/json' || type.endsWith('+json')) {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (e) {
      throw new BodyError(400, `Failed to parse JSON body: ${(e as Error).message}`);
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      const got = v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`;
      throw new BodyError(400, `JSON body must be an object whose members are the function arguments (got ${got}).`);
    }
    return Object.entries(v as Record<string, RValue>);
  }
  if (type === '' || type === 'application/x-www-form-urlencoded' || type === 'text/plain') {
    // curl -d without a type sends urlencoded; a missing type is read the same way.
    const out: RawArgs = [];
    for (const [k, val] of new URLSearchParams(text)) out.push([k, parseRLiteral(val, k)]);
    return out;
  }
  throw new BodyError(415, `Unsupported Content-Type: ${type}. Send application/json, application/x-www-form-urlencoded or multipart/form-data (R literals), or application/rds (serialize(args, NULL)).`);
}

/** Kinds of argument values the methods take. */
export type ArgType =
  | 'codes' // character vector of indicator codes
  | 'strings' // character vector
  | 'string' // one string
  | 'bool' // TRUE / FALSE
  | 'int' // one whole number
  | 'numbers' // numeric vector
  | 'by' // codes, or { code: [breaks or classes] }
  | 'scalar' // one string or number
  | 'json'; // any value (GeoJSON, named lists)

/** The value each {@link ArgType} binds to (what {@link bindArgs} returns for it). */
export interface ArgValues {
  codes: string[];
  strings: string[];
  string: string;
  bool: boolean;
  int: number;
  numbers: number[];
  by: ByArg;
  scalar: string | number;
  json: unknown;
}

/**
 * The bound arguments of a signature `S` (a literal list of {@link ArgSpec}s, `as const`):
 * each argument by its R name, typed by its {@link ArgType}; required ones always present,
 * the others absent when not sent (the R default applies).
 */
export type BoundArgs<S extends readonly ArgSpec[]> = { [K in S[number] as K['name']]?: ArgValues[K['type']] } & {
  [K in S[number] as K extends { required: true } ? K['name'] : never]-?: ArgValues[K['type']];
};

/** One formal argument of a method. */
export interface ArgSpec {
  /** R name, e.g. "as.list". */
  readonly name: string;
  /** Expected value kind. */
  readonly type: ArgType;
  /** True when the R function has no default. */
  required?: boolean;
  /** Default as R shows it in usage, e.g. `"SSA"`, `FALSE`, `NULL`. */
  default?: string;
  /**
   * For code vectors (`iso3`): NA elements, and NULL (jsonlite writes a scalar NA as JSON
   * `null`), are passed on as the code `NA`, so the engine reports them as unknown codes
   * instead of the default applying. Without it NA elements are a type error.
   */
  naAsCode?: boolean;
  /** Documentation of the argument. */
  doc: string;
}

/** A call that failed as R would fail: message plus the call, for the "In call:" line. */
export function callError(code: 'UNUSED_ARGUMENT' | 'BAD_ARGUMENT', message: string, call: string): IndapiError {
  return new IndapiError(code, message, { call });
}

function typeName(v: unknown): string {
  if (v === null) return 'NULL';
  if (Array.isArray(v)) {
    const xs = v.filter((x) => x !== null);
    if (xs.length === 0) return 'logical';
    if (xs.every((x) => typeof x === 'string')) return 'character';
    if (xs.every((x) => typeof x === 'number')) return 'numeric';
    if (xs.every((x) => typeof x === 'boolean')) return 'logical';
    return 'list';
  }
  if (typeof v === 'string') return 'character';
  if (typeof v === 'number') return 'numeric';
  if (typeof v === 'boolean') return 'logical';
  return 'list';
}

/**
 * Checks raw arguments against a signature and converts them to plain JS values.
 * @returns values by R name; NULL arguments are left out (R default applies).
 * @throws IndapiError UNUSED_ARGUMENT `unused argument (name = value)` for names the method lacks,
 *   BAD_ARGUMENT for a missing required argument or a value of the wrong type; `detail.call` holds the call.
 */
export function bindArgs<const S extends readonly ArgSpec[]>(method: string, specs: S, raw: RawArgs): BoundArgs<S> {
  const call = deparseCall(method, raw);
  const byName = new Map(specs.map((s) => [s.name, s]));
  const unused = raw.filter(([k]) => !byName.has(k));
  if (unused.length) {
    const shown = unused.slice(0, SHORT.maxElements).map(([k, v]) => `${k} = ${deparse(v, SHORT)}`);
    if (unused.length > shown.length) shown.push('...');
    const list = shown.join(', ');
    throw callError('UNUSED_ARGUMENT', `unused argument${unused.length > 1 ? 's' : ''} (${list})`, call);
  }
  const seen = new Set<string>();
  for (const [k] of raw) {
    if (seen.has(k)) throw callError('BAD_ARGUMENT', `formal argument "${k}" matched by multiple actual arguments`, call);
    seen.add(k);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of raw) {
    const spec = byName.get(k)!;
    // NULL is the default only where the default is NULL (or there is none): as in R, an
    // explicit value, NULL included, replaces a default such as "SSA" or TRUE.
    if (v === null && !spec.naAsCode && (spec.required || spec.default === undefined || spec.default === 'NULL')) continue;
    out[k] = coerce(spec, v === null ? [null] : v, call, v === null);
  }
  for (const s of specs) {
    if (s.required && out[s.name] === undefined) throw callError('BAD_ARGUMENT', `argument "${s.name}" is missing, with no default`, call);
  }
  // each value was coerced to its spec's type above (coerce), required ones checked present
  return out as BoundArgs<S>;
}

/**
 * NULL (JSON null, R `NULL`) or an empty named list `{}` (jsonlite's `list(a = NULL)`): "no value"
 * in a `by` list. An empty vector `[]` stays an error (no breaks, no classes).
 */
function isEmptyValue(v: RValue): boolean {
  if (v === null) return true;
  if (Array.isArray(v)) return v.length === 1 && v[0] === null;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

/**
 * Control characters no text argument may hold: C0 but tab, line feed and carriage return
 * (NUL cut names in .dta files and made the .rds package unreadable by R), DEL and C1.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/**
 * Refuses a text argument holding a control character ({@link CONTROL_CHAR}).
 * @throws IndapiError BAD_ARGUMENT naming the argument, the character (U+XXXX) and its element
 */
function checkText(spec: ArgSpec, xs: readonly unknown[], call: string): void {
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    if (typeof x !== 'string') continue;
    const m = CONTROL_CHAR.exec(x);
    if (!m) continue;
    const u = 'U+' + m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    const where = xs.length > 1 ? ` in element ${i + 1}` : '';
    throw callError('BAD_ARGUMENT', `invalid '${spec.name}' argument: control character ${u}${where} at position ${m.index + 1} (NUL and other control characters are not allowed in text)`, call);
  }
}

function coerce(spec: ArgSpec, v: RValue, call: string, isNull = false): unknown {
  const bad = (what: string): never => {
    throw callError('BAD_ARGUMENT', `invalid '${spec.name}' argument: expected ${what}, got ${isNull ? 'NULL' : `${typeName(v)} ${deparse(v, SHORT)}`}`, call);
  };
  if (spec.type === 'codes' || spec.type === 'strings' || spec.type === 'string' || spec.type === 'scalar' || spec.type === 'by') {
    checkText(spec, Array.isArray(v) ? v : typeof v === 'object' && v !== null ? [...Object.keys(v), ...Object.values(v).flat()] : [v], call);
  }
  const arr = Array.isArray(v) ? v : typeof v === 'object' && v !== null ? undefined : [v];
  switch (spec.type) {
    case 'codes':
    case 'strings': {
      const what = spec.type === 'codes' ? 'a character vector of indicator codes' : 'a character vector';
      if (spec.naAsCode && arr && arr.length > 0 && arr.every((x) => typeof x === 'string' || x === null)) {
        return arr.map((x) => (x === null ? 'NA' : (x as string).trim()));
      }
      if (!arr || arr.length === 0 || !arr.every((x) => typeof x === 'string')) bad(arr?.some((x) => x === null) ? `${what} without NA` : what);
      if (spec.type === 'codes' && !(arr as string[]).every((x) => x.trim() !== '')) bad(what);
      return (arr as string[]).map((x) => x.trim());
    }
    case 'string':
      if (!arr || arr.length !== 1 || typeof arr[0] !== 'string') bad('one character string');
      return arr![0];
    case 'scalar':
      if (!arr || arr.length !== 1 || (typeof arr[0] !== 'string' && typeof arr[0] !== 'number')) bad('one code or number');
      return arr![0];
    case 'bool':
      if (!arr || arr.length !== 1) bad('TRUE or FALSE');
      if (typeof arr![0] === 'boolean') return arr![0];
      if (arr![0] === 0 || arr![0] === 1) return arr![0] === 1;
      return bad('TRUE or FALSE');
    case 'int':
      if (!arr || arr.length !== 1 || typeof arr[0] !== 'number' || !Number.isInteger(arr[0])) bad('one whole number');
      return arr![0];
    case 'numbers':
      if (!arr || arr.length === 0 || !arr.every((x) => typeof x === 'number' && Number.isFinite(x))) bad('a numeric vector');
      return arr;
    case 'by': {
      if (arr) {
        if (arr.length === 0 || !arr.every((x) => typeof x === 'string' && x.trim() !== '')) {
          bad('variable codes (character) or a list mapping one code to breaks, e.g. list(ELEVATION = c(0, 500, 1000))');
        }
        return (arr as string[]).map((x) => x.trim());
      }
      const obj = v as Record<string, RValue>;
      const out: Record<string, Array<number | string> | null> = {};
      for (const [code, val] of Object.entries(obj)) {
        // NULL or an empty list (jsonlite writes list(a = NULL) as {"a": {}}):
        // this code keeps its default grouping beside codes with custom breaks
        if (isEmptyValue(val)) {
          out[code] = null;
          continue;
        }
        const xs = Array.isArray(val) ? val : [val];
        if (xs.length === 0 || !xs.every((x) => typeof x === 'number' || typeof x === 'string')) {
          bad('a list mapping each code to breaks (numbers), classes or NULL (its default grouping)');
        }
        out[code] = xs as Array<number | string>;
      }
      if (Object.keys(out).length === 0) bad('at least one code');
      return out;
    }
    case 'json':
      if (typeof v === 'string' && /^\s*[[{]/.test(v)) {
        try {
          return JSON.parse(v);
        } catch {
          return bad('JSON or a named list');
        }
      }
      return v;
  }
}
