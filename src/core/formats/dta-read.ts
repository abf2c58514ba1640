/**
 * Reader of Stata `.dta` files, formats 117 (Stata 13), 118 (Stata 14-18), 119 (more than
 * 32,767 variables) and the older 113/114/115 (Stata 8-12), row by row over a
 * {@link RangeSource}: the descriptors are read first, then the strL store and the value
 * labels (they follow the data, found through the map), then the fixed-width records in
 * pieces of about 4 MB. Nothing but the strLs and labels is held.
 *
 * Spec: "Stata .dta file format", Stata Corp., https://www.stata.com/help.cgi?dta (formats
 * 117-119) and the Stata 8-12 manuals' "File formats .dta" (113-115); the writer
 * src/core/formats/dta.ts encodes the same facts. Read here:
 *
 * - 117+: `<stata_dta><header><release>11x</release><byteorder>LSF|MSF</byteorder>
 *   <K>` nvar (uint16; uint32 in 119) `</K><N>` nobs (uint32 in 117, uint64 later)
 *   `</N><label>` (uint8 / uint16 length + text) `<timestamp>` (uint8 length + text)
 *   `</header><map>` 14 uint64 section offsets; variable types uint16 (1-2045 str#,
 *   32768 strL, 65526 double, 65527 float, 65528 long, 65529 int, 65530 byte); names of 33
 *   (117) or 129 bytes; value-label names likewise; data records; `<strls>` of GSO blocks
 *   ("GSO", uint32 v, uint32 (117) / uint64 o, uint8 type 129 binary / 130 NUL-ended text,
 *   uint32 length, bytes); `<value_labels>` of `<lbl>` int32 length, name, 3 padding bytes,
 *   int32 n, int32 txtlen, int32 off[n], int32 val[n], text `</lbl>`.
 * - A strL cell holds (v, o): 117 two uint32; 118 a uint64 v + o * 2^16; 119 v + o * 2^24;
 *   (0, 0) is the empty string.
 * - 113-115: byte release, byte order (1 MSF, 2 LSF), filetype, padding, int16 nvar, int32
 *   nobs, 81-byte label, 18-byte time stamp, type bytes (1-244 str#, 251 byte, 252 int,
 *   253 long, 254 float, 255 double), 33-byte names, sort list, formats (12 bytes in 113,
 *   49 later), 33-byte value-label names, 81-byte variable labels, expansion fields (byte
 *   type, int32 length; 0/0 ends), data, then value labels without tags.
 * - Missing values: byte > 100, int > 32,740, long > 2,147,483,620, float >= 2^127,
 *   double >= 2^1023 (`.` and `.a`-`.z` alike) are NA (NaN here).
 * - Text: UTF-8 in 118+; 113-117 use the writer's code page: UTF-8 when valid, else Latin-1.
 */
import { IndapiError, throwIfAborted } from '../errors';
import type { RangeSource } from '../io/source';

/** Storage type of a Stata variable. */
export type DtaType = 'str' | 'strL' | 'byte' | 'int' | 'long' | 'float' | 'double';

/** One variable of a `.dta` file. */
export interface DtaVariable {
  /** Variable name. */
  name: string;
  /** Storage type. */
  type: DtaType;
  /** Bytes in a record. */
  width: number;
  /** Offset in a record, bytes. */
  offset: number;
  /** Name of its value label ('' when none). */
  labelName: string;
}

/** A `.dta` file opened by {@link openDta}. */
export interface DtaFile {
  /** Format (release) number, 113..119. */
  release: number;
  /** True for LSF (little-endian) files. */
  littleEndian: boolean;
  /** Observations (rows). */
  nobs: number;
  /** Variables, in order. */
  variables: DtaVariable[];
  /** Value labels: label name -> value -> text. */
  valueLabels: Map<string, Map<number, string>>;
  /** File offset of the first record. */
  dataOffset: number;
  /** Bytes per record. */
  recordWidth: number;
  /**
   * Rows of the file: numbers (NaN for missing) for numeric variables, text for strings.
   * @param opts `labelColumns`: indexes of variables whose value label replaces the code by
   *   its text (codes without a label stay numbers); `onBytes`: data bytes read so far
   * @throws IndapiError UNPARSABLE when the data are truncated; ABORTED
   */
  rows(opts?: { labelColumns?: Set<number>; onBytes?: (n: number) => void; signal?: AbortSignal }): AsyncGenerator<Array<string | number>>;
}

