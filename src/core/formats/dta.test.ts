import { describe, expect, it } from 'vitest';
import { FIXED_NOW, TABLE_KEN_ADM1 } from '../../../tests/formats/formats.fixture';
import { dtaTimeStamp, stataNames, writeDta } from './dta';

const ascii = (b: Uint8Array, from: number, n: number) => new TextDecoder().decode(b.subarray(from, from + n));
const find = (b: Uint8Array, s: string) => Buffer.from(b).indexOf(s);

describe('Stata 118 writer', () => {
  const b = writeDta(TABLE_KEN_ADM1, { dataLabel: 'indapi3 fixture', timeStamp: FIXED_NOW });
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);

  it('writes the 118 header: release, LSF, K, N, label, time stamp', () => {
    expect(ascii(b, 0, 67)).toBe('<stata_dta><header><release>118</release><byteorder>LSF</byteorder>');
    const k = find(b, '<K>') + 3;
    expect(dv.getUint16(k, true)).toBe(6);
    const n = find(b, '<N>') + 3;
    expect(Number(dv.getBigUint64(n, true))).toBe(4);
    const l = find(b, '<label>') + 7;
    expect(ascii(b, l + 2, dv.getUint16(l, true))).toBe('indapi3 fixture');
    const t = find(b, '<timestamp>') + 11;
    expect(b[t]).toBe(17);
    expect(ascii(b, t + 1, 17)).toBe('04 Mar 2026 05:06');
  });

  it('has a map whose 14 offsets point at the section tags', () => {
    const m = find(b, '<map>') + 5;
    const off = Array.from({ length: 14 }, (_, i) => Number(dv.getBigUint64(m + i * 8, true)));
    const tags = ['<stata_dta>', '<map>', '<variable_types>', '<varnames>', '<sortlist>', '<formats>', '<value_label_names>', '<variable_labels>', '<characteristics>', '<data>', '<strls>', '<value_labels>', '</stata_dta>'];
    tags.forEach((t, i) => expect(ascii(b, off[i], t.length)).toBe(t));
    expect(off[13]).toBe(b.length);
  });

  it('types strings as str#, numbers as double, classes as long with value labels', () => {
    const vt = find(b, '<variable_types>') + 16;
    const types = Array.from({ length: 6 }, (_, i) => dv.getUint16(vt + i * 2, true));
    expect(types).toEqual([3, 5, 65528, 65526, 65526, 65528]);
    const vl = find(b, '<variable_labels>') + 17;
    expect(ascii(b, vl + 3 * 321, 23)).toBe('Elevation (fixture) (m)');
    expect(find(b, '<lbl>')).toBeGreaterThan(0);
    expect(find(b, 'Région "Côte", Est')).toBeGreaterThan(0);
  });

  it('writes missing doubles as . (0x7FE0...) and missing longs as 2147483621', () => {
    const d = find(b, '<data>') + 6;
    const rec = 3 + 5 + 4 + 8 + 8 + 4;
    // row 3 (index 2): ELEVATION missing
    expect(dv.getUint32(d + 2 * rec + 12 + 4, true)).toBe(0x7fe00000);
    // row 1 (index 0): ADM1 missing
    expect(dv.getInt32(d + 8, true)).toBe(2147483621);
    // row 2: ADM1 = Central = 101 (class value)
    expect(dv.getInt32(d + rec + 8, true)).toBe(101);
  });

  it('makes valid unique Stata names and formats the time stamp', () => {
    expect(stataNames(['1abc', 'a-b', 'a_b', 'x'.repeat(40)])).toEqual(['_1abc', 'a_b', 'a_b_2', 'x'.repeat(32)]);
    expect(dtaTimeStamp(new Date('2026-12-01T23:59:00Z'))).toBe('01 Dec 2026 23:59');
  });
});
