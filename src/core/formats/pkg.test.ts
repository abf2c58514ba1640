import { describe, expect, it } from 'vitest';
import { FIXED_NOW, FIXTURE_META, TABLE_KEN_ADM1 } from '../../../tests/formats/formats.fixture';
import { writeGeoJson } from './geojson';
import { CELLS_KEN } from '../../../tests/formats/formats.fixture';
import { dataFileBase, requestCodes, zipFileName } from './names';
import { dataPackageJson, descriptionText, period } from './pkg';

describe('names', () => {
  it('names files after method, vars, by and area', () => {
    const c = requestCodes({ var: 'ELEVATION', by: { ELEVATION: [0, 500] }, iso3: ['KEN', 'TZA'] });
    expect(dataFileBase('getLayer', c)).toBe('getLayer-ELEVATION-ELEVATION-KEN-TZA');
    expect(zipFileName(c, 'csv')).toBe('ELEVATION-ELEVATION-KEN-TZA.csv.zip');
    expect(zipFileName(requestCodes({ var: ['A'] }), 'tif')).toBe('A-SSA.tif.zip');
    expect(zipFileName(requestCodes({ var: ['A'], wkt: 'POINT(1 1)' }), 'dta')).toBe('A-WKT.dta.zip');
    expect(dataFileBase('getLayer', requestCodes({ var: ['A', 'B', 'C', 'D', 'E'] }))).toBe('getLayer-A-B-C-and2more-SSA');
  });
});

describe('package side files', () => {
  const info = { base: 'getLayer-ELEVATION-KEN', format: 'csv', method: 'getLayer', args: { var: ['ELEVATION'], iso3: ['KEN'] }, meta: FIXTURE_META, now: FIXED_NOW, requestUrl: 'http://h/ocpu/library/indapi3/R/indapi', dataFiles: [{ name: 'getLayer-ELEVATION-KEN.csv', mediaType: 'text/csv', format: 'csv', columns: TABLE_KEN_ADM1.columns }] };
  it('describes resources with a Table Schema, licence and sources', () => {
    const p = dataPackageJson(info) as any;
    expect(p.name).toBe('getlayer-elevation-ken');
    expect(p.licenses[0].name).toBe('ODC-BY-1.0');
    expect(p.created).toBe('2026-03-04T05:06:07.000Z');
    expect(p.resources[0].schema.fields.map((f: any) => [f.name, f.type])).toEqual([['ISO3', 'string'], ['ADM0_NAME', 'string'], ['ADM1_NAME_ALT', 'string'], ['ELEVATION', 'number'], ['AREA_TOTAL', 'number'], ['ELEV_ZONE', 'string']]);
    expect(p.resources[0].schema.fields[3].unit).toBe('m');
    expect(p.resources[0].schema.fields[5].constraints.enum).toHaveLength(3);
    expect(p.sources.length).toBeGreaterThan(0);
  });
  it('folds DESCRIPTION lines as Debian control continuation lines', () => {
    const d = descriptionText(info, ['a', 'b']);
    expect(d.split('\n').every((l) => l === '' || /^[A-Za-z@]+: /.test(l) || l.startsWith(' '))).toBe(true);
    expect(d).toMatch(/^Package: getLayer-ELEVATION-KEN$/m);
  });
  it('writes the period as year or year-yearEnd', () => {
    expect(period({ ...FIXTURE_META[0], year: '2000', yearEnd: '2010' })).toBe('2000-2010');
    expect(period(FIXTURE_META[0])).toBe('2014');
  });
});

describe('GeoJSON writer', () => {
  it('writes one point per selected cell with CELL5M, X, Y and labels for classes', () => {
    const fc = JSON.parse(new TextDecoder().decode(writeGeoJson(CELLS_KEN)));
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features).toHaveLength(18);
    const f0 = fc.features[0];
    expect(f0.geometry.coordinates).toEqual([36 + 1 / 24, 0.5 - 1 / 24]);
    expect(f0.properties).toEqual({ CELL5M: 1074 * 4320 + 2592, X: 36 + 1 / 24, Y: 0.5 - 1 / 24, ELEVATION: 1523.5, ELEV_ZONE: 'Highland (> 1500 m)' });
    expect(fc.features[7].properties.ELEVATION).toBeNull();
  });
});
