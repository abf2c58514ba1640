/**
 * Writes argument values back as R source, the way R's `deparse()` shows them in error
 * messages and in a session's `source`: `"KEN"`, `c("KEN", "UGA")`, `TRUE`, `NULL`, `NA`,
 * `list(ELEVATION = c(0, 500, 1000))`. Length-one arrays print as scalars (R has no
 * scalars, jsonlite turns `["KEN"]` into a length-one vector). The one deparser of the
 * project: the contract's calls and every message that shows a value a caller sent (never
 * `String(value)`, which printed "[object Object]" for a list).
 */

/** Formats a number as R's `as.character` would for common values (15 significant digits). */
export function formatRNumber(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Inf';
  if (x === -Infinity) return '-Inf';
  return String(Number(x.toPrecision(15)));
}

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

/** Limits of a deparsed value, so that a huge argument never fills an error or a session file. */
export interface DeparseLimits {
  /** Longest string shown: longer ones print their first `maxChars` characters, then `...` after the closing quote. */
  maxChars: number;
  /** Most elements shown of one vector, list or named list: the rest prints as a final `...` element. */
  maxElements: number;
  /** Most scalars shown in the whole value or call (nested lists count every element); the rest prints as `...`. */
  maxScalars: number;
  /** Deepest nesting of lists shown; deeper values print as `...` (default: {@link MAX_DEPARSE_DEPTH}). */
  maxDepth?: number;
}

/**
 * Deepest nesting of lists any deparse shows (deeper values print as `...`), so that a
 * value nested thousands of levels deep never overflows the stack: 100 levels.
 */
export const MAX_DEPARSE_DEPTH = 100;

/** No limits: R's `deparse()` in full. */
export const FULL: DeparseLimits = { maxChars: Infinity, maxElements: Infinity, maxScalars: Infinity };

/**
 * The limits of every printed call (error messages and their `In call:` line, a session's
 * `source` and `console`): strings over 200 characters, vectors over 20 elements, lists over 20 levels deep, at most
 * 200 scalars per call (about 40 KB at the very most).
 */
export const SHORT: DeparseLimits = { maxChars: 200, maxElements: 20, maxScalars: 200, maxDepth: 20 };

/**
 * How a value is written, beyond R's `deparse()` of doubles (the default: every number as
 * JSON gives it, a double).
 */
export interface DeparseStyle {
  /**
   * A vector of three or more consecutive increasing whole numbers as `from:to` (`2000:2017`),
   * as R's `deparse()` writes an integer run: the R text of a run of years (the API's `year`
   * argument). jsonlite writes `2000:2017` and `c(2000, ..., 2017)` to the same JSON.
   */
  runs?: boolean;
}

/** R text of whole years (or any whole numbers): `2000`, `2000:2017` for a run, else `c(1990, 2000)` ({@link DeparseStyle.runs}). */
export const R_TEXT: DeparseStyle = { runs: true };

interface State {
  lim: DeparseLimits;
  /** Runs of whole numbers as `from:to` ({@link DeparseStyle.runs}). */
  runs?: boolean;
  /** Scalars still allowed. */
  left: number;
  /** Nesting depth of the value being deparsed. */
  depth: number;
}

function scalar(v: unknown, st: State): string {
  if (v === null || v === undefined) return 'NA';
  if (typeof v === 'string') {
    if (v.length > st.lim.maxChars) {
      // code points of a prefix only (a code point is at most 2 UTF-16 units): a 9 MB string is not spread into an array on the event loop
      const chars = Array.from(v.slice(0, 2 * st.lim.maxChars + 2));
      if (chars.length > st.lim.maxChars) return deparseString(chars.slice(0, st.lim.maxChars).join('')) + '...';
    }
    return deparseString(v);
  }
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'number') return formatRNumber(v);
  return dep(v, st);
}

/** Deparses the elements of a vector or list within the limits; `...` stands for the rest. */
function elements<T>(xs: T[], st: State, one: (x: T) => string): string[] {
  const out: string[] = [];
  for (let i = 0; i < xs.length; i++) {
    if (i >= st.lim.maxElements || st.left <= 0) {
      out.push('...');
      break;
    }
    out.push(one(xs[i]));
  }
  return out;
}

function dep(v: unknown, st: State): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'object' && st.depth >= Math.min(st.lim.maxDepth ?? MAX_DEPARSE_DEPTH, MAX_DEPARSE_DEPTH)) return '...';
  st.depth++;
  try {
    return depInner(v, st);
  } finally {
    st.depth--;
  }
}

/** True for three or more consecutive increasing whole numbers (an R integer run `from:to`). */
function isRun(v: unknown[]): boolean {
  return v.length > 2 && v.every((x, i) => typeof x === 'number' && Number.isSafeInteger(x) && (i === 0 || x === (v[i - 1] as number) + 1));
}

function depInner(v: unknown, st: State): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return 'NULL';
    // A vector cut after `maxElements` is judged by the elements shown (a 1e6-element argument is not scanned to print 20).
    const shown = v.length > st.lim.maxElements ? v.slice(0, st.lim.maxElements) : v;
    const atomic = shown.every((x) => x === null || ['string', 'number', 'boolean'].includes(typeof x));
    if (atomic) {
      if (v.length === 1) {
        st.left--;
        return scalar(v[0], st);
      }
      if (st.runs && isRun(v)) {
        st.left -= 2;
        return `${formatRNumber(v[0] as number)}:${formatRNumber(v[v.length - 1] as number)}`;
      }
      return `c(${elements(v, st, (x) => (st.left--, scalar(x, st))).join(', ')})`;
    }
    return `list(${elements(v, st, (x) => dep(x, st)).join(', ')})`;
  }
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return 'structure(list(), names = character(0))';
    return `list(${elements(entries, st, ([k, x]) => `${deparseName(k)} = ${dep(x, st)}`).join(', ')})`;
  }
  st.left--;
  return scalar(v, st);
}

/**
 * Deparses a JSON-like value to R source.
 * @param v string, number, boolean, null, arrays (atomic -> `c()`, mixed or nested -> `list()`), objects (`list(name = ...)`).
 * @param limits how much of a long value to show (default {@link FULL}: all of it).
 * @param style how numbers are written (default: as R's `deparse()` of doubles; {@link R_TEXT}: runs as `from:to`).
 */
export function deparse(v: unknown, limits: DeparseLimits = FULL, style: DeparseStyle = {}): string {
  return dep(v, { lim: limits, left: limits.maxScalars, depth: 0, runs: style.runs });
}

/**
 * Deparses a call `fn(name = value, ...)` with arguments in the order given.
 * @param limits for the whole call, and `maxElements` arguments at most (default {@link SHORT}: long values are cut, see {@link DeparseLimits}).
 */
export function deparseCall(fn: string, args: Array<[string, unknown]>, limits: DeparseLimits = SHORT): string {
  const shown = args.length > limits.maxElements ? args.slice(0, limits.maxElements) : args;
  const st: State = { lim: limits, left: limits.maxScalars, depth: 0 };
  const parts = shown.map(([k, x]) => `${deparseName(k)} = ${dep(x, st)}`);
  if (shown.length < args.length) parts.push('...');
  return `${fn}(${parts.join(', ')})`;
}
