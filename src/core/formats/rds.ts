/**
 * R `.rds` and `.rda` writers: a data.frame in R's serialization format version 3, XDR
 * (big-endian), gzip-compressed, as `saveRDS(df)` writes it (`.rds`, read with `readRDS`),
 * or as `save(df, file = )` writes it (`.rda`, RData, opened with `load()`).
 *
 * Spec: "R Internals", section 1.8 "Serialization Formats"
 * (https://cran.r-project.org/doc/manuals/r-release/R-ints.html#Serialization-Formats),
 * and R's `src/main/serialize.c`. Written here:
 *
 * - header `X\n`, int 3 (format version), int writer R version (4.2.0 = 0x040200),
 *   int minimal reader version (3.5.0 = 0x030500), int length + native encoding "UTF-8";
 * - each item: an int of flags = type (bits 0-7) | is-object (bit 8) | has-attributes
 *   (bit 9) | has-tag (bit 10) | gp levels (bits 12-27), then its payload;
 * - VECSXP (19) / STRSXP (16) / INTSXP (13) / REALSXP (14): int length, then the elements
 *   (doubles as XDR IEEE 754; NA_real_ = NaN with low word 1954; NA_integer_ = INT_MIN);
 * - CHARSXP (9): int byte length (-1 for NA_character_), bytes; gp bit 3 marks UTF-8,
 *   bit 6 ASCII;
 * - attributes: a pairlist of LISTSXP (2) cells with tags (SYMSXP 1 + CHARSXP name),
 *   ended by NILVALUE_SXP (254).
 *
 * RData (`save()`, R's `src/main/saveload.c`, format "RDX3"): the magic `RDX3\n`, then the
 * same serialization stream of a pairlist (LISTSXP cells, each with the object's name as
 * its tag, ended by NILVALUE_SXP) of the saved objects; gzip-compressed as a whole.
 *
 * The data.frame is a list of columns with attributes `names`, `class = "data.frame"`,
 * compact `row.names = c(NA_integer_, -n)`, `var.labels` (as `foreign::read.dta` gives),
 * `datalabel` and `time.stamp`. Each column also carries a `label` attribute (haven/labelled
 * convention). Class columns are factors (1-based integer codes, `levels`, `class = "factor"`).
 */
import { gzipSync } from 'fflate';
import type { TableResult } from '../api';
import { ByteWriter, utf8 } from './bytes';
import { labelWithUnit, prepareColumns, type PreparedColumn } from './table';

const NILVALUE_SXP = 254;
const SYMSXP = 1;
const LISTSXP = 2;
const CHARSXP = 9;
const INTSXP = 13;
const REALSXP = 14;
const STRSXP = 16;
const VECSXP = 19;
const IS_OBJECT = 1 << 8;
const HAS_ATTR = 1 << 9;
const HAS_TAG = 1 << 10;
const UTF8_MASK = 1 << 3;
const ASCII_MASK = 1 << 6;
const NA_INTEGER = -2147483648;

/** An R value this writer can serialize. */
export type RValue =
  | { type: 'character'; values: Array<string | null>; attrs?: RAttr[] }
  | { type: 'integer'; values: Array<number | null>; attrs?: RAttr[] }
  | { type: 'double'; values: ArrayLike<number | null>; attrs?: RAttr[] }
  | { type: 'list'; values: RValue[]; attrs?: RAttr[] };

/** A named attribute. */
export type RAttr = [name: string, value: RValue];

/** Writes R's NA_real_: a NaN whose low word is 1954 (R's `R_NaReal`). */
function writeNaReal(w: ByteWriter): void {
  w.u32(0x7ff00000).u32(1954);
}

function writeCharsxp(w: ByteWriter, s: string | null): void {
  if (s === null) {
    w.i32(CHARSXP).i32(-1);
    return;
  }
  const b = utf8(s);
  const ascii = b.every((x) => x < 0x80);
  w.i32(CHARSXP | ((ascii ? ASCII_MASK : UTF8_MASK) << 12)).i32(b.length).bytes(b);
}

function writeAttrs(w: ByteWriter, attrs: RAttr[]): void {
  for (const [name, value] of attrs) {
    w.i32(LISTSXP | HAS_TAG);
    w.i32(SYMSXP);
    writeCharsxp(w, name);
    writeItem(w, value);
  }
  w.i32(NILVALUE_SXP);
}

function writeItem(w: ByteWriter, v: RValue): void {
  const attrs = v.attrs ?? [];
  const isObj = attrs.some(([n]) => n === 'class');
  const code = { character: STRSXP, integer: INTSXP, double: REALSXP, list: VECSXP }[v.type];
  w.i32(code | (isObj ? IS_OBJECT : 0) | (attrs.length ? HAS_ATTR : 0));
  w.i32(v.values.length);
  switch (v.type) {
    case 'character':
      for (const s of v.values) writeCharsxp(w, s);
      break;
    case 'integer':
      for (const x of v.values) w.i32(x === null ? NA_INTEGER : x);
      break;
    case 'double':
      for (let i = 0; i < v.values.length; i++) {
        const x = v.values[i];
        if (x === null || Number.isNaN(x)) writeNaReal(w);
        else w.f64(x);
      }
      break;
    case 'list':
      for (const x of v.values) writeItem(w, x);
      break;
  }
  if (attrs.length) writeAttrs(w, attrs);
}

