/**
 * Reader of R's serialization format (`saveRDS`, and the first object of a `save()` file)
 * for a data.frame or data.table, column by column, so a caller can spill each column before
 * the next is read (a 303,000 x 750 table is 1.8 GB of doubles; one column is 2.4 MB).
 *
 * Spec: "R Internals", section 1.8 "Serialization Formats"
 * (https://cran.r-project.org/doc/manuals/r-release/R-ints.html#Serialization-Formats);
 * the writer src/core/formats/rds.ts encodes the same facts. Read here (the input is already
 * decompressed; the caller removes gzip):
 *
 * - header `X\n` (XDR, big-endian) or `B\n` (native, little-endian; `A\n` ASCII is refused),
 *   optionally preceded by `RDX2\n`/`RDX3\n` (a `save()` file: a pairlist of named objects,
 *   the first is taken); int format version 2 or 3, int writer version, int minimal reader
 *   version; version 3 adds int length + the native encoding name;
 * - items: int flags = type (bits 0-7) | object (bit 8) | attributes (bit 9) | tag (bit 10) |
 *   gp levels (bits 12-27), then the payload; attributes (a pairlist) follow the payload;
 * - vectors: int length (-1: two further ints give a long length), elements; NA_integer_ is
 *   INT_MIN, NA_real_ a NaN; CHARSXP length -1 is NA_character_, gp bit 3 UTF-8, bit 2
 *   Latin-1, bit 1 bytes, bit 6 ASCII (none: the header's native encoding);
 * - the reference table: SYMSXP, ENVSXP, EXTPTRSXP, WEAKREFSXP, PACKAGESXP, NAMESPACESXP and
 *   PERSISTSXP items are numbered in order of appearance; REFSXP (255) gives the 1-based
 *   number in flags bits 8-31 (0: in the next int);
 * - ALTREP_SXP (238): info pairlist (class symbol, package symbol, type), state, attributes.
 *   Classes read: `compact_intseq` / `compact_realseq` (state: double n, start, step),
 *   `wrap_integer`, `wrap_real`, `wrap_logical`, `wrap_string`, ... (state: pairlist whose
 *   CAR is the wrapped vector) and `deferred_string` (state: pairlist whose CAR is the integer
 *   or double vector to be turned into text). Other classes are refused by name.
 *
 * A data.table is a data.frame with class `c("data.table", "data.frame")` and an
 * `.internal.selfref` external pointer attribute (EXTPTRSXP: references, protected value,
 * tag, attributes), read and ignored like any other attribute.
 */
import { IndapiError } from '../errors';
import { ChunkReader } from './chunks';

const NA_INTEGER = -2147483648;

/** A column of the data frame as serialized. */
export type RColumn =
  /** REALSXP; NA as NaN (R's NA_real_ is a NaN). */
  | { kind: 'double'; values: Float64Array }
  /** INTSXP; NA_integer_ as INT_MIN. */
  | { kind: 'integer'; values: Int32Array }
  /** LGLSXP: 1 TRUE, 0 FALSE, INT_MIN NA. */
  | { kind: 'logical'; values: Int32Array }
  /** STRSXP; null for NA_character_. */
  | { kind: 'string'; values: Array<string | null> }
  /** A factor: 1-based codes (INT_MIN NA) into `levels`. */
  | { kind: 'factor'; codes: Int32Array; levels: string[] };

/** What {@link readRdsTable} found. */
export interface RdsTable {
  /** Column names (the `names` attribute). */
  names: string[];
  /** Rows (from `row.names`, compact `c(NA, -n)` or a full vector). */
  rows: number;
  /** The `class` attribute, e.g. ["data.table", "data.frame"]. */
  classes: string[];
  /** Serialization format version (2 or 3). */
  version: number;
}

/** Options of {@link readRdsTable}. */
export interface RdsReadOptions {
  /** Name of the input for messages (the file name). */
  what: string;
  /** Receives each column as soon as it is read (index 0-based; names come at the end). */
  onColumn: (index: number, column: RColumn) => void | Promise<void>;
  /** Aborts between columns. */
  signal?: AbortSignal;
  /**
   * Longest vector (items) or string (bytes) read; a longer one is refused as soon as its
   * length is read, before any of its data (a gzip bomb of 150 M zeros is refused at once
   * instead of filling memory). Default {@link RDS_MAX_VECTOR_LENGTH}.
   */
  maxLength?: number;
  /**
   * Most bytes of text in one character vector (a column), and in the whole table four times
   * as many, counted as the strings are read: past it the read fails at once (an .rds whose
   * text column stayed within the row limit but held gigabytes ran 310 s at 3.2 GB before
   * failing). Default {@link RDS_MAX_COLUMN_TEXT_BYTES}.
   */
  maxColumnTextBytes?: number;
}

