import { describe, expect, test } from 'vitest';
import { DEFAULT_STATE } from './url-state';
import { unknownLinkCodes } from './useLinkCodes';

const byCode = new Map([['PWT_POP', {}], ['ISO3', {}], ['ELEV_ZONE', {}]]);
const iso = [{ code: 'KEN' }, { code: 'NGA' }] as never[];

describe("a link's unknown codes", () => {
  test("the Table builder's year domain (tr=year or tc=year, as the panel writes it) is kept", () => {
    expect(unknownLinkCodes({ ...DEFAULT_STATE, v: 'PWT_POP', tv: 'PWT_POP', tr: 'ISO3', tc: 'year', iso: ['KEN'] }, byCode, iso)).toEqual([]);
    expect(unknownLinkCodes({ ...DEFAULT_STATE, tv: 'PWT_POP', tr: 'year', tc: 'ISO3' }, byCode, iso)).toEqual([]);
  });
  test('unknown codes are named once; year is not an indicator for the cells or the map', () => {
    expect(unknownLinkCodes({ ...DEFAULT_STATE, v: 'NOPE', tv: 'year', vars: ['NOPE', 'year'], iso: ['KEN', 'XXX'] }, byCode, iso)).toEqual(['NOPE', 'year', 'XXX']);
  });
});
