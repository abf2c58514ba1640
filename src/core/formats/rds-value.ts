/**
 * A strict, bounded reader of one small R object from R's serialization format
 * (`serialize(x, NULL)`, `saveRDS(x)`): the values an R client sends as arguments. Only data
 * is read: `NULL`, character, double, integer and logical vectors (with names), factors and
 * lists of these (with names), nested. Everything that could carry code or state is refused
 * by name (environments, closures, calls and other language objects, symbols, promises,
 * byte code, external pointers, S4 objects), and so are complex and raw vectors, classes
 * other than `factor` and attributes other than `names`, `class` and `levels`.
 *
 * Format: "R Internals", section 1.8 "Serialization Formats"
 * (https://cran.r-project.org/doc/manuals/r-release/R-ints.html#Serialization-Formats),
 * the facts ./rds-read.ts (the ingest's data.frame reader) and ./rds.ts (the writer) use:
 * header `X\n` (XDR, big-endian) or `B\n` (native, little-endian); format version 2 or 3
 * (3 adds the native encoding name); item flags = type (bits 0-7) | object (8) | attributes
 * (9) | tag (10) | levels (12-27); vector length (-1 announces a long vector: refused);
 * NA_integer_ is INT_MIN, NA_real_ the NaN whose low word is 1954; CHARSXP length -1 is
 * NA_character_; symbols are numbered in order of appearance and REFSXP (255) points back
 * at one (index in flags bits 8-31, or in the next int when 0). ALTREP (238) items are read
 * for the classes R writes for plain vectors: `compact_intseq`, `compact_realseq`
 * (`1:3`, `seq_len(n)`), `wrap_*` and `deferred_string`.
 *
 * Bounds, checked before anything is allocated: a declared length must fit in the bytes
 * left (4 bytes per integer or list element, 8 per double or string), the total count of
 * elements (compact sequences included, which take no bytes) must stay within
 * `maxElements`, and lists may nest at most `maxDepth` levels. The input is already
 * decompressed: {@link gunzipBounded} bounds that step.
 */
import { Gunzip } from 'fflate';
import { IndapiError } from '../errors';
import { concatBytes } from './bytes';
import { formatR15 } from './rds-read';

const NA_INTEGER = -2147483648;

/** Names of a vector or list (the `names` attribute; NA names as the text `NA`). */
type Names = { names?: string[] };

/** One R value as read; NA elements are `null`. */
export type RdsValue =
  | { type: 'NULL' }
  | ({ type: 'logical'; values: Array<boolean | null> } & Names)
  | ({ type: 'integer' | 'double'; values: Array<number | null> } & Names)
  | ({ type: 'character'; values: Array<string | null> } & Names)
  /** A factor, its codes already replaced by their level texts. */
  | ({ type: 'factor'; values: Array<string | null>; levels: string[] } & Names)
  | ({ type: 'list'; values: RdsValue[] } & Names);

/** Bounds of {@link readRdsValue}. */
export interface RdsValueLimits {
  /** Deepest nesting of lists (a vector at the top is depth 0, `list(1)` depth 1). */
  maxDepth: number;
  /** Most elements in all vectors and lists of the object together. */
  maxElements: number;
  /** The object's name in messages, whose elements are written as R indexes it (default `x`: `x[[2]][[1]]`). */
  name?: string;
}

/** Why an R object was refused or could not be read, for a 400 answer. */
export class RdsValueError extends IndapiError {
  constructor(message: string) {
    super('UNPARSABLE', message);
  }
}

