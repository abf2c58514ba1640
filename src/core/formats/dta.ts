/**
 * Stata `.dta` writer, format 118 (Stata 14 and later; UTF-8 strings and names).
 *
 * Spec: "Stata .dta file format", Stata Corp., https://www.stata.com/help.cgi?dta
 * (section 5, format 118). Layout written here, all little-endian ("LSF"):
 *
 * ```
 * <stata_dta><header><release>118</release><byteorder>LSF</byteorder>
 *   <K>uint16 nvar</K><N>uint64 nobs</N><label>uint16 len + UTF-8</label>
 *   <timestamp>uint8 17 + "dd Mon yyyy hh:mm"</timestamp></header>
 * <map>14 x uint64 file offsets</map>
 * <variable_types>K x uint16</variable_types>   1..2045 = str#, 65526 double, 65528 long
 * <varnames>K x 129 bytes</varnames>
 * <sortlist>(K+1) x uint16</sortlist>
 * <formats>K x 57 bytes</formats>
 * <value_label_names>K x 129 bytes</value_label_names>
 * <variable_labels>K x 321 bytes</variable_labels>
 * <characteristics></characteristics>
 * <data>N x (fixed-width record)</data>
 * <strls></strls>
 * <value_labels>(<lbl> int32 len, char[129] name, 3 pad, table </lbl>)*</value_labels>
 * </stata_dta>
 * ```
 * Value-label table: int32 n, int32 txtlen, int32 off[n], int32 val[n], char txt[txtlen]
 * (NUL-terminated labels). Missing values: double `.` = 0x7FE0000000000000, long `.` =
 * 2147483621. Strings longer than 2045 bytes are cut (strL is not used).
 *
 * Class columns are written as `long` with a value label of the same name; numeric columns
 * as `double`; integer columns as `long`. Variable labels are `"<label> (<unit>)"`.
 * `foreign::read.dta` reads only formats up to 115/117: read these files with
 * `haven::read_dta`, `pandas.read_stata` or Stata 14+.
 */
import type { TableResult } from '../api';
import { ByteWriter, utf8Truncate } from './bytes';
import { labelWithUnit, prepareColumns, type PreparedColumn } from './table';

const T_DOUBLE = 65526;
const T_LONG = 65528;
const MISSING_LONG = 2147483621;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Options of {@link writeDta}. */
export interface DtaOptions {
  /** Data label (at most 80 characters are kept), e.g. "indapi3 getLayer ELEVATION by ISO3". */
  dataLabel: string;
  /** Time stamp written in the header (UTC). */
  timeStamp: Date;
}