const bad = (what: string, msg: string): never => {
  throw new IndapiError('UNPARSABLE', `${what} is not a readable Stata .dta file: ${msg}`);
};

const utf8Strict = new TextDecoder('utf-8', { fatal: true });
const utf8Lax = new TextDecoder('utf-8');

function latin1(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
  return s;
}

/** Decodes text bytes up to the first NUL. */
function text(b: Uint8Array, modern: boolean): string {
  let n = b.indexOf(0);
  if (n < 0) n = b.length;
  const s = b.subarray(0, n);
  let asciiOnly = true;
  for (let i = 0; i < s.length; i++) if (s[i] >= 0x80) { asciiOnly = false; break; }
  if (asciiOnly) return s.length < 256 ? String.fromCharCode(...s) : latin1(s);
  if (modern) return utf8Lax.decode(s);
  try {
    return utf8Strict.decode(s);
  } catch {
    return latin1(s);
  }
}

const TWO127 = 2 ** 127;
const TWO1023 = 2 ** 1023;

/**
 * Opens a `.dta` file: reads its descriptors, strLs and value labels.
 * @param src the file
 * @param what its name for messages
 * @param signal aborts
 * @returns the file, ready to stream its rows
 * @throws IndapiError UNPARSABLE when the bytes are not a .dta of format 113-119 or are
 *   truncated; IO from the source; ABORTED
 */
export async function openDta(src: RangeSource, what: string, signal?: AbortSignal): Promise<DtaFile> {
  const size = src.size ? await src.size(signal) : Infinity;
  const get = async (off: number, len: number): Promise<Uint8Array> => {
    const b = new Uint8Array(await src.getBytes(off, len, signal));
    if (b.length < len) bad(what, `truncated: needs bytes ${off}..${off + len}, the file has ${Math.min(size, off + b.length)}`);
    return b;
  };
  const first = new Uint8Array(await src.getBytes(0, Math.min(4096, size), signal));
  const head = latin1(first.subarray(0, 64));
  if (head.startsWith('<stata_dta>')) return openModern(src, what, first, size, get, signal);
  if ([113, 114, 115].includes(first[0]) && (first[1] === 1 || first[1] === 2) && first[2] === 1) return openOld(src, what, get, signal);
  return bad(what, 'it starts neither with <stata_dta> (formats 117-119) nor with a format byte 113-115');
}

type Getter = (off: number, len: number) => Promise<Uint8Array>;