/** What each refused SEXP type is, in words a user of R knows. */
const REFUSED: Record<number, string> = {
  1: 'a symbol (an R name)',
  2: 'a pairlist',
  3: 'a function (closure)',
  4: 'an environment',
  5: 'a promise',
  6: 'a language object (an unevaluated call)',
  7: 'a special function',
  8: 'a builtin function',
  15: 'a complex vector',
  17: 'a ... object',
  20: 'an expression vector',
  21: 'byte code',
  22: 'an external pointer',
  23: 'a weak reference',
  24: 'a raw vector',
  25: 'an S4 object',
  241: 'an environment (baseenv())',
  242: 'an environment (emptyenv())',
  247: 'a package environment',
  248: 'a namespace',
  249: 'a persistent object (refhook)',
  250: 'a namespace (base)',
  251: 'a missing argument',
  252: 'an unbound value',
  253: 'an environment (globalenv())',
  255: 'a reference to an environment',
};

/** Bytes each element of a vector takes at least (bounds a declared length by the bytes left). */
const MIN_BYTES: Record<number, number> = { 10: 4, 13: 4, 14: 8, 16: 8, 19: 4, 20: 4 };

function latin1(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
  return s;
}

/**
 * Reads one R object from decompressed serialization bytes.
 * @param bytes the stream (`X\n` or `B\n`, version 2 or 3), nothing after the object
 * @param limits nesting and element bounds
 * @returns the value
 * @throws RdsValueError (code UNPARSABLE) naming what was refused or why the bytes cannot be
 *   read: no header, ASCII format, a version other than 2/3, a refused type, class or
 *   attribute, a length beyond the bytes or the limits, nesting past `maxDepth`, a truncated
 *   stream or bytes after the object. The message names the element as R indexes it (`x[[2]]`).
 */
export function readRdsValue(bytes: Uint8Array, limits: RdsValueLimits): RdsValue {
  return new ValueReader(bytes, limits).read();
}

