import { describe, expect, it } from 'vitest';
import type { RangeSource } from '../io/source';
import { ByteWriter } from './bytes';
import { openDta } from './dta-read';

/** A RangeSource over bytes in memory. */
function mem(b: Uint8Array): RangeSource {
  return {
    key: 'mem',
    getBytes: async (o, n) => b.slice(o, Math.min(b.length, o + n)).buffer,
    size: async () => b.length,
  };
}

/**
 * A hand-built format 118 file (FIXTURE, made-up values): variables b (byte), i (int),
 * f (float), l (long, value label "lab"), d (double), s (str5), L (strL); three records:
 * values, system missing ".", extended missing ".a" (strings "", strL (0,0)).
 */
function build118(le: boolean): Uint8Array {
  const w = new ByteWriter(le);
  const K = 7;
  const N = 3;
  w.text(`<stata_dta><header><release>118</release><byteorder>${le ? 'LSF' : 'MSF'}</byteorder><K>`).u16(K).text('</K><N>').u64(N);
  w.text('</N><label>').u16(0).text('</label><timestamp>').u8(0).text('</timestamp></header>');
  const map: number[] = new Array(14).fill(0);
  map[1] = w.length;
  w.text('<map>');
  const mapAt = w.length;
  w.zeros(14 * 8).text('</map>');
  map[2] = w.length;
  w.text('<variable_types>');
  for (const t of [65530, 65529, 65527, 65528, 65526, 5, 32768]) w.u16(t);
  w.text('</variable_types>');
  map[3] = w.length;
  w.text('<varnames>');
  for (const n of ['b', 'i', 'f', 'l', 'd', 's', 'L']) w.fixed(n, 129);
  w.text('</varnames>');
  map[4] = w.length;
  w.text('<sortlist>').zeros(2 * (K + 1)).text('</sortlist>');
  map[5] = w.length;
  w.text('<formats>');
  for (let k = 0; k < K; k++) w.fixed('%9.0g', 57);
  w.text('</formats>');
  map[6] = w.length;
  w.text('<value_label_names>');
  for (let k = 0; k < K; k++) w.fixed(k === 3 ? 'lab' : '', 129);
  w.text('</value_label_names>');
  map[7] = w.length;
  w.text('<variable_labels>').zeros(321 * K).text('</variable_labels>');
  map[8] = w.length;
  w.text('<characteristics></characteristics>');
  map[9] = w.length;
  w.text('<data>');
  const strl = (v: number, o: number) => (le ? w.u16(v).u16(o & 0xffff).u32(Math.floor(o / 65536)) : w.u32(Math.floor(o / 65536)).u16(o & 0xffff).u16(v));
  // record 1: values
  w.u8(-7 & 0xff).i16(-300).f32(1.5).i32(2).f64(2.25).fixed('São', 5, false);
  strl(7, 1);
  // record 2: system missing
  w.u8(101).i16(32741).u32(0x7f000000).i32(2147483621).f64(2 ** 1023).zeros(5);
  strl(0, 0);
  // record 3: .a and a label code without label
  w.u8(102).i16(32742).f32(2 ** 127 * 1.001).i32(9).u32(0).u32(0);
  // patch the double of record 3 to .a: 0x7FE0 1000 0000 0000
  w.fixed('abcde', 5, false);
  strl(7, 3);
  w.text('</data>');
  map[10] = w.length;
  w.text('<strls>');
  for (const [o, s] of [[1, 'Côte d’Ivoire, a long name'], [3, 'x']] as const) {
    const b = new TextEncoder().encode(s);
    w.text('GSO').u32(7).u64(o).u8(130).u32(b.length + 1).bytes(b).u8(0);
  }
  w.text('</strls>');
  map[11] = w.length;
  w.text('<value_labels><lbl>');
  const txt = new TextEncoder().encode('two\0');
  w.i32(8 + 8 + txt.length).fixed('lab', 129).zeros(3).i32(1).i32(txt.length).i32(0).i32(2).bytes(txt);
  w.text('</lbl></value_labels>');
  map[12] = w.length;
  w.text('</stata_dta>');
  map[13] = w.length;
  map.forEach((o, i) => w.patchU64(mapAt + i * 8, o));
  const out = w.result();
  // record 3's double (8 bytes at its offset) as ".a": 0x7FE01000 00000000
  const recW = 1 + 2 + 4 + 4 + 8 + 5 + 8;
  const dOff = map[9] + 6 + 2 * recW + 1 + 2 + 4 + 4;
  const dv = new DataView(out.buffer, out.byteOffset);
  dv.setFloat64(dOff, new DataView(new Uint8Array([0x7f, 0xe0, 0x10, 0, 0, 0, 0, 0]).buffer).getFloat64(0), le);
  return out;
}

describe('Stata .dta reader', () => {
  for (const le of [true, false]) {
    it(`reads byte/int/float/long/double/str/strL with missing values and value labels (${le ? 'LSF' : 'MSF'})`, async () => {
      const f = await openDta(mem(build118(le)), 'fixture.dta');
      expect(f.release).toBe(118);
      expect(f.variables.map((v) => `${v.name}:${v.type}`)).toEqual(['b:byte', 'i:int', 'f:float', 'l:long', 'd:double', 's:str', 'L:strL']);
      expect(f.valueLabels.get('lab')).toEqual(new Map([[2, 'two']]));
      const rows: unknown[] = [];
      for await (const r of f.rows()) rows.push(r);
      expect(rows).toEqual([
        [-7, -300, 1.5, 2, 2.25, 'São', 'Côte d’Ivoire, a long name'],
        [NaN, NaN, NaN, NaN, NaN, '', ''],
        [NaN, NaN, NaN, 9, NaN, 'abcde', 'x'],
      ]);
      const labelled: unknown[] = [];
      for await (const r of f.rows({ labelColumns: new Set([3]) })) labelled.push(r[3]);
      expect(labelled).toEqual(['two', NaN, 9]);
    });
  }

  it('refuses truncated and foreign bytes with UNPARSABLE naming the input', async () => {
    const b = build118(true);
    await expect(openDta(mem(b.subarray(0, 300)), 'cut.dta')).rejects.toMatchObject({ code: 'UNPARSABLE', message: expect.stringContaining('cut.dta') });
    await expect(openDta(mem(new TextEncoder().encode('CELL5M,X,Y\n')), 'text.dta')).rejects.toMatchObject({ code: 'UNPARSABLE' });
    const f = await openDta(mem(b.subarray(0, b.length)), 'ok.dta');
    expect(f.nobs).toBe(3);
  });
});