/**
 * Serializes one R value (format version 3, XDR), uncompressed.
 * @param v the value
 * @returns the serialization stream
 */
export function serializeR(v: RValue): Uint8Array {
  const w = new ByteWriter(false, 4096);
  writeHeader(w);
  writeItem(w, v);
  return w.result();
}

/** Serialization header: `X\n`, version 3, writer R 4.2.0, minimal reader R 3.5.0, native encoding UTF-8. */
function writeHeader(w: ByteWriter): void {
  w.text('X\n');
  w.i32(3).i32(0x040200).i32(0x030500);
  const enc = 'UTF-8';
  w.i32(enc.length).text(enc);
}

/**
 * Serializes named R objects as the body of an RData file (what `save()` writes before
 * compression): `RDX3\n`, then the version 3 XDR stream of a pairlist whose cells are
 * tagged with the names.
 * @param objects the objects to save, as [name, value] pairs in order
 * @returns the uncompressed RData bytes
 */
export function serializeRData(objects: RAttr[]): Uint8Array {
  const w = new ByteWriter(false, 4096);
  w.text('RDX3\n');
  writeHeader(w);
  writeAttrs(w, objects);
  return w.result();
}

/**
 * A valid R object name from a text, as R's `make.names` makes it: characters other than
 * ASCII letters, digits, `.` and `_` become `.`; a name not starting with a letter or with
 * a `.` not followed by a digit gets an `X` prefix; R's reserved words get a `.` suffix.
 * @param s the text, e.g. a file stem `getLayer-ELEVATION-KEN`
 * @returns e.g. `getLayer.ELEVATION.KEN`
 */
export function rObjectName(s: string): string {
  let n = s.replace(/[^A-Za-z0-9._]/g, '.');
  if (!/^([A-Za-z]|\.(?![0-9]))/.test(n)) n = `X${n}`;
  const reserved = ['if', 'else', 'repeat', 'while', 'function', 'for', 'next', 'break', 'TRUE', 'FALSE', 'NULL', 'Inf', 'NaN', 'NA', 'NA_integer_', 'NA_real_', 'NA_character_', 'NA_complex_', 'in'];
  if (reserved.includes(n)) n = `${n}.`;
  return n;
}

function columnValue(c: PreparedColumn): RValue {
  const label: RAttr = ['label', { type: 'character', values: [labelWithUnit(c.info)] }];
  switch (c.kind) {
    case 'string':
      return { type: 'character', values: c.cells.map((x) => (x === undefined ? null : String(x))), attrs: [label] };
    case 'integer':
      return { type: 'integer', values: c.cells.map((x) => (typeof x === 'number' ? x : null)), attrs: [label] };
    case 'double':
      return { type: 'double', values: c.cells.map((x) => (typeof x === 'number' ? x : null)), attrs: [label] };
    case 'factor':
      return {
        type: 'integer',
        values: Array.from(c.codes as Int32Array, (k) => (k < 0 ? null : k + 1)),
        attrs: [['levels', { type: 'character', values: c.levels as string[] }], ['class', { type: 'character', values: ['factor'] }], label],
      };
  }
}

/** Options of {@link writeRds}. */
export interface RdsOptions {
  /** `datalabel` attribute. */
  dataLabel: string;
  /** `time.stamp` attribute, written like Stata's "dd Mon yyyy hh:mm". */
  timeStamp: string;
}

/**
 * The data.frame of a table as an {@link RValue}.
 * @param table the engine's table
 */
export function tableToDataFrame(table: TableResult, opts: RdsOptions): RValue {
  const cols = prepareColumns(table);
  return {
    type: 'list',
    values: cols.map(columnValue),
    attrs: [
      ['names', { type: 'character', values: cols.map((c) => c.info.name) }],
      ['class', { type: 'character', values: ['data.frame'] }],
      ['row.names', { type: 'integer', values: [null, -table.rows.length] }],
      ['var.labels', { type: 'character', values: cols.map((c) => labelWithUnit(c.info)) }],
      ['datalabel', { type: 'character', values: [opts.dataLabel] }],
      ['time.stamp', { type: 'character', values: [opts.timeStamp] }],
    ],
  };
}

/**
 * Writes a summary table as a gzip-compressed `.rds` file holding a data.frame.
 * @param table the engine's table
 * @param opts data label and time stamp attributes
 */
export function writeRds(table: TableResult, opts: RdsOptions): Uint8Array {
  return gzipSync(serializeR(tableToDataFrame(table, opts)), { level: 6, mtime: 0 });
}

/**
 * Writes a summary table as a gzip-compressed RData (`.rda`) file holding one data.frame,
 * as `save(<name>, file = )` does: `load("file.rda")` creates the object `<name>` (and
 * returns its name).
 * @param table the engine's table
 * @param opts data label and time stamp attributes
 * @param name the object's name; must be a valid R name (see {@link rObjectName})
 */
export function writeRda(table: TableResult, opts: RdsOptions, name: string): Uint8Array {
  return gzipSync(serializeRData([[name, tableToDataFrame(table, opts)]]), { level: 6, mtime: 0 });
}