class ValueReader {
  private pos = 0;
  private readonly view: DataView;
  private le = false;
  private utf8Native = false;
  private latin1Native = false;
  private elements = 0;
  private readonly symbols: string[] = [];
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });

  constructor(
    private readonly b: Uint8Array,
    private readonly limits: RdsValueLimits,
  ) {
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  private fail(msg: string): never {
    throw new RdsValueError(msg);
  }

  private need(n: number): void {
    if (this.b.length - this.pos < n) this.fail(`the serialized object ends early (truncated at byte ${this.b.length})`);
  }

  private int(): number {
    this.need(4);
    const v = this.view.getInt32(this.pos, this.le);
    this.pos += 4;
    return v;
  }

  read(): RdsValue {
    this.need(2);
    const [m0, m1] = [this.b[0], this.b[1]];
    this.pos = 2;
    if (m1 !== 0x0a || (m0 !== 0x58 && m0 !== 0x42 && m0 !== 0x41)) this.fail('not R serialization (no X, B or A header: send serialize(args, NULL) or a saveRDS() file)');
    if (m0 === 0x41) this.fail('ASCII serialization (serialize(ascii = TRUE)) is not read; send serialize(args, NULL)');
    this.le = m0 === 0x42;
    const version = this.int();
    if (version !== 2 && version !== 3) this.fail(`serialization format version ${version} (2 and 3 are read)`);
    this.int(); // writer's R version
    this.int(); // oldest R version that reads it
    if (version === 3) {
      const n = this.int();
      if (n < 0 || n > 64) this.fail('bad native encoding name');
      this.need(n);
      const enc = latin1(this.b.subarray(this.pos, this.pos + n));
      this.pos += n;
      this.utf8Native = /^utf-?8$/i.test(enc);
      this.latin1Native = /^(latin-?1|iso[-_]?8859-?1)$/i.test(enc);
    }
    const v = this.item(0, this.limits.name ?? 'x');
    if (this.pos !== this.b.length) this.fail(`${this.b.length - this.pos} bytes follow the serialized object`);
    return v;
  }

  /** Reads a vector length and checks it against the bytes left and the element budget. */
  private length(type: number, where: string): number {
    const n = this.int();
    if (n === -1) this.fail(`${where} is a long vector (2^31 elements or more), beyond the limits`);
    if (n < 0) this.fail(`${where} has a negative length (${n})`);
    const left = this.b.length - this.pos;
    if (n * MIN_BYTES[type] > left) this.fail(`${where} declares ${n} elements, more than the ${left} bytes left in the body hold`);
    this.count(n, where);
    return n;
  }

  private count(n: number, where: string): void {
    this.elements += n;
    if (this.elements > this.limits.maxElements) this.fail(`${where} takes the object past ${this.limits.maxElements} elements in all, the limit`);
  }

  private item(depth: number, where: string): RdsValue {
    const flags = this.int();
    const type = flags & 0xff;
    if (type === 254) return { type: 'NULL' };
    const v = this.payload(flags, depth, where);
    if (flags & 512) this.attributes(v, depth, where);
    return finish(v, where, (m) => this.fail(m));
  }

  /** The payload of one item (no attributes yet). */
  private payload(flags: number, depth: number, where: string): RdsValue & { attr?: Attr } {
    const type = flags & 0xff;
    switch (type) {
      case 10: {
        const n = this.length(type, where);
        const values: Array<boolean | null> = new Array(n);
        for (let i = 0; i < n; i++) {
          const x = this.int();
          values[i] = x === NA_INTEGER ? null : x !== 0;
        }
        return { type: 'logical', values };
      }
      case 13: {
        const n = this.length(type, where);
        const values: Array<number | null> = new Array(n);
        for (let i = 0; i < n; i++) {
          const x = this.int();
          values[i] = x === NA_INTEGER ? null : x;
        }
        return { type: 'integer', values };
      }
      case 14: {
        const n = this.length(type, where);
        const values: Array<number | null> = new Array(n);
        for (let i = 0; i < n; i++, this.pos += 8) {
          const x = this.view.getFloat64(this.pos, this.le);
          values[i] = x === x ? x : this.isNA(this.pos) ? null : NaN;
        }
        return { type: 'double', values };
      }
      case 16: {
        const n = this.length(type, where);
        const values: Array<string | null> = new Array(n);
        for (let i = 0; i < n; i++) values[i] = this.charsxp(where);
        return { type: 'character', values };
      }
      case 19: {
        if (depth + 1 > this.limits.maxDepth) this.fail(`lists nest more than ${this.limits.maxDepth} levels deep in ${where.replace(/\[\[.*$/, '')}, the limit`);
        const n = this.length(type, where);
        const values: RdsValue[] = new Array(n);
        for (let i = 0; i < n; i++) values[i] = this.item(depth + 1, `${where}[[${i + 1}]]`);
        return { type: 'list', values };
      }
      case 238:
        return this.altrep(depth, where);
      default:
        return this.fail(`${where} is ${REFUSED[type] ?? `of R type ${type}`}; send data only: character, numeric, integer, logical or factor vectors and lists of them`);
    }
  }

  /** NA_real_ is the NaN whose low 32-bit word is 1954 (R's R_ValueOfNA). */
  private isNA(at: number): boolean {
    return this.view.getUint32(this.le ? at : at + 4, this.le) === 1954;
  }

  private charsxp(where: string): string | null {
    const flags = this.int();
    if ((flags & 0xff) !== 9) this.fail(`${where}: a character vector holds a non-string item (R type ${flags & 0xff})`);
    const n = this.int();
    if (n === -1) return null;
    if (n < 0) this.fail(`${where}: bad string length ${n}`);
    this.need(n);
    const s = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    const gp = flags >>> 12;
    if (s.every((x) => x < 0x80)) return latin1(s);
    // the string's own mark first (R's LATIN1_MASK 4, UTF8_MASK 8, BYTES_MASK 2: a Latin-1 string
    // from a UTF-8 session keeps its mark), then the writer's native encoding
    if (gp & 8) return new TextDecoder('utf-8').decode(s);
    if (gp & 6) return latin1(s);
    if (this.utf8Native) return new TextDecoder('utf-8').decode(s);
    if (this.latin1Native) return latin1(s);
    try {
      return this.utf8.decode(s);
    } catch {
      return latin1(s);
    }
  }

  /** A symbol (SYMSXP, or a reference to one read before): attribute tags and ALTREP class names. */
  private symbol(where: string): string {
    const flags = this.int();
    const type = flags & 0xff;
    if (type === 255) {
      const i = flags >>> 8 || this.int();
      const s = this.symbols[i - 1];
      if (s === undefined) this.fail(`${where}: a reference (${i}) to something that is not a symbol, such as an environment`);
      return s;
    }
    if (type !== 1) this.fail(`${where}: expected a symbol, found ${REFUSED[type] ?? `R type ${type}`}`);
    const name = this.charsxp(where) ?? 'NA';
    this.symbols.push(name);
    return name;
  }

  /**
   * The attribute pairlist after an item: names, class and levels are kept; any other
   * attribute is refused by name.
   */
  private attributes(v: RdsValue & { attr?: Attr }, depth: number, where: string): void {
    const attr: Attr = v.attr ?? {};
    let flags = this.int();
    while ((flags & 0xff) !== 254) {
      if ((flags & 0xff) !== 2 || !(flags & 1024)) this.fail(`${where} has unreadable attributes`);
      if (flags & 512) this.fail(`${where} has attributes on its attributes`);
      const tag = this.symbol(where);
      if (tag !== 'names' && tag !== 'class' && tag !== 'levels') {
        this.fail(`${where} has the attribute '${tag}'${tag === 'dim' ? ' (a matrix or array)' : ''}; only names, and a factor's levels, are read`);
      }
      const a = this.item(depth, `the ${tag} of ${where}`);
      if (a.type !== 'character' || a.names) this.fail(`the ${tag} of ${where} is not a character vector`);
      attr[tag] = a.values;
      flags = this.int();
    }
    v.attr = attr;
  }

  /** An ALTREP item: info (class, package, type), state, attributes. */
  private altrep(depth: number, where: string): RdsValue & { attr?: Attr } {
    const info = this.int();
    if ((info & 0xff) !== 2) this.fail(`${where}: bad ALTREP header`);
    const cls = this.symbol(where);
    this.int(); // CDR: package symbol
    this.symbol(where);
    this.int(); // CDR: the base type
    const base = this.item(depth, where);
    if (this.int() !== 254) this.fail(`${where}: bad ALTREP header`);
    if (base.type !== 'integer' || base.values.length !== 1) this.fail(`${where}: bad ALTREP header`);
    let v: RdsValue & { attr?: Attr };
    if (cls === 'compact_intseq' || cls === 'compact_realseq') {
      const st = this.item(depth, where);
      if ((st.type !== 'double' && st.type !== 'integer') || st.values.length !== 3) this.fail(`${where}: bad ${cls} state`);
      const [n, start, step] = st.values as number[];
      if (!Number.isInteger(n) || n < 0) this.fail(`${where}: bad ${cls} length`);
      this.count(n, where);
      const values = Array.from({ length: n }, (_, i) => start + i * step);
      v = { type: cls === 'compact_intseq' ? 'integer' : 'double', values };
    } else if (cls.startsWith('wrap_') || cls === 'deferred_string') {
      // state: a pairlist cell (CONS) whose CAR is the vector and whose CDR is metadata
      const f = this.int();
      if ((f & 0xff) !== 2 || f & (512 | 1024)) this.fail(`${where}: bad ${cls} state`);
      const inner = this.item(depth, where);
      const meta = this.item(depth, where);
      if (meta.type !== 'integer' && meta.type !== 'NULL' && meta.type !== 'double') this.fail(`${where}: bad ${cls} state`);
      if (inner.type === 'NULL' || inner.type === 'list' || inner.type === 'factor') this.fail(`${where}: bad ${cls} state`);
      if (cls === 'deferred_string') {
        const text = (x: number | boolean | string | null): string | null => (x === null ? null : typeof x === 'number' ? formatR15(x) : String(x));
        v = { type: 'character', values: (inner.values as Array<number | string | null>).map(text) };
      } else {
        const { names: _drop, ...plain } = inner;
        void _drop;
        v = plain;
      }
    } else {
      return this.fail(`${where} is an ALTREP object of class ${cls}, which is not read; send a plain vector`);
    }
    const flags = this.int();
    if ((flags & 0xff) !== 254) {
      this.pos -= 4;
      this.attributes(v, depth, where);
    }
    return v;
  }
}