async function openModern(src: RangeSource, what: string, first: Uint8Array, size: number, get: Getter, signal?: AbortSignal): Promise<DtaFile> {
  const s = latin1(first.subarray(0, 200));
  const m = /^<stata_dta><header><release>(\d{3})<\/release><byteorder>(LSF|MSF)<\/byteorder><K>/.exec(s);
  if (!m) bad(what, 'bad <header>');
  const release = Number(m![1]);
  if (release < 117 || release > 119) bad(what, `format ${release} (117, 118 and 119 are read; save with "saveold" or "save, version(14)" in Stata)`);
  const le = m![2] === 'LSF';
  let p = m![0].length;
  const need = async (len: number): Promise<DataView> => {
    const b = p + len <= first.length ? first.subarray(p, p + len) : await get(p, len);
    p += len;
    return new DataView(b.buffer, b.byteOffset, b.byteLength);
  };
  const expect = async (tag: string) => {
    const start = p;
    p += tag.length;
    const got = latin1(p <= first.length ? first.subarray(start, p) : await get(start, tag.length));
    if (got !== tag) bad(what, `expected ${tag} at byte ${start}`);
  };
  const u64 = (v: DataView, o = 0) => {
    const lo = v.getUint32(o + (le ? 0 : 4), le);
    const hi = v.getUint32(o + (le ? 4 : 0), le);
    return hi * 4294967296 + lo;
  };
  const K = release === 119 ? (await need(4)).getUint32(0, le) : (await need(2)).getUint16(0, le);
  await expect('</K><N>');
  const N = release === 117 ? (await need(4)).getUint32(0, le) : u64(await need(8));
  await expect('</N><label>');
  const labLen = release === 117 ? (await need(1)).getUint8(0) : (await need(2)).getUint16(0, le);
  p += labLen;
  await expect('</label><timestamp>');
  const tsLen = (await need(1)).getUint8(0);
  p += tsLen;
  await expect('</timestamp></header><map>');
  const mapView = await need(14 * 8);
  const map = Array.from({ length: 14 }, (_, i) => u64(mapView, i * 8));
  if (map[13] > size && size !== Infinity) bad(what, `truncated: the map gives ${map[13]} bytes, the file has ${size}`);
  const nameLen = release === 117 ? 33 : 129;
  const section = async (i: number, tag: string, len: number): Promise<DataView> => {
    const b = await get(map[i], tag.length + len);
    if (latin1(b.subarray(0, tag.length)) !== tag) bad(what, `expected ${tag} at byte ${map[i]}`);
    return new DataView(b.buffer, b.byteOffset + tag.length, len);
  };
  const types = await section(2, '<variable_types>', 2 * K);
  const names = await section(3, '<varnames>', nameLen * K);
  const lblNames = await section(6, '<value_label_names>', nameLen * K);
  const bytesOf = (v: DataView, o: number, n: number) => new Uint8Array(v.buffer, v.byteOffset + o, n);
  const variables: DtaVariable[] = [];
  let off = 0;
  for (let i = 0; i < K; i++) {
    const t = types.getUint16(2 * i, le);
    let type: DtaType;
    let width: number;
    if (t >= 1 && t <= 2045) [type, width] = ['str', t];
    else if (t === 32768) [type, width] = ['strL', 8];
    else if (t === 65526) [type, width] = ['double', 8];
    else if (t === 65527) [type, width] = ['float', 4];
    else if (t === 65528) [type, width] = ['long', 4];
    else if (t === 65529) [type, width] = ['int', 2];
    else if (t === 65530) [type, width] = ['byte', 1];
    else return bad(what, `variable ${i + 1} has the unknown type code ${t}`);
    variables.push({ name: text(bytesOf(names, nameLen * i, nameLen), release >= 118), type, width, offset: off, labelName: text(bytesOf(lblNames, nameLen * i, nameLen), release >= 118) });
    off += width;
  }
  const dataOffset = map[9] + '<data>'.length;
  if (map[10] - dataOffset - '</data>'.length !== N * off) bad(what, `the data section holds ${map[10] - dataOffset - 7} bytes, ${N} records of ${off} bytes need ${N * off}`);
  throwIfAborted(signal);
  // strLs and value labels: from <strls> to </stata_dta>.
  const tail = await get(map[10], map[12] - map[10]);
  const tv = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  const gso = new Map<number, string>();
  const vShift = release === 117 ? 0 : release === 118 ? 65536 : 16777216;
  let q = '<strls>'.length;
  if (latin1(tail.subarray(0, q)) !== '<strls>') bad(what, `expected <strls> at byte ${map[10]}`);
  while (q + 3 <= tail.length && tail[q] === 0x47 && tail[q + 1] === 0x53 && tail[q + 2] === 0x4f) {
    q += 3;
    const v = tv.getUint32(q, le);
    let o: number;
    if (release === 117) {
      o = tv.getUint32(q + 4, le);
      q += 8;
    } else {
      o = le ? tv.getUint32(q + 4, true) + tv.getUint32(q + 8, true) * 4294967296 : tv.getUint32(q + 4, false) * 4294967296 + tv.getUint32(q + 8, false);
      q += 12;
    }
    const t = tv.getUint8(q);
    const len = tv.getUint32(q + 1, le);
    q += 5;
    if (q + len > tail.length) bad(what, 'a strL block runs past its section');
    const b = tail.subarray(q, q + len);
    gso.set(strlKey(v, o), text(t === 130 ? b : Uint8Array.from(b, (c) => (c === 0 ? 32 : c)), release >= 118)); // 129: binary (NULs read as spaces)
    q += len;
  }
  const valueLabels = new Map<string, Map<number, string>>();
  let w = map[11] - map[10];
  if (latin1(tail.subarray(w, w + 14)) !== '<value_labels>') bad(what, `expected <value_labels> at byte ${map[11]}`);
  w += 14;
  while (latin1(tail.subarray(w, w + 5)) === '<lbl>') {
    const len = tv.getInt32(w + 5, le);
    const name = text(tail.subarray(w + 9, w + 9 + nameLen), release >= 118);
    const t0 = w + 9 + nameLen + 3;
    valueLabels.set(name, labelTable(tail.subarray(t0, t0 + len), le, release >= 118, what));
    w = t0 + len + '</lbl>'.length;
  }
  return makeFile(src, what, release, le, N, variables, valueLabels, dataOffset, off, gso, vShift);
}

