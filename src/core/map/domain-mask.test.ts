import { describe, expect, test } from 'vitest';
import { domainKey, keyLevelFor, maskToDomain, unitsDomain } from './domain-mask';
import type { RasterLevel } from './mercator';

const lvl = (width: number, height: number, values: number[], bbox: [number, number, number, number] = [0, 0, width, height], wide = false): RasterLevel =>
  ({ width, height, bbox, values: wide ? Float64Array.from(values) : Float32Array.from(values) });

describe('maskToDomain', () => {
  // 3 x 2 cells: elevation; units 1 (west) and 2 (east) of country 10, unit 3 of country 11 (south-east)
  const elev = lvl(3, 2, [2500, 2600, 2700, 2800, NaN, 2900]);
  const units = lvl(3, 2, [1, 1, 2, 1, 2, 3]);
  const iso = lvl(3, 2, [10, 10, 10, 10, 10, 11]);

  test('keeps only the cells whose every key value is in the domain; no data stays no data', () => {
    const m = maskToDomain(elev, [{ level: units, values: new Set([1, 2]) }]);
    expect(Array.from(m.values)).toEqual([2500, 2600, 2700, 2800, NaN, NaN]);
    const one = maskToDomain(elev, [{ level: units, values: new Set([2]) }, { level: iso, values: new Set([10]) }]);
    expect(Array.from(one.values)).toEqual([NaN, NaN, 2700, NaN, NaN, NaN]);
    expect(Array.from(elev.values)).toEqual([2500, 2600, 2700, 2800, NaN, 2900]); // the input is not changed
    expect(m.values).toBeInstanceOf(Float32Array);
    expect(maskToDomain(lvl(1, 1, [0.1], undefined, true), []).values).toBeInstanceOf(Float64Array);
  });

  test('a key level of another size is sampled at each drawn cell centre; outside it nothing is kept', () => {
    // the drawn level: 4 x 2 cells over [0, 0, 4, 2]; the key: 2 x 1 cells over [0, 0, 2, 2] (west half only)
    const drawn = lvl(4, 2, [1, 2, 3, 4, 5, 6, 7, 8]);
    const key = lvl(2, 1, [7, 8], [0, 0, 2, 2]);
    expect(Array.from(maskToDomain(drawn, [{ level: key, values: new Set([8]) }]).values)).toEqual([NaN, 2, NaN, NaN, NaN, 6, NaN, NaN]);
  });
});

describe('keyLevelFor / domainKey', () => {
  test('the key level of the same cell size, else the coarsest finer one', () => {
    const cells = [1 / 12, 1 / 6, 1 / 3, 2 / 3];
    expect(keyLevelFor(cells, 1 / 6)).toBe(1);
    expect(keyLevelFor(cells, 0.25)).toBe(1);
    expect(keyLevelFor(cells, 5)).toBe(3);
    expect(keyLevelFor(cells, 0.01)).toBe(0);
  });
  test('values sorted, runs as ranges, key layers in order', () => {
    expect(domainKey([{ code: 'ADM1_NAME_ALT', values: [127, 120, 121, 122, 131, 121] }, { code: 'ISO3', values: [22] }])).toBe('ADM1_NAME_ALT=120-122,127,131;ISO3=22');
  });
});

describe('unitsDomain', () => {
  test('raster values kept, labels looked up in the class table, unknown units and repeats left out', () => {
    const table = [{ value: 22, label: 'KEN' }, { value: 45, label: 'TZA' }, { value: 2, label: 'BDI' }];
    expect(unitsDomain('ISO3', ['TZA', 'KEN', 'XXX', 'KEN'], table)).toEqual([{ code: 'ISO3', values: [45, 22] }]);
    expect(unitsDomain('ADM1_NAME_ALT', [120, 121], table)).toEqual([{ code: 'ADM1_NAME_ALT', values: [120, 121] }]);
  });
});