/**
 * Default most bytes of text in one column of {@link readRdsTable}: 256 MiB, 27 bytes a row
 * over every cell of the global grid (codes, names and class labels take far less); the
 * whole table may hold four times as many (1 GiB).
 */
export const RDS_MAX_COLUMN_TEXT_BYTES = 256 * 1024 * 1024;

/**
 * Default longest vector of {@link readRdsTable}: the cells of the global 5-arc-minute grid
 * (4320 x 2160 = 9,331,200): no CELL5M table has more rows, columns or classes.
 */
export const RDS_MAX_VECTOR_LENGTH = 4320 * 2160;

/** A value of the serialization stream (the parts this reader needs). */
type RObj =
  | { t: 'nil' }
  | { t: 'sym'; name: string }
  | { t: 'real'; v: Float64Array; attr?: Map<string, RObj> }
  | { t: 'int'; v: Int32Array; attr?: Map<string, RObj>; lgl?: boolean }
  | { t: 'str'; v: Array<string | null>; attr?: Map<string, RObj> }
  | { t: 'list'; v: RObj[]; attr?: Map<string, RObj> }
  | { t: 'pair'; items: Array<{ tag?: string; value: RObj }>; attr?: Map<string, RObj> }
  | { t: 'char'; v: string | null }
  | { t: 'other'; sxp: number; attr?: Map<string, RObj> };

/** Longest string (bytes) {@link readRdsTable} reads: 16 MiB. */
export const RDS_MAX_STRING_BYTES = 1 << 24;

const NIL: RObj = { t: 'nil' };

const fail = (what: string, msg: string): never => {
  throw new IndapiError('UNPARSABLE', `${what} is not a readable R data file: ${msg}`);
};

function latin1(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
  return s;
}

function ascii(b: Uint8Array): string | null {
  for (let i = 0; i < b.length; i++) if (b[i] >= 0x80) return null;
  return b.length < 64 ? String.fromCharCode(...b) : latin1(b);
}

/**
 * Reads a serialized data.frame / data.table from decompressed bytes, handing each column to
 * `onColumn` as it is read, and returns the names and row count found after the columns.
 * @param chunks the decompressed stream (`X\n...`, `B\n...` or `RDX3\nX\n...`)
 * @param opts column callback, input name, abort signal
 * @returns names, rows, class and format version
 * @throws IndapiError UNPARSABLE when the stream is not R serialization, is truncated, is not
 *   a data.frame, holds a column type other than double/integer/logical/character/factor or an
 *   unsupported ALTREP class; ABORTED when aborted
 */
export async function readRdsTable(chunks: AsyncIterable<Uint8Array>, opts: RdsReadOptions): Promise<RdsTable> {
  const r = new ChunkReader(chunks, opts.what);
  const { version, nativeEnc } = await readHeader(r, opts.what);
  const items = new RdsItems(r, opts.what, nativeEnc, opts.maxLength ?? RDS_MAX_VECTOR_LENGTH, opts.maxColumnTextBytes ?? RDS_MAX_COLUMN_TEXT_BYTES);
  return readFrame(items, version, opts);
}

/**
 * Reads the stream's header: the optional `RDX2\n`/`RDX3\n` of a save() file, the format
 * (`X\n` big-endian or `B\n` little-endian, which it sets on `r`), the versions and (version
 * 3) the native encoding's name.
 * @throws IndapiError UNPARSABLE when the header is not one of R's binary serializations
 */