function strlKey(v: number, o: number): number {
  return o * 4194304 + v; // v < 2^22 (at most 32,767 or 2^24 variables; 119 files beyond 4 million are not expected)
}

function labelTable(b: Uint8Array, le: boolean, modern: boolean, what: string): Map<number, string> {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.length < 8) bad(what, 'a value label table is truncated');
  const n = v.getInt32(0, le);
  const txtlen = v.getInt32(4, le);
  if (n < 0 || 8 + 8 * n + txtlen > b.length) bad(what, 'a value label table is truncated');
  const txt = b.subarray(8 + 8 * n, 8 + 8 * n + txtlen);
  const out = new Map<number, string>();
  for (let i = 0; i < n; i++) {
    const o = v.getInt32(8 + 4 * i, le);
    const val = v.getInt32(8 + 4 * n + 4 * i, le);
    out.set(val, text(txt.subarray(o), modern));
  }
  return out;
}

async function openOld(src: RangeSource, what: string, get: Getter, signal?: AbortSignal): Promise<DtaFile> {
  const h = await get(0, 4 + 2 + 4 + 81 + 18);
  const release = h[0];
  const le = h[1] === 2;
  const hv = new DataView(h.buffer, h.byteOffset, h.byteLength);
  const K = hv.getUint16(4, le);
  const N = hv.getUint32(6, le);
  let p = 109;
  const fmtLen = release === 113 ? 12 : 49;
  const descLen = K + 33 * K + 2 * (K + 1) + fmtLen * K + 33 * K + 81 * K;
  const d = await get(p, descLen);
  const variables: DtaVariable[] = [];
  let off = 0;
  const namesAt = K;
  const lblAt = K + 33 * K + 2 * (K + 1) + fmtLen * K;
  for (let i = 0; i < K; i++) {
    const t = d[i];
    let type: DtaType;
    let width: number;
    if (t >= 1 && t <= 244) [type, width] = ['str', t];
    else if (t === 251) [type, width] = ['byte', 1];
    else if (t === 252) [type, width] = ['int', 2];
    else if (t === 253) [type, width] = ['long', 4];
    else if (t === 254) [type, width] = ['float', 4];
    else if (t === 255) [type, width] = ['double', 8];
    else return bad(what, `variable ${i + 1} has the unknown type code ${t}`);
    variables.push({ name: text(d.subarray(namesAt + 33 * i, namesAt + 33 * (i + 1)), false), type, width, offset: off, labelName: text(d.subarray(lblAt + 33 * i, lblAt + 33 * (i + 1)), false) });
    off += width;
  }
  p += descLen;
  // expansion fields
  for (;;) {
    const e = await get(p, 5);
    const len = new DataView(e.buffer, e.byteOffset, 5).getInt32(1, le);
    p += 5;
    if (e[0] === 0 && len === 0) break;
    if (len < 0) bad(what, 'bad expansion field');
    p += len;
  }
  throwIfAborted(signal);
  const dataOffset = p;
  const valueLabels = new Map<string, Map<number, string>>();
  const size = src.size ? await src.size(signal) : dataOffset + N * off;
  let w = dataOffset + N * off;
  if (w > size) bad(what, `truncated: ${N} records of ${off} bytes need ${w} bytes, the file has ${size}`);
  if (size > w) {
    const tail = await get(w, size - w);
    const tv = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
    w = 0;
    while (w + 40 <= tail.length) {
      const len = tv.getInt32(w, le);
      const name = text(tail.subarray(w + 4, w + 37), false);
      valueLabels.set(name, labelTable(tail.subarray(w + 40, w + 40 + len), le, false, what));
      w += 40 + len;
    }
  }
  return makeFile(src, what, release, le, N, variables, valueLabels, dataOffset, off, new Map(), 0);
}

