import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { pinSet } from './pin-set';

const vi = Papa.parse<Record<string, string>>(readFileSync('public/data/vi.csv', 'utf8'), { header: true, skipEmptyLines: true }).data as any[];
const manifest = JSON.parse(readFileSync('public/data/manifest.json', 'utf8')) as { files: { path: string }[] };
const inBundle = (c: string) => manifest.files.some((f) => f.path === `cog/${c}.tif`);

describe('pinSet on the embedded bundle', () => {
  test('a weighted mean keeps its weight and the key layers', () => {
    const s = pinSet(['ELEVATION'], vi, inBundle);
    expect(s.codes).toEqual(['ELEVATION']);
    expect(s.needed).toContain('AREA_TOTAL');
    expect(s.needed).toEqual(expect.arrayContaining(['ISO3', 'ADM0_NAME', 'ADM1_NAME_ALT', 'ADM1_CODE_ALT']));
    expect(s.needed).not.toContain('ADM2_NAME_ALT');
  });
  test('a ratio keeps its denominator; codes already chosen are not repeated', () => {
    const s = pinSet(['PN14_LIFEEXP', 'ISO3'], vi, inBundle);
    expect(s.codes).toEqual(['PN14_LIFEEXP', 'ISO3']);
    expect(s.needed).toContain('PN14_POP');
    expect(s.needed).not.toContain('ISO3');
  });
  test('codes without a COG are dropped; nothing chosen adds nothing', () => {
    expect(pinSet(['NOPE'], vi, inBundle)).toEqual({ codes: [], needed: [] });
  });
  test('a formula that does not parse adds only the key layers', () => {
    const s = pinSet(['A'], [{ varCode: 'A', aggFunR: 'system("x")', type: 'continuous' }], (c) => c === 'A' || c === 'ISO3');
    expect(s).toEqual({ codes: ['A'], needed: ['ISO3'] });
  });
});