async function readHeader(r: ChunkReader, what: string): Promise<{ version: number; nativeEnc: string }> {
  await r.need(2);
  let magic = r.bytes(2);
  if (magic[0] === 0x52 && magic[1] === 0x44) {
    // RDX2\n / RDX3\n (save())
    await r.need(3);
    const rest = r.bytes(3);
    if (rest[0] !== 0x58 || (rest[1] !== 0x32 && rest[1] !== 0x33) || rest[2] !== 0x0a) fail(what, 'unknown RData header');
    await r.need(2);
    magic = r.bytes(2);
  }
  if (magic[1] !== 0x0a) fail(what, 'no serialization header (expected X, B or A and a newline)');
  if (magic[0] === 0x41) fail(what, 'ASCII serialization (saveRDS(ascii = TRUE)) is not read; re-save with saveRDS(x, file) (binary, gzip).');
  if (magic[0] === 0x42) r.littleEndian = true;
  else if (magic[0] !== 0x58) fail(what, 'no serialization header (expected X, B or A and a newline)');
  const version = await r.int();
  if (version !== 2 && version !== 3) fail(what, `serialization format version ${version} (2 and 3 are read)`);
  await r.int(); // writer R version
  await r.int(); // minimal reader version
  let nativeEnc = '';
  if (version === 3) {
    const n = await r.int();
    if (n < 0 || n > 1000) fail(what, 'bad native encoding length');
    await r.need(n);
    nativeEnc = latin1(r.bytes(n));
  }
  return { version, nativeEnc };
}

/**
 * Reads the table after the header: a VECSXP (or the first object of a save() pairlist)
 * whose items are the columns, each handed to `opts.onColumn`, then its attributes (class
 * data.frame, names, row.names), checked against the columns.
 * @throws IndapiError UNPARSABLE when it is not a data.frame; ABORTED between columns
 */
async function readFrame(items: RdsItems, version: number, opts: RdsReadOptions): Promise<RdsTable> {
  const { what, r } = items;
  let flags = await r.int();
  if ((flags & 0xff) === 2) {
    if (flags & 512) await items.item();
    if (flags & 1024) await items.item(); // the object's name
    flags = await r.int();
  }
  if ((flags & 0xff) !== 19) fail(what, `the object is not a data.frame (R type ${flags & 0xff})`);
  const ncol = await items.length();
  let nrow = -1;
  for (let i = 0; i < ncol; i++) {
    if (opts.signal?.aborted) throw new IndapiError('ABORTED', 'The ingest was aborted.');
    const col = toColumn(await items.item(), i, what);
    const n = col.kind === 'factor' ? col.codes.length : col.values.length;
    if (nrow < 0) nrow = n;
    else if (n !== nrow) fail(what, `column ${i + 1} has ${n} values, column 1 has ${nrow}`);
    await opts.onColumn(i, col);
  }
  if (!(flags & 512)) fail(what, 'the list has no attributes (names, class): not a data.frame');
  const attr = attrsOf(await items.item()) ?? new Map<string, RObj>();
  const cls = attr.get('class');
  const classes = cls?.t === 'str' ? cls.v.map((s) => s ?? '') : [];
  if (!classes.includes('data.frame')) fail(what, `the object's class is ${classes.length ? classes.join(', ') : 'none'}, not data.frame`);
  const nm = attr.get('names');
  const names = nm?.t === 'str' ? nm.v.map((s) => s ?? 'NA') : [];
  if (names.length !== ncol) fail(what, 'the column names are missing');
  const rn = attr.get('row.names');
  let rows = nrow < 0 ? 0 : nrow;
  if (rn?.t === 'int' && rn.v.length === 2 && rn.v[0] === NA_INTEGER) rows = Math.abs(rn.v[1]);
  else if (rn && (rn.t === 'int' || rn.t === 'real' || rn.t === 'str')) rows = rn.v.length;
  if (nrow >= 0 && rows !== nrow) fail(what, `row.names give ${rows} rows, the columns ${nrow}`);
  return { names, rows, classes, version };
}

/** The attributes pairlist of an item as a map by tag (undefined when it is not a pairlist). */
function attrsOf(o: RObj): Map<string, RObj> | undefined {
  if (o.t !== 'pair') return undefined;
  const m = new Map<string, RObj>();
  for (const it of o.items) if (it.tag !== undefined) m.set(it.tag, it.value);
  return m;
}

/**
 * The items of one serialization stream (after its header): vectors, strings in their
 * declared encodings, pairlists, ALTREP objects, and the reference table they share.
 */
