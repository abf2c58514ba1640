import { describe, expect, it } from 'vitest';
import { FIXED_NOW, FIXTURE_META, TABLE_KEN_ADM1 } from '../../../tests/formats/formats.fixture';
import { writeGeoJson } from './geojson';
import { CELLS_KEN } from '../../../tests/formats/formats.fixture';
import { queryValue } from '../args';
import { dataFileBase, requestCodes, zipFileName } from './names';
import { dataPackageJson, descriptionText, period, readmeText, sentence } from './pkg';

describe('names', () => {
  it('names files after method, vars, by and area', () => {
    const c = requestCodes({ var: 'ELEVATION', by: { ELEVATION: [0, 500] }, iso3: ['KEN', 'TZA'] });
    expect(dataFileBase('getLayer', c)).toBe('getLayer-ELEVATION-ELEVATION-KEN-TZA');
    expect(zipFileName(c, 'csv')).toBe('ELEVATION-ELEVATION-KEN-TZA.csv.zip');
    expect(zipFileName(requestCodes({ var: ['A'] }), 'tif')).toBe('A-SSA.tif.zip');
    expect(zipFileName(requestCodes({ var: ['A'], wkt: 'POINT(1 1)' }), 'dta')).toBe('A-WKT.dta.zip');
    expect(zipFileName(requestCodes({ var: ['A'] }), ' RDA ')).toBe('A-SSA.rda.zip');
    expect(dataFileBase('getLayer', requestCodes({ var: ['A', 'B', 'C', 'D', 'E'] }))).toBe('getLayer-A-B-C-and2more-SSA');
  });
});

