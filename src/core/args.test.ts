import { describe, expect, it } from 'vitest';
import { CELLS_KEN, FIXED_NOW, FIXTURE_META, TABLE_KEN_ADM1 } from '../../tests/formats/formats.fixture';
import { iso3Codes, queryValue } from './args';
import { genFile } from './formats';

describe('queryValue: a request read once into the value the writers get', () => {
  it('reads codes by the list readers, upper-cases iso3 once and names the area', () => {
    expect(queryValue({ var: 'ELEVATION', by: { ELEVATION: [0, 500] }, iso3: ['ken', 'Tza'], collapse: false, pal: 'YlGnBu', format: 'csv' })).toEqual({
      vars: ['ELEVATION'], by: ['ELEVATION'], iso3: ['KEN', 'TZA'], area: ['KEN', 'TZA'], collapse: false, pal: 'YlGnBu',
    });
    expect(queryValue({ var: ['A'], ids: [1, 2] }).area).toEqual(['CELLS']);
    expect(queryValue({ var: ['A'], wkt: 'POINT(1 1)' })).toMatchObject({ iso3: [], area: ['WKT'], wkt: 'POINT(1 1)' });
    expect(queryValue({ var: ['A'] }).area).toEqual(['SSA']);
    // similar()'s `by` is a unit level
    expect(queryValue({ x: 'Eastern', var: ['A'], by: 1 }).by).toEqual(['1']);
    expect(iso3Codes('eaf')).toEqual(['EAF']);
    expect(() => queryValue({ var: ['A'], iso3: [3] })).toThrow(/'iso3' must be text/);
  });

  it('names the files of a request with lower-case iso3 as its rows are named (KEN, not ken)', async () => {
    const args = { var: ['ELEVATION', 'ELEV_ZONE'], iso3: ['ken'], by: ['ADM1_NAME_ALT'] };
    const r = await genFile({ format: 'csv', method: 'getLayer', args, table: TABLE_KEN_ADM1, cells: CELLS_KEN, meta: FIXTURE_META, now: FIXED_NOW });
    expect(r.zipName).toBe('ELEVATION-ELEV_ZONE-ADM1_NAME_ALT-KEN.csv.zip');
    expect(r.files[0].name).toBe('getLayer-ELEVATION-ELEV_ZONE-ADM1_NAME_ALT-KEN.csv');
    // the README shows the request as sent
    const readme = new TextDecoder().decode(r.files.find((f) => f.name === 'README.md')!.bytes);
    expect(readme).toContain('"ken"');
    expect(readme.split('\n')[0]).toMatch(/\(KEN\)$/);
  });
});