class RdsItems {
  private readonly refs: RObj[] = [];
  private readonly nativeUtf8: boolean;
  private readonly nativeLatin1: boolean;
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });
  private readonly utf8lax = new TextDecoder('utf-8');

  /**
   * @param r the stream, positioned after the header
   * @param what the input's name for messages
   * @param nativeEnc the header's native encoding ('' before version 3)
   * @param maxLength longest vector or string read
   */
  /** Bytes of text read in the whole stream. */
  private textBytes = 0;

  /**
   * @param maxColumnTextBytes most bytes of text in one character vector (four times as many in all)
   */
  constructor(readonly r: ChunkReader, readonly what: string, nativeEnc: string, private readonly maxLength: number, private readonly maxColumnTextBytes = RDS_MAX_COLUMN_TEXT_BYTES) {
    this.nativeUtf8 = /^utf-?8$/i.test(nativeEnc);
    this.nativeLatin1 = /^(latin-?1|iso[-_]?8859-?1)$/i.test(nativeEnc);
  }

  /** `n`, or UNPARSABLE when a vector of `n` items (at byte `at`) is longer than allowed. */
  bounded(n: number, at: number): number {
    if (n > this.maxLength) fail(this.what, `a vector of ${n} items at byte ${at}, more than the ${this.maxLength} cells of the global 5-arc-minute grid (a CELL5M table has at most that many rows)`);
    return n;
  }

  /** A vector length (an int, or -1 and two ints for a long vector), bounded. */
  async length(): Promise<number> {
    const r = this.r, at = r.offset;
    const n = await r.int();
    if (n >= 0) return this.bounded(n, at);
    if (n !== -1) fail(this.what, `negative vector length at byte ${r.offset}`);
    const hi = await r.int();
    const lo = await r.int();
    return this.bounded(hi * 4294967296 + (lo >>> 0), at);
  }

  /** A CHARSXP's text (null for NA_character_) in its declared encoding (gp `levels`), else the native one. */
  async charsxp(levels: number): Promise<string | null> {
    const r = this.r;
    const n = await r.int();
    if (n === -1) return null;
    if (n < 0) fail(this.what, `bad string length at byte ${r.offset}`);
    if (n > RDS_MAX_STRING_BYTES) fail(this.what, `a string of ${n} bytes at byte ${r.offset} (at most ${RDS_MAX_STRING_BYTES} are read)`);
    if (r.available < n) await r.need(n);
    const b = r.bytes(n);
    const a = ascii(b);
    if (a !== null) return a;
    if (levels & 8) return this.utf8lax.decode(b);
    if (levels & 4 || levels & 2) return latin1(b);
    if (this.nativeUtf8) return this.utf8lax.decode(b);
    if (this.nativeLatin1) return latin1(b);
    try {
      return this.utf8.decode(b);
    } catch {
      return latin1(b);
    }
  }

  /** The next item. */
  async item(): Promise<RObj> {
    return this.itemF(await this.r.int());
  }

  /** A persistent string vector (of references to packages, namespaces, ...), as texts. */
  private async stringVec(): Promise<string[]> {
    if ((await this.r.int()) !== 0) fail(this.what, 'bad persistent string vector');
    const n = await this.length();
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const o = await this.item();
      out.push(o.t === 'char' ? (o.v ?? '') : '');
    }
    return out;
  }

  /** A pairlist (or language object) whose first cell has `flags`: attributes, tags and values of each cell. */
  private async pairlist(flags: number): Promise<RObj> {
    const out: RObj & { t: 'pair' } = { t: 'pair', items: [] };
    let f = flags;
    for (;;) {
      const type = f & 0xff;
      const hasAttr = (f & 512) !== 0 || type === 239 || type === 240;
      const attr = hasAttr ? attrsOf(await this.item()) : undefined;
      if (out.items.length === 0 && attr) out.attr = attr;
      let tag: string | undefined;
      if (f & 1024) {
        const t = await this.item();
        tag = t.t === 'sym' ? t.name : t.t === 'char' ? (t.v ?? '') : undefined;
      }
      out.items.push({ tag, value: await this.item() });
      f = await this.r.int();
      const nt = f & 0xff;
      if (nt === 254) return out;
      if (nt !== 2 && nt !== 239) {
        out.items.push({ value: await this.itemF(f) }); // a dotted pair's CDR (ALTREP wrapper metadata)
        return out;
      }
    }
  }

  /** An ALTREP object (info, state, attributes) as the plain vector it stands for. */
  private async altrep(): Promise<RObj> {
    const info = await this.item();
    const state = await this.item();
    const attr = attrsOf(await this.item());
    const cls = info.t === 'pair' && info.items[0]?.value.t === 'sym' ? (info.items[0].value as { name: string }).name : '?';
    const o = altrepValue(cls, state, this.what, (n) => this.bounded(n, this.r.offset));
    if (attr) (o as { attr?: Map<string, RObj> }).attr = attr;
    return o;
  }

  /** The item whose flags (type, object, attributes, tag, gp levels) were just read. */
  private async itemF(flags: number): Promise<RObj> {
    const { r, what, refs } = this;
    const type = flags & 0xff;
    const levels = flags >>> 12;
    const hasAttr = (flags & 512) !== 0;
    let o: RObj;
    switch (type) {
      case 254: case 253: case 252: case 251: case 250: case 242: case 241:
        return NIL;
      case 255: {
        let i = flags >>> 8;
        if (i === 0) i = await r.int();
        const ref = refs[i - 1];
        if (!ref) fail(what, `bad reference ${i} at byte ${r.offset}`);
        return ref;
      }
      case 247: case 248: case 249: {
        const obj: RObj = { t: 'other', sxp: type };
        await this.stringVec();
        refs.push(obj);
        return obj;
      }
      case 1: {
        const c = await this.item();
        const obj: RObj = { t: 'sym', name: c.t === 'char' ? (c.v ?? 'NA') : '' };
        refs.push(obj);
        return obj;
      }
      case 4: {
        const obj: RObj = { t: 'other', sxp: 4 };
        refs.push(obj);
        await r.int(); // locked
        await this.item(); // enclosure
        await this.item(); // frame
        await this.item(); // hash table
        await this.item(); // attributes
        return obj;
      }
      case 2: case 3: case 5: case 6: case 17: case 239: case 240:
        return this.pairlist(flags);
      case 22: {
        o = { t: 'other', sxp: 22 };
        refs.push(o);
        await this.item(); // protected value
        await this.item(); // tag
        break;
      }
      case 23:
        o = { t: 'other', sxp: 23 };
        refs.push(o);
        break;
      case 7: case 8: {
        const n = await r.int();
        await r.raw(this.bounded(n, r.offset));
        o = { t: 'other', sxp: type };
        break;
      }
      case 9:
        o = { t: 'char', v: await this.charsxp(levels) };
        break;
      case 10: case 13:
        o = { t: 'int', v: await r.ints(await this.length()), lgl: type === 10 };
        break;
      case 14:
        o = { t: 'real', v: await r.doubles(await this.length()) };
        break;
      case 15:
        await r.doubles(2 * (await this.length()));
        o = { t: 'other', sxp: 15 };
        break;
      case 16:
        o = { t: 'str', v: await this.strings() };
        break;
      case 19: case 20: {
        const n = await this.length();
        const v: RObj[] = [];
        for (let i = 0; i < n; i++) v.push(await this.item());
        o = { t: 'list', v };
        break;
      }
      case 24:
        await r.raw(await this.length());
        o = { t: 'other', sxp: 24 };
        break;
      case 25:
        o = { t: 'other', sxp: 25 };
        break;
      case 238:
        return this.altrep();
      default:
        return fail(what, `unsupported item type ${type} at byte ${r.offset} (bytecode, environments of closures or a corrupt file)`);
    }
    if (hasAttr) (o as { attr?: Map<string, RObj> }).attr = attrsOf(await this.item());
    return o;
  }

  /** A STRSXP's elements (after its flags): a length, then one CHARSXP each. */
  private async strings(): Promise<Array<string | null>> {
    const r = this.r;
    const n = await this.length();
    const v: Array<string | null> = new Array(n);
    let bytes = 0;
    const mb = (b: number) => `${Math.round(b / 2 ** 20)} MB`;
    for (let i = 0; i < n; i++) {
      const f = r.available >= 4 ? r.i32() : await r.int();
      if ((f & 0xff) !== 9) fail(this.what, `a character vector holds a non-string item (type ${f & 0xff}) at byte ${r.offset}`);
      const s = await this.charsxp(f >>> 12);
      v[i] = s;
      if (s === null) continue;
      // bounded as it is read: the text read so far (UTF-16 length, about the bytes for the text of a table)
      bytes += s.length;
      this.textBytes += s.length;
      if (bytes > this.maxColumnTextBytes) {
        fail(this.what, `a text column holds more than ${mb(this.maxColumnTextBytes)} of text (${i + 1} of its ${n} values read, at byte ${r.offset}); a CELL5M table's text columns (codes, names, classes) take far less: drop long free-text columns before saveRDS()`);
      }
      if (this.textBytes > 4 * this.maxColumnTextBytes) {
        fail(this.what, `the table holds more than ${mb(4 * this.maxColumnTextBytes)} of text (at byte ${r.offset}); drop long free-text columns before saveRDS()`);
      }
    }
    return v;
  }
}

