import { gunzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { TABLE_KEN_ADM1 } from '../../../tests/formats/formats.fixture';
import { serializeR, writeRds } from './rds';

describe('RDS writer (serialization v3, XDR)', () => {
  it('writes the version 3 header with native encoding UTF-8', () => {
    const b = serializeR({ type: 'integer', values: [1, null] });
    const dv = new DataView(b.buffer);
    expect(String.fromCharCode(b[0], b[1])).toBe('X\n');
    expect(dv.getInt32(2)).toBe(3);
    expect(dv.getInt32(10)).toBe(0x030500);
    expect(dv.getInt32(14)).toBe(5);
    expect(new TextDecoder().decode(b.subarray(18, 23))).toBe('UTF-8');
    // INTSXP, length 2, 1, NA_integer_
    expect([dv.getInt32(23), dv.getInt32(27), dv.getInt32(31), dv.getInt32(35)]).toEqual([13, 2, 1, -2147483648]);
  });
  it('writes NA_real_ as NaN with low word 1954', () => {
    const b = serializeR({ type: 'double', values: [null, 2.5] });
    const dv = new DataView(b.buffer);
    expect(dv.getUint32(31)).toBe(0x7ff00000);
    expect(dv.getUint32(35)).toBe(1954);
    expect(dv.getFloat64(39)).toBe(2.5);
  });
  it('writes NA_character_ as a CHARSXP of length -1 and UTF-8 strings with the UTF-8 flag', () => {
    const b = serializeR({ type: 'character', values: [null, 'é'] });
    const dv = new DataView(b.buffer);
    expect([dv.getInt32(23), dv.getInt32(27)]).toEqual([16, 2]);
    expect([dv.getInt32(31), dv.getInt32(35)]).toEqual([9, -1]);
    expect(dv.getInt32(39)).toBe(9 | (8 << 12));
    expect(dv.getInt32(43)).toBe(2);
  });
  it('gzips a data.frame with the foreign-style attributes', () => {
    const raw = gunzipSync(writeRds(TABLE_KEN_ADM1, { dataLabel: 'lbl', timeStamp: 'ts' }));
    const text = new TextDecoder('latin1').decode(raw);
    for (const s of ['names', 'row.names', 'data.frame', 'var.labels', 'datalabel', 'time.stamp', 'factor', 'levels', 'Elevation (fixture) (m)']) expect(text).toContain(s);
    const dv = new DataView(raw.buffer);
    // VECSXP with object and attribute bits, 6 columns
    expect(dv.getInt32(23)).toBe(19 | (1 << 8) | (1 << 9));
    expect(dv.getInt32(27)).toBe(6);
  });
});
