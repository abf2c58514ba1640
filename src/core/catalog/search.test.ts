import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseVi } from '../bundle';
import { buildCatalogIndex, buildQuery, CATALOG_SYNONYMS, facetValue, fold } from './search';
import type { VarRecord } from '../types';
import { catalog750Csv } from '../../../tests/fixtures/catalog750.fixture';

const bundle = parseVi(readFileSync('public/data/vi.csv', 'utf8'));
const big = parseVi(catalog750Csv());
const bundleIx = buildCatalogIndex(bundle);
const bigIx = buildCatalogIndex(big);
const codes = (ix: ReturnType<typeof buildCatalogIndex>, q: string, f = {}) => ix.search(q, f).hits.map((h) => h.rec.varCode);

const rec = (p: Partial<VarRecord>): VarRecord => ({
  varCode: 'X', varLabel: '', varTitle: '', varDesc: '', unit: '', type: 'continuous', dec: 0, aggFunR: '', classBreaks: '', classLabels: '',
  classColors: '', cat1: '', cat2: '', cat3: '', year: '', yearEnd: '', sources: '', sourceMini: '', owner: '', citation: '', license: '',
  version: '', published: '', dataType: '', noData: '', classTable: '', ...p,
});

describe('catalog search on the embedded bundle', () => {
  test('everyday words find the places and distance layers (issue 11 item 8)', () => {
    for (const q of ['town', 'city', 'towns', 'cities', 'market']) {
      const c = codes(bundleIx, q);
      expect(c, q).toEqual(expect.arrayContaining(['DIST_PLACE20K', 'DIST_PLACE50K', 'DIST_PLACE100K', 'DIST_PLACE500K', 'PLACES_N', 'PLACES_POP']));
      expect(c, q).not.toContain('ELEVATION');
    }
    const tt = codes(bundleIx, 'travel time');
    expect(tt).toEqual(expect.arrayContaining(['DIST_COAST', 'DIST_PLACE20K', 'DIST_PLACE500K']));
    expect(tt).not.toContain('SLOPE');
  });

  test('"population" ranks POP_MODEL (where people live) before PN14_POP (spread evenly: its description says use POP_MODEL)', () => {
    for (const q of ['population', 'people', 'pop']) {
      const c = codes(bundleIx, q);
      expect(c.indexOf('POP_MODEL'), q).toBeGreaterThanOrEqual(0);
      expect(c.indexOf('POP_MODEL'), q).toBeLessThan(c.indexOf('PN14_POP'));
    }
    // an exact code still comes first
    expect(codes(bundleIx, 'PN14_POP')[0]).toBe('PN14_POP');
    expect(codes(bundleIx, 'population')).toHaveLength(new Set(codes(bundleIx, 'population')).size);
  });

  test('word starts, not inside words; every word must match; code prefixes', () => {
    expect(codes(bundleIx, 'terr')).toEqual(expect.arrayContaining(['ELEVATION', 'SLOPE', 'TRI']));
    expect(codes(bundleIx, 'rain')).toEqual([]); // "Terrain" is no rain
    expect(codes(bundleIx, 'dist_co')[0]).toBe('DIST_COAST');
    expect(codes(bundleIx, 'distance coast')[0]).toBe('DIST_COAST');
    expect(codes(bundleIx, 'coast')[0]).toBe('DIST_COAST');
    expect(codes(bundleIx, 'oast')).toEqual([]);
    expect(codes(bundleIx, 'distance elevation')).toEqual([]);
    expect(codes(bundleIx, '(')).toHaveLength(bundle.length); // no words: everything, no error
  });

  test('synonyms: height, altitude and pop', () => {
    expect(codes(bundleIx, 'height')[0]).toBe('ELEVATION');
    expect(codes(bundleIx, 'altitude')).toContain('ELEVATION');
    expect(codes(bundleIx, 'pop')).toEqual(expect.arrayContaining(['PN14_POP', 'PLACES_POP']));
    expect(codes(bundleIx, 'province')).toEqual(expect.arrayContaining(['ADM1_NAME_ALT', 'ADM1_CODE_ALT']));
    expect(codes(bundleIx, 'lake')).toContain('AREA_WATER');
    expect(codes(bundleIx, 'income')).toEqual(expect.arrayContaining(['INCOME_GRP', 'PN14_GDPPC']));
  });

  test('searches descriptions and sources, ranked below label hits', () => {
    // "shoreline" is only in descriptions; "GSHHG" is a source (and in labels)
    expect(codes(bundleIx, 'shoreline').length).toBeGreaterThan(0);
    expect(codes(bundleIx, 'ferret')).toEqual(expect.arrayContaining(['ELEVATION', 'SLOPE']));
    const hit = bundleIx.search('shoreline').hits[0];
    expect(hit.fields).toContain('description');
  });
});

