import { describe, expect, it } from 'vitest';
import { parseHash, toHash } from '../url-state';
import { readBreaks } from './common';
import { addSources, answerSentence, refusedSource, staleReason, minutesText, peopleShort, BANDS_RULE, coverageRows, parseCapacity, cumulativeRows, isAdditive, MAX_SOURCES, parseSourceLines, parseSourcesCsv, sourcesFromGeoJson, sourcesFromParam, sourcesToParam, type Bbox } from './catchment';

describe('catchment panel state', () => {
  it('bands in the link (cm=) round-trip; bad ones are dropped', () => {
    const s = parseHash('#panel=catchment&pick=36.82,-1.29&cm=0,120,480');
    expect(s.panel).toBe('catchment');
    expect(s.cm).toEqual([0, 120, 480]);
    expect(toHash(s)).toContain('cm=0%2C120%2C480');
    expect(parseHash('#cm=0,60,30').cm).toBeNull();
    expect(parseHash('#cm=60').cm).toBeNull();
  });
  it("typed bands: increasing minutes under the API's minutes rule, or a message naming the field and what is wrong", () => {
    expect(readBreaks('0, 60 120;240', BANDS_RULE)).toEqual([0, 60, 120, 240]);
    expect(readBreaks('0, 60, 30', BANDS_RULE)).toBe('Travel-time bands must be strictly increasing numbers; 30 follows 60.');
    expect(readBreaks('60', BANDS_RULE)).toBe('Travel-time bands need at least two breaks (minutes), e.g. 0, 60, 120, 240; got 1.');
    expect(readBreaks('-60, 0', BANDS_RULE)).toBe('Travel-time bands must be finite numbers of minutes >= 0; got -60.');
    expect(readBreaks(Array.from({ length: 101 }, (_, i) => i).join(','), BANDS_RULE)).toBe('Travel-time bands give 101 breaks; at most 100 are allowed.');
  });
});


const BBOX: Bbox = [-26, -35, 64, 28];

