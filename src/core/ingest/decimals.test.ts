import { describe, expect, it } from 'vitest';
import { DecimalTracker, decimalsOf, INT_NO_DATA, scaledInt } from './decimals';

/** The storage of a column of values (numbers as the table's text reads them). */
function storage(texts: string[]) {
  const t = new DecimalTracker();
  for (const s of texts) t.add(s === '' ? NaN : Number(s));
  return t.result();
}

describe('decimal detection of continuous columns', () => {
  it('finds the least number of decimals, also on ties and negative numbers', () => {
    expect(decimalsOf(23.45)).toBe(2);
    expect(decimalsOf(0.15)).toBe(2);
    expect(decimalsOf(-2.5)).toBe(1);
    expect(decimalsOf(-0.05)).toBe(2);
    expect(decimalsOf(1500)).toBe(0);
    expect(decimalsOf(0.123456789)).toBe(9);
    expect(decimalsOf(0.1234567891)).toBe(-1);
    expect(decimalsOf(Math.fround(23.45))).toBe(-1); // 23.450000762939453
    expect(decimalsOf(Infinity)).toBe(-1);
  });

  it('1- and 2-decimal ties fit Int16 as value x 100; the integers decode to the very doubles read', () => {
    const texts = ['23.4', '23.5', '23.45', '-0.15', '', '0.05', '327.67', '-327.67'];
    const st = storage(texts);
    expect(st).toEqual({ sampleType: 'Int16', decimals: 2, noData: INT_NO_DATA.Int16 });
    for (const s of texts.filter(Boolean)) expect(scaledInt(Number(s), 2) / 100).toBe(Number(s));
  });

  it('goes to Int32 when value x 10^k leaves -32767..32767, to Float64 when it leaves Int32', () => {
    expect(storage(['327.68', '1.5'])).toMatchObject({ sampleType: 'Int32', decimals: 2, noData: -2147483648 });
    expect(storage(['-21474836.47'])).toMatchObject({ sampleType: 'Int32', decimals: 2 });
    expect(storage(['21474836.48'])).toMatchObject({ sampleType: 'Float64', noData: NaN });
    expect(storage(['3000000001'])).toMatchObject({ sampleType: 'Float64' });
    expect(storage(['3000000000'])).toMatchObject({ sampleType: 'Float32' }); // a Float32 exactly (3 x 2^9 x 5^9)
  });

  it('9 decimals are integers when they fit; a 10th decimal is Float64', () => {
    const st = storage(['0.123456789', '-1.000000001', '2']);
    expect(st).toMatchObject({ sampleType: 'Int32', decimals: 9 });
    for (const x of [0.123456789, -1.000000001, 2]) expect(scaledInt(x, 9) / 1e9).toBe(x);
    expect(storage(['0.1234567891'])).toMatchObject({ sampleType: 'Float64' });
    expect(storage(['3.000000001'])).toMatchObject({ sampleType: 'Float64' }); // 3000000001 > Int32
  });

  it('Float32 values (a Stata float column) stay Float32, exactly; -9999 among them forces Float64', () => {
    const f = [Math.fround(23.45), Math.fround(0.1)].map(String);
    expect(storage(f)).toEqual({ sampleType: 'Float32', decimals: 0, noData: -9999 });
    expect(storage([...f, '-9999'])).toMatchObject({ sampleType: 'Float64' });
  });

  it('an all-missing column is Int16, every cell no-data', () => {
    expect(storage(['', '', ''])).toEqual({ sampleType: 'Int16', decimals: 0, noData: -32768 });
    expect(storage([])).toEqual({ sampleType: 'Int16', decimals: 0, noData: -32768 });
  });

  it('the Int16/Int32 no-data values are outside the values stored', () => {
    expect(storage(['-327.67'])).toMatchObject({ sampleType: 'Int16' });
    expect(storage(['-327.68'])).toMatchObject({ sampleType: 'Int32' }); // -32768 is the Int16 no-data
  });
});