/** The attributes kept while reading. */
type Attr = { names?: Array<string | null>; class?: Array<string | null>; levels?: Array<string | null> };

/** Applies the kept attributes: names, and a factor's class and levels. */
function finish(v: RdsValue & { attr?: Attr }, where: string, fail: (m: string) => never): RdsValue {
  const attr = v.attr;
  if (!attr) return v;
  delete v.attr;
  if (v.type === 'NULL') return v;
  const cls = attr.class;
  let out: RdsValue = v;
  if (cls) {
    if (cls.length !== 1 || cls[0] !== 'factor') fail(`${where} is an object of class ${cls.map((c) => `'${c}'`).join(', ')}; send plain vectors, factors or lists`);
    if (v.type !== 'integer') return fail(`${where} has class 'factor' but is not an integer vector`);
    const levels = (attr.levels ?? []).map((s) => s ?? 'NA');
    const values = v.values.map((c) => {
      if (c === null) return null;
      if (c < 1 || c > levels.length) fail(`${where}: factor code ${c} has no level`);
      return levels[c - 1];
    });
    out = { type: 'factor', values, levels };
  } else if (attr.levels) {
    fail(`${where} has levels but is not a factor`);
  }
  if (attr.names) {
    if (attr.names.length !== v.values.length) fail(`${where} has ${attr.names.length} names for ${v.values.length} elements`);
    (out as Names).names = attr.names.map((s) => s ?? 'NA');
  }
  return out;
}