describe('catchment sources (issue 24)', () => {
  it('pasted lines: lon, lat[, name]; a bad line is named by its row, the good ones kept', () => {
    const r = parseSourceLines('36.82, -1.29, Nairobi\n\n34.76;-0.10;Kisumu, the port\n# note\n39.67\t-4.05\nabc, 1\n100, 5, Far', BBOX);
    expect(r.sources).toEqual([
      { lon: 36.82, lat: -1.29, name: 'Nairobi' }, { lon: 34.76, lat: -0.1, name: 'Kisumu, the port' }, { lon: 39.67, lat: -4.05, name: '' },
    ]);
    expect(r.errors).toHaveLength(2);
    expect(r.errors[0]).toMatch(/^Row 6: longitude and latitude must be numbers/);
    expect(r.errors[1]).toMatch(/^Row 7: 100\.0000, 5\.0000 lies outside the grid/);
    expect(parseSourceLines('36.8', BBOX).errors[0]).toMatch(/^Row 1: expected "longitude, latitude/);
  });
  it('CSV: lon/lat/name/capacity columns found by name; no lon/lat column, long names and bad capacity are messages', () => {
    const r = parseSourcesCsv('\uFEFFName,Longitude,Latitude,capacity\nNairobi,36.82,-1.29,1000000\nKisumu,34.76,-0.10,\nBad,39.67,-4.05,-5\nWord,39.67,-4.05,lots\n' + `${'x'.repeat(201)},30,0,\n`, BBOX);
    expect(r.sources).toEqual([{ lon: 36.82, lat: -1.29, name: 'Nairobi', capacity: 1e6 }, { lon: 34.76, lat: -0.1, name: 'Kisumu' }]);
    expect(r.errors.map((e) => e.slice(0, 6))).toEqual(['Row 3:', 'Row 4:', 'Row 5:']);
    expect(r.errors[0]).toMatch(/capacity must be a number of people, 0 or more/);
    expect(r.errors[2]).toMatch(/201 characters; at most 200/);
    expect(parseSourcesCsv('town,east,north\nA,1,2\n', BBOX)).toEqual({ sources: [], errors: ['The table has no longitude (lon) column; its columns are: town, east, north.'] });
  });
  it('GeoJSON (and KML through togeojson): points with name/capacity properties; other geometries named', () => {
    const fc = { type: 'FeatureCollection', features: [
      { type: 'Feature', properties: { NAME: 'Mombasa', Capacity: 20 }, geometry: { type: 'Point', coordinates: [39.67, -4.05] } },
      { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: [[0, 0], [1, 1]] } },
      { type: 'Feature', properties: { name: 'two' }, geometry: { type: 'MultiPoint', coordinates: [[30, 0], [31, 0]] } },
    ] };
    const r = sourcesFromGeoJson(fc, BBOX);
    expect(r.sources).toEqual([{ lon: 39.67, lat: -4.05, name: 'Mombasa', capacity: 20 }, { lon: 30, lat: 0, name: 'two' }, { lon: 31, lat: 0, name: 'two' }]);
    expect(r.errors).toEqual(['Row 2: feature 2 is a LineString; only points can be sources.']);
  });
  it('addSources: default and unique names, duplicates left out, more than 1,000 refused as a whole', () => {
    const a = addSources([], [{ lon: 1, lat: 2, name: '' }, { lon: 3, lat: 4, name: 'A' }, { lon: 5, lat: 6, name: 'A' }, { lon: 1, lat: 2, name: 'again' }]);
    expect(a.list.map((s) => s.name)).toEqual(['Source 1', 'A', 'A (2)']);
    expect(a.errors).toEqual(['again: already a source at 1.0000, 2.0000; left out.']);
    const many = Array.from({ length: MAX_SOURCES + 1 }, (_, i) => ({ lon: i / 100, lat: 0, name: '' }));
    const b = addSources(a.list, many);
    expect(b.list).toBe(a.list);
    expect(b.errors[0]).toMatch(/1004 sources: at most 1000/);
  });
  it('the link keeps sources, names and capacities (src=); malformed entries are dropped', () => {
    const list = [{ lon: 36.82, lat: -1.29, name: 'Nairobi' }, { lon: 34.761234567, lat: -0.1, name: 'Kisumu, "port"', capacity: 5 }];
    const p = sourcesToParam(list);
    expect(sourcesFromParam(p)).toEqual([list[0], { ...list[1], lon: 34.76123 }]);
    expect(sourcesFromParam('[[1,2,"a"],["x",2],[500,1,"b"],7]')).toEqual([{ lon: 1, lat: 2, name: 'a' }]);
    expect(sourcesFromParam('not json')).toEqual([]);
    const s = parseHash(`#panel=catchment&src=${encodeURIComponent(p)}`);
    expect(s.src).toEqual(sourcesFromParam(p));
    expect(parseHash(toHash(s)).src).toEqual(s.src);
  });
  it('cumulative "within N" figures add band figures up; only plain sums are additive', () => {
    expect(cumulativeRows([{ cells: 1, POP: 10 }, { cells: 2, POP: null }, { cells: 3, POP: 5 }], ['cells', 'POP'])).toEqual([{ cells: 1, POP: 10 }, { cells: 3, POP: 10 }, { cells: 6, POP: 15 }]);
    expect(isAdditive('sum(POP_MODEL, na.rm=TRUE)', 'POP_MODEL')).toBe(true);
    expect(isAdditive('mean(ELEVATION, na.rm=TRUE)', 'ELEVATION')).toBe(false);
    expect(isAdditive('sum(A*B, na.rm=TRUE)', 'A')).toBe(false);
  });
});

describe('a refused source and an old result', () => {
  const used = [{ lon: 36.82, lat: -1.29 }, { lon: 45, lat: -10 }];
  it('the engine\'s message names the row: that source is flagged (sea, outside the grid); other errors flag none', () => {
    expect(refusedSource("'xy' row 2: the point (45.0000, -10.0000) lies on a no-data cell of FRICTION_WALK and no passable cell is within snap_km = 10 km", used)).toEqual({ source: used[1], why: expect.stringMatching(/^in the sea/) });
    expect(refusedSource("'xy' row 1: the point (100.0000, 50.0000) lies outside the grid", used)?.why).toBe('outside the grid');
    // the engine names the source after the row, as it does for a named source (the panel names them all)
    expect(refusedSource("'xy' row 2 (Source 2 (sea)): the point (41.2000, -4.2000) lies on a no-data cell of the friction surface (sea, a lake or outside the countries), which travel cannot cross", used)?.source).toBe(used[1]);
    expect(refusedSource("'minutes' gives 101 breaks; at most 100", used)).toBeNull();
    expect(refusedSource("'xy' row 9: the point (1.0000, 1.0000) lies outside the grid", used)).toBeNull();
  });
  it('a result is marked old once the sources are removed, a value is refused or the inputs changed', () => {
    const last = { xy: [[1, 2]], minutes: [0, 60], var: ['POP_MODEL'] };
    expect(staleReason(true, 1, false, last, last)).toBeNull();
    expect(staleReason(false, 0, false, undefined, last)).toBeNull();
    expect(staleReason(true, 0, false, last, { ...last, xy: [] })).toMatch(/^The sources were removed/);
    expect(staleReason(true, 1, true, last, last)).toMatch(/band or capacity was not accepted/);
    expect(staleReason(true, 1, false, last, { ...last, minutes: [0, 120] })).toMatch(/changed/);
  });
});

