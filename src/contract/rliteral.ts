/**
 * A parser for the R literals that OpenCPU clients send as form-encoded arguments
 * (`<arg>=<R literal>`), written as a hand-made recursive descent that only recognises
 * constants: nothing is ever evaluated.
 *
 * Accepted (after R's own lexical rules, "R Language Definition" section 10.3 "Literal
 * constants" and OpenCPU's `parse_arg`):
 * - strings in single or double quotes with R's escapes (`\n \t \r \0 \\ \' \" \` \a \b \f
 *   \v`, `\xhh`, `\ooo`, `\uXXXX`, `\u{XXXX}`, `\UXXXXXXXX`, `\U{XXXXXXXX}`);
 * - numbers: decimal and hexadecimal, with exponent, optional sign, `L` (integer) and `i`
 *   is refused; `Inf`, `NaN`;
 * - `TRUE`, `FALSE`, `T`, `F`, `NULL`, `NA`, `NA_integer_`, `NA_real_`, `NA_character_`;
 * - integer sequences `from:to` of two whole numbers (`2000:2017`, `2017:2000`), at most
 *   {@link MAX_SEQ} elements, as R's `:` gives them (a constant, not an evaluated call);
 * - `c(...)` (flattened, as R does) and `list(...)`, with optional `name = value`
 *   elements, names as identifiers, quoted strings or backticks;
 * - JSON objects or arrays (OpenCPU tries JSON first when a value starts with `{` or `[`),
 *   and OpenCPU's JSON spellings `true`, `false`, `null`.
 * Anything else fails with "Unparsable argument: <text>" (texts over 200 characters cut, with `...`).
 */
import { IndapiError } from '../core/errors';
import { formatRNumber } from '../core/r/deparse';

export { formatRNumber };

/** A parsed R value: vectors become arrays, named vectors and lists objects, NULL null, a lone NA `[null]` (NA inside vectors null). */
export type RValue = string | number | boolean | null | RValue[] | { [name: string]: RValue };

/** Parsed R value plus what kind of R object it was (for error messages and deparsing). */
interface Node {
  kind: 'scalar' | 'vector' | 'list' | 'json';
  value: RValue;
  /** Element names for named c()/list() (same length as elements), else undefined. */
  names?: (string | undefined)[];
}

/**
 * Parses one form-encoded argument value as an R literal.
 * @param text the raw (already URL-decoded) value.
 * @param name the argument's name, named in the message when the text is R but over a limit
 *   (a sequence `from:to` of more than {@link MAX_SEQ} numbers).
 * @returns scalars as JS scalars (but `NA` as `[null]`, an NA vector, and `NULL` as null), `c(...)` as an array (a single element stays an array),
 *   named `c()`/`list()` as an object, unnamed `list()` as an array, JSON as parsed.
 * @throws IndapiError UNPARSABLE "Unparsable argument: <text>" when the text is not a literal, followed by
 *   "('<name>': <limit>)" when it is R over a limit.
 */
export function parseRLiteral(text: string, name?: string): RValue {
  const trimmed = text.trim();
  const fail = (limit?: string): never => {
    const shown = text.length > 200 ? `${Array.from(text).slice(0, 200).join('')}...` : text;
    const why = limit ? ` (${name ? `'${name}': ` : ''}${limit})` : '';
    throw new IndapiError('UNPARSABLE', `Unparsable argument: ${shown}${why}`, { text });
  };
  if (trimmed === '') fail();
  // OpenCPU's JSON compatibility shortcuts.
  if (trimmed === 'true') return true;
  if (trimmed === 'false') return false;
  if (trimmed === 'null') return null;
  if (trimmed[0] === '{' || trimmed[0] === '[') {
    try {
      return JSON.parse(trimmed) as RValue;
    } catch {
      fail();
    }
  }
  const p = new Parser(trimmed);
  let node: Node;
  try {
    node = p.parseValue();
    p.skipWs();
    if (!p.atEnd()) fail();
  } catch (e) {
    if (e instanceof SyntaxErr) fail(e.limit);
    throw e;
  }
  // NA is a logical vector of length one: unlike NULL it never stands for a default.
  if (node!.kind === 'scalar' && node!.value === null) return [null];
  return node!.value;
}

/** Text that is not a literal; `limit` says which limit a valid R text is over. */
class SyntaxErr extends Error {
  constructor(readonly limit?: string) {
    super(limit);
  }
}