/** What {@link gunzipBounded} found. */
export type Compression = 'gzip' | 'none';

/**
 * Removes gzip compression (RFC 1952, as `saveRDS()` and `gzcon()` write it) from a body,
 * stopping as soon as the output passes `maxBytes` (a decompression bomb costs at most that
 * much memory); bytes that are not gzip are returned as they are. bzip2 and xz are refused.
 * @param bytes the body
 * @param maxBytes the largest decompressed size accepted
 * @returns the decompressed bytes
 * @throws RdsValueError when the output passes `maxBytes`, the gzip stream is corrupt, or
 *   the body is bzip2- or xz-compressed
 */
export function gunzipBounded(bytes: Uint8Array, maxBytes: number): Uint8Array {
  if (bytes[0] === 0x42 && bytes[1] === 0x5a && bytes[2] === 0x68) throw new RdsValueError('bzip2 compression is not read; send serialize(args, NULL) or gzip');
  if (bytes[0] === 0xfd && bytes[1] === 0x37 && bytes[2] === 0x7a) throw new RdsValueError('xz compression is not read; send serialize(args, NULL) or gzip');
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const parts: Uint8Array[] = [];
  let total = 0;
  const g = new Gunzip((chunk) => {
    total += chunk.length;
    if (total > maxBytes) throw new RdsValueError(`the gzip-compressed body decompresses to more than ${maxBytes} bytes, the limit`);
    parts.push(chunk);
  });
  const STEP = 4096; // at most ~4 MB of output per step (deflate expands at most 1032:1)
  try {
    for (let i = 0; i < bytes.length; i += STEP) g.push(bytes.subarray(i, i + STEP), i + STEP >= bytes.length);
  } catch (e) {
    if (e instanceof RdsValueError) throw e;
    throw new RdsValueError(`the gzip-compressed body is corrupt (${(e as Error).message})`);
  }
  return concatBytes(parts);
}
