/**
 * Writes argument values back as R source, the way R's `deparse()` shows them in error
 * messages and in a session's `source`: `"KEN"`, `c("KEN", "UGA")`, `TRUE`, `NULL`, `NA`,
 * `list(ELEVATION = c(0, 500, 1000))`. Length-one arrays print as scalars (R has no
 * scalars, jsonlite turns `["KEN"]` into a length-one vector).
 */
import { formatRNumber } from './rliteral';

/** Quotes a string the way R's `deparse` does: double quotes, backslash escapes. */
export function deparseString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += `\\${c.toString(8).padStart(3, '0')}`;
    else out += ch;
  }
  return out + '"';
}

const SYNTACTIC = /^((([A-Za-z]|[.][A-Za-z._])[A-Za-z0-9._]*)|[.])$/;
const RESERVED = new Set(['if', 'else', 'repeat', 'while', 'function', 'for', 'next', 'break', 'TRUE', 'FALSE', 'NULL', 'Inf', 'NaN', 'NA', 'NA_integer_', 'NA_real_', 'NA_character_', 'in']);

/** An argument or element name as R prints it: bare when syntactic, else in backticks. */
export function deparseName(name: string): string {
  return SYNTACTIC.test(name) && !RESERVED.has(name) ? name : '`' + name.replace(/`/g, '\\`') + '`';
}

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'NA';
  if (typeof v === 'string') return deparseString(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'number') return formatRNumber(v);
  return deparse(v);
}

/**
 * Deparses a JSON-like value to R source.
 * @param v string, number, boolean, null, arrays (atomic -> `c()`, mixed or nested -> `list()`), objects (`list(name = ...)`).
 */
export function deparse(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (Array.isArray(v)) {
    if (v.length === 0) return 'NULL';
    const atomic = v.every((x) => x === null || ['string', 'number', 'boolean'].includes(typeof x));
    if (atomic) return v.length === 1 ? scalar(v[0]) : `c(${v.map(scalar).join(', ')})`;
    return `list(${v.map((x) => deparse(x)).join(', ')})`;
  }
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return 'structure(list(), names = character(0))';
    return `list(${entries.map(([k, x]) => `${deparseName(k)} = ${deparse(x)}`).join(', ')})`;
  }
  return scalar(v);
}

/** Deparses a call `fn(name = value, ...)` with arguments in the order given. */
export function deparseCall(fn: string, args: Array<[string, unknown]>): string {
  return `${fn}(${args.map(([k, x]) => `${deparseName(k)} = ${deparse(x)}`).join(', ')})`;
}