/**
 * The plain vector an ALTREP object of class `cls` stands for, from its state (see the
 * module comment for the classes read).
 * @param bounded checks a sequence's length
 * @throws IndapiError UNPARSABLE for a bad state or a class not read
 */
function altrepValue(cls: string, state: RObj, what: string, bounded: (n: number) => number): RObj {
  if (cls === 'compact_intseq' || cls === 'compact_realseq') {
    const s = state.t === 'real' ? state.v : state.t === 'int' ? Float64Array.from(state.v) : fail(what, `bad ${cls} state`);
    const [n, start, step] = [s[0], s[1], s[2]];
    if (!(n >= 0)) fail(what, `bad ${cls} length`);
    bounded(n);
    const v = cls === 'compact_intseq' ? new Int32Array(n) : new Float64Array(n);
    for (let i = 0; i < n; i++) v[i] = start + i * step;
    return v instanceof Int32Array ? { t: 'int', v } : { t: 'real', v };
  }
  if (cls.startsWith('wrap_')) {
    const inner = state.t === 'pair' ? state.items[0]?.value : state.t === 'list' ? state.v[0] : undefined;
    if (!inner) fail(what, `bad ${cls} state`);
    return { ...(inner as RObj) } as RObj;
  }
  if (cls === 'deferred_string') {
    const arg = state.t === 'pair' ? state.items[0]?.value : undefined;
    if (arg?.t === 'int') return { t: 'str', v: Array.from(arg.v, (x) => (x === NA_INTEGER ? null : String(x))) };
    if (arg?.t === 'real') return { t: 'str', v: Array.from(arg.v, (x) => (x !== x ? null : formatR15(x))) };
    if (arg?.t === 'str') return { t: 'str', v: arg.v };
    return fail(what, 'bad deferred_string state');
  }
  return fail(what, `ALTREP class ${cls} is not read; in R, materialise it (e.g. x[] <- x) and save again`);
}

