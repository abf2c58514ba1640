import { describe, expect, it } from 'vitest';
import { decimalDivisor, gdalScaleXml, parseGdalScale, sampleDecoder } from './decode';

describe('GDAL scale/offset metadata', () => {
  it('reads band 0 SCALE and OFFSET by role as GDAL writes them, and writes them back', () => {
    const xml = '<GDALMetadata>\n  <Item name="OFFSET" sample="0" role="offset">0</Item>\n  <Item name="SCALE" sample="0" role="scale">0.01</Item>\n' +
      '  <Item name="SCALE" sample="1" role="scale">5</Item>\n  <Item name="AREA_OR_POINT">Area</Item>\n</GDALMetadata>';
    expect(parseGdalScale(xml)).toEqual({ scale: 0.01, offset: 0 });
    expect(parseGdalScale(gdalScaleXml(1e-9, 0))).toEqual({ scale: 1e-9, offset: 0 });
    expect(parseGdalScale(null)).toEqual({ scale: null, offset: null });
    expect(parseGdalScale('<GDALMetadata><Item name="X">1</Item></GDALMetadata>')).toEqual({ scale: null, offset: null });
  });

  it('a scale of 10^-k with offset 0 is a decimal scale; others are not', () => {
    expect(decimalDivisor({ scale: 0.1, offset: 0 })).toBe(10);
    expect(decimalDivisor({ scale: 0.01, offset: null })).toBe(100);
    expect(decimalDivisor({ scale: 1e-9, offset: 0 })).toBe(1e9);
    expect(decimalDivisor({ scale: 0.5, offset: 0 })).toBe(0);
    expect(decimalDivisor({ scale: 0.1, offset: 3 })).toBe(0);
    expect(decimalDivisor({ scale: null, offset: null })).toBe(0);
  });
});

describe('sample decoding', () => {
  it('decodes n / 10^k to the double nearest the decimal text (parseFloat), where n * 10^-k does not', () => {
    const dec = sampleDecoder({ noData: -32768, float32: false, scale: 0.01, offset: 0 });
    let multiplyWrong = 0, wrong = 0;
    for (let n = -32767; n <= 32767; n++) {
      const text = `${n < 0 ? '-' : ''}${Math.floor(Math.abs(n) / 100)}.${String(Math.abs(n) % 100).padStart(2, '0')}`;
      if (dec(n) !== Number(text)) wrong++;
      if (n * 0.01 !== Number(text)) multiplyWrong++;
    }
    expect(wrong).toBe(0);
    expect(multiplyWrong).toBeGreaterThan(1000);
    expect(dec(-32768)).toBeNaN();
    expect(sampleDecoder({ noData: -32768, float32: false, scale: 0.1, offset: 0 })(2345)).toBe(234.5);
    expect(sampleDecoder({ noData: -2147483648, float32: false, scale: 1e-9, offset: 0 })(123456789)).toBe(0.123456789);
  });

  it('applies another scale and offset as GDAL does; unscaled samples only lose no-data', () => {
    expect(sampleDecoder({ noData: 0, float32: false, scale: 0.5, offset: 10 })(4)).toBe(12);
    const f = sampleDecoder({ noData: -9999, float32: true, scale: null, offset: null });
    expect([Math.fround(23.45), -9999, NaN].map(f)).toEqual([Math.fround(23.45), NaN, NaN]);
    expect(sampleDecoder({ noData: NaN, float32: false, scale: null, offset: null })(-9999)).toBe(-9999);
  });
});