describe('the answer in one sentence', () => {
  const row = (source: string | undefined, to: number, within: number) => ({ ...(source ? { source } : {}), band: `(${to - 60},${to}]`, minutes_to: to, POP_MODEL_within: within });
  const res = {
    breaks: [0, 60, 120], marketshed: true, cumulative: false,
    sources: [{ name: 'Nairobi' }, { name: 'Kisumu' }, { name: 'Mombasa' }],
    table: { columns: [], meta: [], rows: [row('Nairobi', 60, 1e6), row('Nairobi', 120, 2_812_345), row('Kisumu', 60, 1), row('Kisumu', 120, 523_456), row('Mombasa', 120, 9_876), row(undefined, 60, 1), row(undefined, 120, 3_345_677)] },
  } as unknown as Parameters<typeof answerSentence>[0];
  it('each source within the last break, then all together, with how the people were counted', () => {
    expect(answerSentence(res, 'POP_MODEL', 'modelled')).toBe('Within 2 h: Nairobi 2.81 M, Kisumu 523 k, Mombasa 9,876, together 3.35 M people (modelled).');
    expect(answerSentence(res, 'POP_MODEL', 'modelled', 2)).toBe('Within 2 h: Nairobi 2.81 M, Kisumu 523 k, 1 more, together 3.35 M people (modelled).');
    expect(answerSentence(res, 'PN14_POP', '')).toBeNull();
  });
  it('one source; cumulative bands read the band figures; minutes that are not whole hours', () => {
    const one = { breaks: [0, 90], marketshed: false, cumulative: true, sources: [{ name: 'Kisumu' }], table: { columns: [], meta: [], rows: [{ band: '[0,90]', minutes_to: 90, POP_MODEL: 812_000 }] } } as unknown as Parameters<typeof answerSentence>[0];
    expect(answerSentence(one, 'POP_MODEL', 'modelled')).toBe('Within 90 min of Kisumu: 812 k people (modelled).');
    expect(minutesText(120)).toBe('2 h');
    expect(peopleShort(2_805_000)).toBe('2.81 M');
  });
});

describe('coverage with capacity in the panel (issue 24 item 6)', () => {
  it('a typed capacity: people, 0 or more; thousands separators read; empty is none; bad input says why', () => {
    expect(parseCapacity('12,000')).toBe(12000);
    expect(parseCapacity(' 12 000 ')).toBe(12000);
    expect(parseCapacity('0')).toBe(0);
    expect(parseCapacity('')).toBeUndefined();
    expect(parseCapacity('-5')).toMatch(/^Capacity must be a number of people, 0 or more \(got "-5"\)/);
    expect(parseCapacity('lots')).toMatch(/got "lots"/);
  });
  it('rows per source (covered, in reach, left uncovered) and all sources', () => {
    const res = {
      sources: [{ name: 'Nairobi' }, { name: 'Kisumu' }],
      coverage: { sources: [{ source: 0, capacity: 100, covered: 100, cells: 2, minutes: 42, inReach: 250 }, { source: 1, capacity: 500, covered: 80, cells: 3, minutes: NaN, inReach: 80 }], inReach: 330, covered: 180, uncovered: 150 },
    } as never;
    expect(coverageRows(res)).toEqual([
      { source: 'Nairobi', capacity: 100, population_covered: 100, population_in_reach: 250, population_uncovered: 150, minutes_covered: 42 },
      { source: 'Kisumu', capacity: 500, population_covered: 80, population_in_reach: 80, population_uncovered: 0, minutes_covered: null },
      { source: 'All sources', capacity: 600, population_covered: 180, population_in_reach: 330, population_uncovered: 150, minutes_covered: null },
    ]);
  });
});