/** Stata's header time stamp "dd Mon yyyy hh:mm" (UTC). */
export function dtaTimeStamp(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}`;
}

/**
 * A valid, unique Stata variable name for each column name: letters, digits and `_`,
 * not starting with a digit, at most 32 characters.
 */
export function stataNames(names: string[]): string[] {
  const used = new Set<string>();
  return names.map((n) => {
    let s = n.replace(/[^A-Za-z0-9_]/g, '_');
    if (!/^[A-Za-z_]/.test(s)) s = `_${s}`;
    s = s.slice(0, 32);
    let out = s;
    for (let k = 2; used.has(out); k++) out = `${s.slice(0, 32 - String(k).length - 1)}_${k}`;
    used.add(out);
    return out;
  });
}

interface DtaVar {
  col: PreparedColumn;
  name: string;
  type: number;
  width: number;
  strBytes?: Uint8Array[];
}

/**
 * Writes a summary table as a Stata 118 `.dta` file.
 * @param table the engine's table
 * @param opts data label and time stamp
 * @returns the file bytes
 */
export function writeDta(table: TableResult, opts: DtaOptions): Uint8Array {
  const cols = prepareColumns(table);
  const names = stataNames(cols.map((c) => c.info.name));
  const n = table.rows.length;
  const vars: DtaVar[] = cols.map((col, i) => {
    if (col.kind === 'string') {
      const strBytes = col.cells.map((v) => (v === undefined ? new Uint8Array(0) : utf8Truncate(String(v), 2045)));
      const width = Math.max(1, ...strBytes.map((b) => b.length));
      return { col, name: names[i], type: width, width, strBytes };
    }
    if (col.kind === 'double') return { col, name: names[i], type: T_DOUBLE, width: 8 };
    return { col, name: names[i], type: T_LONG, width: 4 };
  });
  const k = vars.length;
  const w = new ByteWriter(true, 4096 + n * vars.reduce((s, v) => s + v.width, 0));
  const tag = (t: string) => w.text(t);

  tag('<stata_dta><header><release>118</release><byteorder>LSF</byteorder><K>');
  w.u16(k);
  tag('</K><N>');
  w.u64(n);
  tag('</N><label>');
  const label = utf8Truncate([...opts.dataLabel].slice(0, 80).join(''), 320);
  w.u16(label.length).bytes(label);
  tag('</label><timestamp>');
  const ts = dtaTimeStamp(opts.timeStamp);
  w.u8(ts.length).text(ts);
  tag('</timestamp></header>');

  const map: number[] = new Array(14).fill(0);
  map[0] = 0;
  map[1] = w.length;
  tag('<map>');
  const mapAt = w.length;
  w.zeros(14 * 8);
  tag('</map>');

  map[2] = w.length;
  tag('<variable_types>');
  for (const v of vars) w.u16(v.type);
  tag('</variable_types>');

  map[3] = w.length;
  tag('<varnames>');
  for (const v of vars) w.fixed(v.name, 129);
  tag('</varnames>');

  map[4] = w.length;
  tag('<sortlist>');
  w.zeros((k + 1) * 2);
  tag('</sortlist>');

  map[5] = w.length;
  tag('<formats>');
  for (const v of vars) {
    const dec = v.col.info.dec;
    const f = v.type <= 2045 ? `%-${Math.min(v.width, 2045)}s` : v.type === T_DOUBLE ? (dec !== undefined && dec >= 0 && dec <= 12 ? `%12.${dec}f` : '%10.0g') : '%12.0g';
    w.fixed(f, 57);
  }
  tag('</formats>');

  map[6] = w.length;
  tag('<value_label_names>');
  for (const v of vars) w.fixed(v.col.kind === 'factor' ? v.name : '', 129);
  tag('</value_label_names>');

  map[7] = w.length;
  tag('<variable_labels>');
  for (const v of vars) w.bytes(fixedLabel(labelWithUnit(v.col.info), 80, 321));
  tag('</variable_labels>');

  map[8] = w.length;
  tag('<characteristics></characteristics>');

  map[9] = w.length;
  tag('<data>');
  for (let r = 0; r < n; r++) {
    for (const v of vars) {
      const col = v.col;
      if (v.strBytes) {
        const b = v.strBytes[r];
        w.bytes(b).zeros(v.width - b.length);
      } else if (col.kind === 'factor') {
        const c = (col.codes as Int32Array)[r];
        w.i32(c < 0 ? MISSING_LONG : (col.levelValues as number[])[c]);
      } else {
        const x = col.cells[r];
        if (col.kind === 'double') {
          if (typeof x === 'number') w.f64(x);
          else w.u32(0).u32(0x7fe00000); // system missing "." (little-endian 0x7FE0000000000000)
        } else w.i32(typeof x === 'number' ? x : MISSING_LONG);
      }
    }
  }
  tag('</data>');

  map[10] = w.length;
  tag('<strls></strls>');

  map[11] = w.length;
  tag('<value_labels>');
  for (const v of vars) {
    if (v.col.kind !== 'factor') continue;
    const levels = v.col.levels as string[];
    const values = v.col.levelValues as number[];
    const texts = levels.map((l) => utf8Truncate(l, 32000));
    const txtlen = texts.reduce((s, t) => s + t.length + 1, 0);
    const len = 8 + 8 * levels.length + txtlen;
    tag('<lbl>');
    w.i32(len);
    w.fixed(v.name, 129);
    w.zeros(3);
    w.i32(levels.length).i32(txtlen);
    let off = 0;
    for (const t of texts) {
      w.i32(off);
      off += t.length + 1;
    }
    for (const val of values) w.i32(val);
    for (const t of texts) w.bytes(t).u8(0);
    tag('</lbl>');
  }
  tag('</value_labels>');

  map[12] = w.length;
  tag('</stata_dta>');
  map[13] = w.length;
  map.forEach((o, i) => w.patchU64(mapAt + i * 8, o));
  return w.result();
}

/** A label of at most `maxChars` characters in a NUL-padded field of `width` bytes. */
function fixedLabel(s: string, maxChars: number, width: number): Uint8Array {
  const b = utf8Truncate([...s].slice(0, maxChars).join(''), width - 1);
  const out = new Uint8Array(width);
  out.set(b);
  return out;
}