const IDENT_START = /[A-Za-z.]/;
const IDENT_PART = /[A-Za-z0-9._]/;
const MAX_DEPTH = 64;
/** Most elements of a `from:to` sequence (longer ones are refused as unparsable). */
export const MAX_SEQ = 10_000;

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly s: string) {}

  atEnd(): boolean {
    return this.i >= this.s.length;
  }

  skipWs(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }

  private peek(): string {
    return this.s[this.i] ?? '';
  }

  private err(): never {
    throw new SyntaxErr();
  }

  parseValue(): Node {
    const first = this.parseTerm();
    this.skipWs();
    if (this.peek() !== ':' || first.kind !== 'scalar' || typeof first.value !== 'number') return first;
    this.i++;
    const last = this.parseTerm();
    const a = first.value;
    const b = last.value;
    if (last.kind !== 'scalar' || typeof b !== 'number' || !Number.isInteger(a) || !Number.isInteger(b)) this.err();
    if (Math.abs(b - a) >= MAX_SEQ) throw new SyntaxErr(`a sequence from:to holds at most ${MAX_SEQ} numbers`);
    const step = b >= a ? 1 : -1;
    return { kind: 'vector', value: Array.from({ length: Math.abs(b - a) + 1 }, (_, k) => a + k * step) };
  }

  private parseTerm(): Node {
    this.skipWs();
    const ch = this.peek();
    if (ch === '"' || ch === "'") return { kind: 'scalar', value: this.parseString() };
    if (ch === '-' || ch === '+') {
      this.i++;
      this.skipWs();
      const inner = this.parseTerm(); // unary minus binds tighter than `:` in R: -1:1 is (-1):1
      if (inner.kind !== 'scalar' || (typeof inner.value !== 'number' && inner.value !== null)) this.err();
      if (inner.value === null) return inner; // -NA is NA
      return { kind: 'scalar', value: ch === '-' ? -(inner.value as number) : (inner.value as number) };
    }
    if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(this.s[this.i + 1] ?? ''))) {
      return { kind: 'scalar', value: this.parseNumber() };
    }
    if (ch === '{' || ch === '[') return { kind: 'json', value: this.parseJsonBlock() };
    if (ch === '`') this.err();
    if (IDENT_START.test(ch)) {
      const id = this.parseIdent();
      switch (id) {
        case 'TRUE':
        case 'T':
          return { kind: 'scalar', value: true };
        case 'FALSE':
        case 'F':
          return { kind: 'scalar', value: false };
        case 'NULL':
          return { kind: 'vector', value: null };
        case 'NA':
        case 'NA_integer_':
        case 'NA_real_':
        case 'NA_character_':
          return { kind: 'scalar', value: null };
        case 'Inf':
          return { kind: 'scalar', value: Infinity };
        case 'NaN':
          return { kind: 'scalar', value: NaN };
        case 'c':
        case 'list': {
          this.skipWs();
          if (this.peek() !== '(') this.err();
          this.i++;
          return this.parseCall(id);
        }
        default:
          this.err();
      }
    }
    return this.err();
  }

  private parseIdent(): string {
    const start = this.i;
    this.i++;
    while (this.i < this.s.length && IDENT_PART.test(this.s[this.i])) this.i++;
    return this.s.slice(start, this.i);
  }

  /** Parses the arguments of c( or list( after the opening parenthesis. */
  private parseCall(fn: 'c' | 'list'): Node {
    if (++this.depth > MAX_DEPTH) this.err();
    const elems: Node[] = [];
    const names: (string | undefined)[] = [];
    this.skipWs();
    if (this.peek() === ')') {
      this.i++;
      this.depth--;
      return fn === 'c' ? { kind: 'vector', value: null } : { kind: 'list', value: [] };
    }
    for (;;) {
      this.skipWs();
      const name = this.tryName();
      const v = this.parseValue();
      elems.push(v);
      names.push(name);
      this.skipWs();
      const ch = this.peek();
      this.i++;
      if (ch === ',') continue;
      if (ch === ')') break;
      this.err();
    }
    this.depth--;
    const named = names.some((n) => n !== undefined);
    if (fn === 'list') {
      if (!named) return { kind: 'list', value: elems.map((e) => e.value) };
      const obj: { [k: string]: RValue } = {};
      elems.forEach((e, k) => {
        obj[names[k] ?? String(k + 1)] = e.value;
      });
      return { kind: 'list', value: obj, names };
    }
    // c(): flatten vectors; a list inside c() makes a list (R semantics), kept simple here.
    if (elems.some((e) => e.kind === 'list' || e.kind === 'json')) {
      if (named) {
        const obj: { [k: string]: RValue } = {};
        elems.forEach((e, k) => (obj[names[k] ?? String(k + 1)] = e.value));
        return { kind: 'list', value: obj, names };
      }
      return { kind: 'list', value: elems.map((e) => e.value) };
    }
    const flat: RValue[] = [];
    const flatNames: (string | undefined)[] = [];
    elems.forEach((e, k) => {
      if (e.kind === 'vector') {
        if (e.value === null) return;
        const arr = e.value as RValue[];
        arr.forEach((x, j) => {
          flat.push(x);
          flatNames.push(names[k] ?? e.names?.[j]);
        });
      } else {
        flat.push(e.value);
        flatNames.push(names[k]);
      }
    });
    if (flatNames.some((n) => n !== undefined)) {
      const obj: { [k: string]: RValue } = {};
      flat.forEach((x, k) => (obj[flatNames[k] ?? String(k + 1)] = x));
      return { kind: 'vector', value: obj, names: flatNames };
    }
    // R coerces mixed atomic vectors: character wins over number wins over logical.
    return { kind: 'vector', value: coerceAtomic(flat) };
  }

  /** Reads `name =` (not `==`) if present, else returns undefined and rewinds. */
  private tryName(): string | undefined {
    const save = this.i;
    let name: string | undefined;
    const ch = this.peek();
    if (ch === '`') {
      const end = this.s.indexOf('`', this.i + 1);
      if (end < 0) this.err();
      name = this.s.slice(this.i + 1, end);
      this.i = end + 1;
    } else if (ch === '"' || ch === "'") {
      try {
        name = this.parseString();
      } catch {
        this.i = save;
        return undefined;
      }
    } else if (IDENT_START.test(ch)) {
      name = this.parseIdent();
    } else {
      return undefined;
    }
    this.skipWs();
    if (this.peek() === '=' && this.s[this.i + 1] !== '=') {
      this.i++;
      return name;
    }
    this.i = save;
    return undefined;
  }

  private parseString(): string {
    const q = this.s[this.i++];
    let out = '';
    for (;;) {
      if (this.i >= this.s.length) this.err();
      const ch = this.s[this.i++];
      if (ch === q) return out;
      if (ch !== '\\') {
        out += ch;
        continue;
      }
      const e = this.s[this.i++];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
          let oct = e;
          while (oct.length < 3 && /[0-7]/.test(this.peek())) oct += this.s[this.i++];
          const code = parseInt(oct, 8);
          if (code === 0) this.err(); // R: nul character not allowed
          out += String.fromCharCode(code);
          break;
        }
        case 'a': out += '\x07'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'v': out += '\v'; break;
        case '\\': out += '\\'; break;
        case "'": out += "'"; break;
        case '"': out += '"'; break;
        case '`': out += '`'; break;
        case ' ': out += ' '; break;
        case '\n': out += '\n'; break;
        case 'x': {
          let hex = '';
          while (hex.length < 2 && /[0-9a-fA-F]/.test(this.peek())) hex += this.s[this.i++];
          if (!hex || parseInt(hex, 16) === 0) this.err();
          out += String.fromCharCode(parseInt(hex, 16));
          break;
        }
        case 'u':
        case 'U': {
          const max = e === 'u' ? 4 : 8;
          let hex = '';
          if (this.peek() === '{') {
            const end = this.s.indexOf('}', this.i);
            if (end < 0) this.err();
            hex = this.s.slice(this.i + 1, end);
            this.i = end + 1;
            if (!/^[0-9a-fA-F]{1,8}$/.test(hex) || hex.length > max) this.err();
          } else {
            while (hex.length < max && /[0-9a-fA-F]/.test(this.peek())) hex += this.s[this.i++];
            if (!hex) this.err();
          }
          const cp = parseInt(hex, 16);
          if (cp === 0 || cp > 0x10ffff) this.err();
          out += String.fromCodePoint(cp);
          break;
        }
        default:
          this.err();
      }
    }
  }

  private parseNumber(): number {
    const rest = this.s.slice(this.i);
    const hex = /^0[xX][0-9a-fA-F]+L?/.exec(rest);
    if (hex) {
      this.i += hex[0].length;
      return parseInt(hex[0].replace(/L$/, ''), 16);
    }
    const m = /^(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?L?/.exec(rest);
    if (!m) this.err();
    this.i += m![0].length;
    if (/^[A-Za-z_.]/.test(this.peek())) this.err(); // e.g. 1i, 1x
    return Number(m![0].replace(/L$/, ''));
  }

  /** A JSON object or array embedded in c()/list(): find its balanced end and JSON.parse it. */
  private parseJsonBlock(): RValue {
    const start = this.i;
    let depth = 0;
    let inStr = false;
    for (; this.i < this.s.length; this.i++) {
      const ch = this.s[this.i];
      if (inStr) {
        if (ch === '\\') this.i++;
        else if (ch === '"') inStr = false;
        continue;
      }
      if (ch === '"') inStr = true;
      else if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') {
        depth--;
        if (depth === 0) {
          this.i++;
          try {
            return JSON.parse(this.s.slice(start, this.i)) as RValue;
          } catch {
            this.err();
          }
        }
      }
    }
    return this.err();
  }
}

function coerceAtomic(xs: RValue[]): RValue[] {
  if (xs.some((x) => typeof x === 'string')) {
    return xs.map((x) => (x === null ? null : typeof x === 'boolean' ? (x ? 'TRUE' : 'FALSE') : typeof x === 'number' ? formatRNumber(x) : x));
  }
  if (xs.some((x) => typeof x === 'number')) return xs.map((x) => (typeof x === 'boolean' ? (x ? 1 : 0) : x));
  return xs;
}