describe('catalog search ranking, accents, synonyms', () => {
  const recs = [
    rec({ varCode: 'D_ONLY', varLabel: 'Something', varDesc: 'mentions maize in passing' }),
    rec({ varCode: 'CAT_ONLY', varLabel: 'Other', cat1: 'Maize systems' }),
    rec({ varCode: 'TITLE_ONLY', varLabel: 'Third', varTitle: 'Maize area' }),
    rec({ varCode: 'LABEL_HIT', varLabel: 'Maize yield' }),
    rec({ varCode: 'MAIZE', varLabel: 'Crop' }),
    rec({ varCode: 'CIV', varLabel: "Régions de Côte d'Ivoire", sourceMini: 'Institut Géographique' }),
  ];
  const ix = buildCatalogIndex(recs);
  test('exact code first, then label, then title, then category, then description', () => {
    expect(codes(ix, 'maize')).toEqual(['MAIZE', 'LABEL_HIT', 'TITLE_ONLY', 'CAT_ONLY', 'D_ONLY']);
  });
  test('accent-insensitive both ways', () => {
    expect(codes(ix, 'cote')).toEqual(['CIV']);
    expect(codes(ix, 'Côte')).toEqual(['CIV']);
    expect(codes(ix, 'REGIONS ivoire')).toEqual(['CIV']);
    expect(codes(ix, 'geographique')).toEqual(['CIV']);
    expect(fold('Côte d’Ivoire')).toBe('cote d’ivoire');
  });
  test('extra fields of an ingested catalog are searched (after the named fields)', () => {
    const i2 = buildCatalogIndex([rec({ varCode: 'K', varLabel: 'Thing', dKeywords: 'groundwater; irrigation' } as any), rec({ varCode: 'L', varLabel: 'Irrigation share' })]);
    expect(i2.search('groundwater').hits.map((h) => h.rec.varCode)).toEqual(['K']);
    expect(i2.search('irrigation').hits.map((h) => h.rec.varCode)).toEqual(['L', 'K']);
  });
  test('a synonym hit ranks below a hit of the typed word', () => {
    const i2 = buildCatalogIndex([rec({ varCode: 'P', varLabel: 'Distance to place' }), rec({ varCode: 'T', varLabel: 'Town halls' })]);
    const hits = i2.search('town').hits;
    expect(hits.map((h) => h.rec.varCode)).toEqual(['T', 'P']);
    expect(hits[1].viaSynonym).toBe(true);
    expect(hits[0].viaSynonym).toBe(false);
  });
  test('phrases: "travel time" as typed and as a synonym group', () => {
    const q = buildQuery('travel time to town');
    expect(JSON.stringify(q.query)).toContain('"distance"');
    expect(q.synonymTerms.has('distance')).toBe(true);
    // one entry per key, keys are lower case
    for (const k of Object.keys(CATALOG_SYNONYMS)) expect(k).toBe(k.toLowerCase());
  });
});

describe('the 750-record fixture catalog', () => {
  test('has 750 records, unique codes', () => {
    expect(big).toHaveLength(750);
    expect(new Set(big.map((r) => r.varCode)).size).toBe(750);
  });
  test('synonyms reach travel time, settlements and precipitation', () => {
    const town = codes(bigIx, 'town');
    expect(town).toEqual(expect.arrayContaining(['TT_20K', 'DIST_PLACE50K', 'PLACES_100K']));
    expect(codes(bigIx, 'rain')).toEqual(expect.arrayContaining(['PRE60_01', 'PRE90_12']));
    expect(codes(bigIx, 'rain').every((c) => c.startsWith('PRE') || /_R10$/.test(c))).toBe(true); // precipitation, or rainfed crops
    const yieldHits = codes(bigIx, 'maize yield');
    expect(yieldHits[0]).toMatch(/^MAIZ_Y_/);
    expect(codes(bigIx, 'district')).toContain('ADM2_NAME_ALT');
    expect(codes(bigIx, 'poverty')).toEqual(expect.arrayContaining(['POV10_125', 'GDP10_PC']));
  });
  test('filters combine with the search; counts per option ignore their own facet', () => {
    const all = bigIx.search('');
    expect(all.hits).toHaveLength(750);
    const cat = Object.fromEntries(all.facets.category.map((o) => [o.value, o.count]));
    expect(cat.Production).toBe(big.filter((r) => r.cat1 === 'Production').length);
    const r = bigIx.search('maize', { year: ['2005'] });
    expect(r.hits.every((h) => h.rec.year === '2005' && /maize/i.test(h.rec.varLabel))).toBe(true);
    expect(r.hits).toHaveLength(4); // 4 variables, all systems, 2005
    // year counts are over "maize" with no year filter applied; other facets over year 2005
    const years = Object.fromEntries(r.facets.year.map((o) => [o.value, o.count]));
    expect(years['2005']).toBe(4);
    expect(years['2010']).toBe(12);
    expect(r.facets.type.find((o) => o.value === 'continuous')!.count).toBe(4);
    // several options of one facet: any; two facets: both
    const two = bigIx.search('', { category: ['Demographics', 'Income and poverty'], type: ['class'] });
    expect(two.hits).toHaveLength(0);
    const cls = bigIx.search('', { type: ['class'] });
    expect(cls.hits.map((h) => h.rec.varCode).sort()).toEqual(['ADM1_NAME_ALT', 'ADM2_NAME_ALT', 'ISO3', 'REGION_CI']);
    expect(bigIx.search('', { source: ['Fixture census'] }).hits.every((h) => facetValue(h.rec, 'source') === 'Fixture census')).toBe(true);
  });
});