function makeFile(
  src: RangeSource, what: string, release: number, le: boolean, nobs: number, variables: DtaVariable[],
  valueLabels: Map<string, Map<number, string>>, dataOffset: number, recordWidth: number, gso: Map<number, string>, vShift: number,
): DtaFile {
  const modern = release >= 118;
  return {
    release, littleEndian: le, nobs, variables, valueLabels, dataOffset, recordWidth,
    async *rows(opts = {}) {
      const K = variables.length;
      const labels = variables.map((v, i) => (opts.labelColumns?.has(i) && v.labelName ? valueLabels.get(v.labelName) : undefined));
      const per = Math.max(1, Math.floor((4 << 20) / Math.max(1, recordWidth)));
      for (let r0 = 0; r0 < nobs; r0 += per) {
        throwIfAborted(opts.signal);
        const n = Math.min(per, nobs - r0);
        const len = n * recordWidth;
        const b = new Uint8Array(await src.getBytes(dataOffset + r0 * recordWidth, len, opts.signal));
        if (b.length < len) bad(what, `truncated in record ${r0 + Math.floor(b.length / Math.max(1, recordWidth)) + 1} of ${nobs}`);
        const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
        for (let r = 0; r < n; r++) {
          const base = r * recordWidth;
          const row: Array<string | number> = new Array(K);
          for (let i = 0; i < K; i++) {
            const v = variables[i];
            const o = base + v.offset;
            let x: number;
            switch (v.type) {
              case 'str':
                row[i] = text(b.subarray(o, o + v.width), modern);
                continue;
              case 'strL': {
                let vv: number;
                let oo: number;
                if (release === 117) {
                  vv = dv.getUint32(o, le);
                  oo = dv.getUint32(o + 4, le);
                } else {
                  const lo = dv.getUint32(o + (le ? 0 : 4), le);
                  const hi = dv.getUint32(o + (le ? 4 : 0), le);
                  const z = hi * 4294967296 + lo;
                  vv = z % vShift;
                  oo = Math.floor(z / vShift);
                }
                row[i] = vv === 0 && oo === 0 ? '' : (gso.get(strlKey(vv, oo)) ?? bad(what, `record ${r0 + r + 1}, variable ${v.name}: strL (${vv}, ${oo}) is not in the strL section`));
                continue;
              }
              case 'byte':
                x = dv.getInt8(o);
                if (x > 100) x = NaN;
                break;
              case 'int':
                x = dv.getInt16(o, le);
                if (x > 32740) x = NaN;
                break;
              case 'long':
                x = dv.getInt32(o, le);
                if (x > 2147483620) x = NaN;
                break;
              case 'float':
                x = dv.getFloat32(o, le);
                if (!(x < TWO127)) x = NaN;
                break;
              default:
                x = dv.getFloat64(o, le);
                if (!(x < TWO1023)) x = NaN;
            }
            const lab = labels[i];
            row[i] = lab && x === x ? (lab.get(x) ?? x) : x;
          }
          yield row;
        }
        opts.onBytes?.((r0 + n) * recordWidth);
      }
    },
  };
}