describe('package side files', () => {
  const info = { base: 'getLayer-ELEVATION-KEN', format: 'csv', method: 'getLayer', query: queryValue({ var: ['ELEVATION'], iso3: ['KEN'] }), shownRequest: { var: ['ELEVATION'], iso3: ['KEN'] }, meta: FIXTURE_META, now: FIXED_NOW, requestUrl: 'http://h/ocpu/library/indapi3/R/indapi', dataFiles: [{ name: 'getLayer-ELEVATION-KEN.csv', mediaType: 'text/csv', format: 'csv', columns: TABLE_KEN_ADM1.columns }] };
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
  it('classify: the README says what the feature column numbers and how to resend an uploaded file, not the placeholder alone', () => {
    const cols = [{ name: 'feature', role: 'key' as const, label: 'feature', unit: '', type: 'integer' as const }, ...TABLE_KEN_ADM1.columns.filter((c) => c.role === 'value')];
    const up = { ...info, method: 'classify', shownRequest: { var: ['ELEVATION'], domains: "<60 shapes of fixture-squares.gpkg, numbered 1..60 as 'feature'>", exact: true }, dataFiles: [{ ...info.dataFiles[0], columns: cols }] };
    const readme = readmeText(up, ['a.csv']);
    expect(readme).toContain('## Zones (`domains`)');
    expect(readme).toMatch(/`feature` is the shape's number: its position, from 1, among the shapes of `domains`/);
    expect(readme).toContain('the fraction of its area the shape covers (`exact = TRUE`)');
    expect(readme).toMatch(/send the file's features as a GeoJSON FeatureCollection in `domains`.*in the same order/);
    const named = readmeText({ ...up, shownRequest: { var: ['ELEVATION'], domains: { a: 'POINT(36 -1)' } }, dataFiles: [{ ...info.dataFiles[0], columns: [{ ...cols[0], name: 'name', type: 'string' as const }, ...cols.slice(1)] }] }, ['a.csv']);
    expect(named).toMatch(/`name` is the shape's name/);
    expect(named).not.toContain('uploaded in the app');
    expect(readmeText(info, ['a.csv'])).not.toContain('## Zones');
  });
  it('folds DESCRIPTION lines as Debian control continuation lines', () => {
    const d = descriptionText(info, ['a', 'b']);
    expect(d.split('\n').every((l) => l === '' || /^[A-Za-z@]+: /.test(l) || l.startsWith(' '))).toBe(true);
    expect(d).toMatch(/^Package: getLayer-ELEVATION-KEN$/m);
  });
  it('joins source texts as sentences, without doubling a final period', () => {
    expect(sentence('GSHHG version 2.3.7.')).toBe('GSHHG version 2.3.7.');
    expect(sentence(' ETOPO5 (NOAA) ')).toBe('ETOPO5 (NOAA).');
    expect(sentence('')).toBe('');
    const gshhg = { ...FIXTURE_META[1], sources: 'GSHHG 2.3.7 shorelines (GMT 6)', citation: 'Wessel P, Smith WHF (1996). GSHHG version 2.3.7.', license: 'LGPL-3.0-or-later', owner: 'indapi3 project' };
    const readme = readmeText({ ...info, meta: [gshhg] }, ['a.csv']);
    expect(readme).toContain(': GSHHG 2.3.7 shorelines (GMT 6). Licence: LGPL-3.0-or-later. Citation: Wessel P, Smith WHF (1996). GSHHG version 2.3.7. Contact: indapi3 project.');
    expect(readme).not.toMatch(/\.\.(\s|$)/m);
  });
  it('writes catalog HTML in the sources and citations as entities, as in the variables table', () => {
    const hostile = { ...FIXTURE_META[1], sourceMini: '<b>Maps</b>', sources: 'Shorelines <script>alert(1)</script>', citation: '<img src=x onerror=alert(1)> Smith & Co (1996)', license: 'CC-BY <4.0>', owner: '<a href="javascript:x">me</a>' };
    const readme = readmeText({ ...info, meta: [hostile] }, ['a.csv']);
    const sources = readme.slice(readme.indexOf('## Sources'));
    expect(sources).toContain('Citation: &lt;img src=x onerror=alert(1)&gt; Smith &amp; Co (1996).');
    expect(sources).toContain('**&lt;b&gt;Maps&lt;/b&gt;**');
    expect(sources).toContain('Shorelines &lt;script&gt;alert(1)&lt;/script&gt;.');
    expect(sources).toContain('Licence: CC-BY &lt;4.0&gt;.');
    expect(sources).toContain('Contact: &lt;a href="javascript:x"&gt;me&lt;/a&gt;.');
    expect(readme).not.toMatch(/<(img|script|b|a)[\s>]/);
  });
  it('writes the period as year or year-yearEnd', () => {
    expect(period({ ...FIXTURE_META[0], year: '2000', yearEnd: '2010' })).toBe('2000-2010');
    expect(period(FIXTURE_META[0])).toBe('2014');
  });
});

describe('GeoJSON writer', () => {
  it('writes one point per selected cell with CELL5M, X, Y, the keys and labels for classes', () => {
    const fc = JSON.parse(new TextDecoder().decode(writeGeoJson(CELLS_KEN)));
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features).toHaveLength(18);
    const f0 = fc.features[0];
    expect(f0.geometry.coordinates).toEqual([36 + 1 / 24, 0.5 - 1 / 24]);
    expect(f0.properties).toEqual({ CELL5M: 1074 * 4320 + 2592, X: 36 + 1 / 24, Y: 0.5 - 1 / 24, ISO3: 'KEN', ADM0_NAME: 'Kenya', ADM1_NAME_ALT: 'Central', ELEVATION: 1523.5, ELEV_ZONE: 'Highland (> 1500 m)' });
    expect(Object.keys(f0.properties)).toEqual(['CELL5M', 'X', 'Y', 'ISO3', 'ADM0_NAME', 'ADM1_NAME_ALT', 'ELEVATION', 'ELEV_ZONE']);
    expect(fc.features[7].properties.ELEVATION).toBeNull();
    expect(fc.features[10].properties.ADM1_NAME_ALT).toBe('Région "Côte", Est');
    expect(fc.features[17].properties.ADM1_NAME_ALT).toBeNull();
  });

  it('writes interval labels of a continuous by, and no ADM0_NAME without ISO3 names', () => {
    const cells = { ...CELLS_KEN, keys: [{ ...CELLS_KEN.keys![0], classes: [{ value: 23, label: 'KEN' }] }, { code: 'ELEVATION_by', type: 'class' as const, values: Float64Array.from(CELLS_KEN.layers[0].values, (v) => (Number.isNaN(v) ? NaN : v <= 500 ? 1 : 2)), classes: [{ value: 1, label: '(-500,500]' }, { value: 2, label: '(500,1500]' }] }] };
    const fc = JSON.parse(new TextDecoder().decode(writeGeoJson(cells)));
    expect(Object.keys(fc.features[0].properties)).toEqual(['CELL5M', 'X', 'Y', 'ISO3', 'ELEVATION_by', 'ELEVATION', 'ELEV_ZONE']);
    expect(fc.features[10].properties.ELEVATION_by).toBe('(-500,500]');
    expect(fc.features[7].properties.ELEVATION_by).toBeNull();
  });

  it('writes no key properties for a result without keys', () => {
    const fc = JSON.parse(new TextDecoder().decode(writeGeoJson({ ...CELLS_KEN, keys: undefined })));
    expect(Object.keys(fc.features[0].properties)).toEqual(['CELL5M', 'X', 'Y', 'ELEVATION', 'ELEV_ZONE']);
  });
});