function toColumn(o: RObj, i: number, what: string): RColumn {
  const cls = o.t !== 'nil' && o.t !== 'sym' && o.t !== 'char' && 'attr' in o ? o.attr?.get('class') : undefined;
  const isFactor = cls?.t === 'str' && cls.v.includes('factor');
  if (o.t === 'int' && isFactor) {
    const lv = o.attr?.get('levels');
    const levels = lv?.t === 'str' ? lv.v.map((s) => s ?? 'NA') : [];
    return { kind: 'factor', codes: o.v, levels };
  }
  if (o.t === 'real') return { kind: 'double', values: o.v };
  if (o.t === 'int') return o.lgl ? { kind: 'logical', values: o.v } : { kind: 'integer', values: o.v };
  if (o.t === 'str') return { kind: 'string', values: o.v };
  return fail(what, `column ${i + 1} is of R type ${o.t === 'list' ? 'list' : o.t === 'other' ? o.sxp : o.t}; columns must be numeric, integer, logical, character or factor`);
}

/**
 * R's as.character of a double, as a `deferred_string` would give: at most 15 significant
 * digits, fixed notation unless scientific is shorter (R's rule with scipen = 0).
 */
export function formatR15(x: number): string {
  if (!isFinite(x)) return x > 0 ? 'Inf' : x < 0 ? '-Inf' : 'NaN';
  if (x === 0) return '0';
  const p = Number(x.toPrecision(15));
  let d = 1;
  while (d < 15 && Number(p.toPrecision(d)) !== p) d++;
  const [m, e] = p.toExponential(d - 1).split('e');
  const ex = Number(e);
  const sci = `${m}e${ex < 0 ? '-' : '+'}${String(Math.abs(ex)).padStart(2, '0')}`;
  const fixed = Math.abs(ex) < 21 ? p.toFixed(Math.max(0, d - 1 - ex)) : sci;
  return fixed.length <= sci.length ? fixed : sci;
}
