/**
 * THE table of contract cases: request, expected status, headers and body checks. The
 * same table runs against the Node server (tests/contract/node.test.ts, plain fetch) and
 * against the service worker in Chromium (e2e/contract.e2e.test.ts, fetch from the page),
 * so the two can never drift.
 *
 * Checks hold for the real engine on the real bundle and for the fixture engine: they
 * test shapes, statuses, headers and messages, not indicator values.
 *
 * Placeholders in paths and header expectations: `{key}` = the session key made by the
 * case's `session` call, `{origin}` = scheme://host:port of the server, `{file:.ext}` = the
 * first file of the session whose name ends with `.ext`.
 */
import { expect } from 'vitest';

/** A request of a case. */
export interface CaseRequest {
  method?: string;
  /** Path from the origin (contract prefix included), with placeholders. */
  path: string;
  headers?: Record<string, string>;
  /** Body text, `{ fill: n }` for n bytes of a form body (size-limit cases), or `{ base64 }` for bytes (R objects). */
  body?: string | { fill: number } | { base64: string };
}

/** What a runner saw. */
export interface CaseResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
  /** Final URL (after redirects, when followed). */
  url: string;
  redirected: boolean;
}

/** One contract case. */
export interface ContractCase {
  name: string;
  /** A call made first; its X-ocpu-session fills `{key}`. */
  session?: CaseRequest;
  request: CaseRequest;
  /** Expected status. */
  status: number;
  /** The answer redirects to this path (status 302 with Location, or followed to it). */
  redirect?: string;
  /** Header expectations (names lower-case); strings are exact after placeholder substitution. */
  headers?: Record<string, string | RegExp>;
  /** Substrings or patterns the body text must contain. */
  text?: Array<string | RegExp>;
  /** Exact body text (placeholders substituted). */
  exact?: string;
  /** Assertions on the parsed JSON body. */
  json?: (v: any) => void;
  /** Assertions on the body bytes. */
  bytes?: (b: Uint8Array) => void;
}

const P = '/ocpu';
const LIB = `${P}/library/indapi3`;
const R = `${LIB}/R`;
const RDSH = { 'Content-Type': 'application/rds' };
/** serialize(list(var = "ELEVATION", iso3 = factor("KEN"), by = list(ELEVATION = c(0, 500, 1500))), NULL) in R 4. */
const RDS_GETLAYER =
  'WAoAAAADAAQCAgADBQAAAAAFVVRGLTgAAAITAAAAAwAAABAAAAABAAQACQAAAAlFTEVWQVRJT04AAAMNAAAAAQAAAAEAAAQCAAAAAQAEAAkAAAAGbGV2ZWxzAAAAEAAAAAEABAAJAAAAA0tFTgAABAIAAAABAAQACQAAAAVjbGFzcwAAABAAAAABAAQACQAAAAZmYWN0b3IAAAD+AAACEwAAAAEAAAAOAAAAAwAAAAAAAAAAQH9AAAAAAABAl3AAAAAAAAAABAIAAAABAAQACQAAAAVuYW1lcwAAABAAAAABAAQACQAAAAlFTEVWQVRJT04AAAD+AAAEAgAAA/8AAAAQAAAAAwAEAAkAAAADdmFyAAQACQAAAARpc28zAAQACQAAAAJieQAAAP4=';
/** serialize(list(q = new.env()), NULL) in R 4. */
const RDS_ENV =
  'WAoAAAADAAQCAgADBQAAAAAFVVRGLTgAAAITAAAAAQAAAAQAAAAAAAAA/QAAAP4AAAATAAAAHQAAAP4AAAD+AAAA/gAAAP4AAAD+AAAA/gAAAP4AAAD+AAAA/gAAAP4AAAD+AAAA/gAAAP4AAAD+AAAA/gAAAP4AAAD+AAAA/gAAAP4AAAD+AAAA/gAAAP4AAAD+AAAA/gAAAP4AAAD+AAAA/gAAAP4AAAD+AAAA/gAABAIAAAABAAQACQAAAAVuYW1lcwAAABAAAAABAAQACQAAAAFxAAAA/g==';
const MP_BOUNDARY = '------------------------6e1fb581562bf23b';
/**
 * The body R's curl sends for ocpu_post_multipart('/library/indapi3/R/getLayer', list(var =
 * "ELEVATION", iso3 = "KEN", by = list(ELEVATION = c(0, 500, 1500)))): atomic values as
 * curl_escape(deparse(x)), the list as form_data(serialize(x, NULL), "application/rds").
 */
function multipartRds(): string {
  const by = Buffer.from('WAoAAAADAAQCAgADBQAAAAAFVVRGLTgAAAITAAAAAQAAAA4AAAADAAAAAAAAAABAf0AAAAAAAECXcAAAAAAAAAAEAgAAAAEABAAJAAAABW5hbWVzAAAAEAAAAAEABAAJAAAACUVMRVZBVElPTgAAAP4=', 'base64');
  const field = (name: string, v: string) => `--${MP_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${v}\r\n`;
  const head = field('var', '%22ELEVATION%22') + field('iso3', '%22KEN%22') + `--${MP_BOUNDARY}\r\nContent-Disposition: form-data; name="by"\r\nContent-Type: application/rds\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), by, Buffer.from(`\r\n--${MP_BOUNDARY}--\r\n`)]).toString('base64');
}
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const JSONH = { 'Content-Type': 'application/json' };
const TEXT_PLAIN = /^text\/plain; charset=utf-8$/;
const KEY_RE = /^x0[0-9a-f]{32}$/;
const METHOD_NAMES = ['catchment', 'category', 'classify', 'describe', 'genFile', 'getLayer', 'getLayerWKT', 'indapi', 'similar'];

/** Successful-call headers: 201 + session key + absolute Location. */
const CREATED = { 'x-ocpu-session': KEY_RE, location: /^https?:\/\/[^/]+\/ocpu\/tmp\/x0[0-9a-f]{32}\/$/ };

const csvSession: CaseRequest = {
  method: 'POST',
  path: `${R}/indapi`,
  headers: JSONH,
  body: JSON.stringify({ var: 'ELEVATION', iso3: 'KEN', by: ['ADM1_NAME_ALT'], format: 'csv' }),
};
const jsonSession: CaseRequest = { method: 'POST', path: `${R}/indapi`, headers: FORM, body: "var='ELEVATION'&iso3='KEN'" };
const plotSession: CaseRequest = { method: 'POST', path: `${R}/indapi`, headers: JSONH, body: JSON.stringify({ var: 'ELEVATION', iso3: 'KEN', format: 'plot' }) };

/** A WKT of `n` points in one cell of Kenya (long text, one cell). */
const manyPoints = (n: number) => `MULTIPOINT(${Array.from({ length: n }, () => '(34.95 0.5)').join(', ')})`;
/** 6 MB of WKT: over the engine's WKT length limit (5 000 000 characters), under the 10 MB body limit. */
const HUGE_WKT = manyPoints(550_000);
/** A polygon of 100 001 vertices: over the engine's vertex limit, about 2 MB. */
const MANY_VERTICES = `POLYGON((${Array.from({ length: 100_000 }, (_, i) => `${(34 + (0.9 * i) / 100_000).toFixed(6)} 0.2`).join(', ')}, 34.9 1, 34 0.2))`;
const longSession: CaseRequest = { method: 'POST', path: `${R}/indapi`, headers: JSONH, body: JSON.stringify({ var: 'ELEVATION', wkt: manyPoints(30) }) };
/** What a call with a long WKT prints: the first 200 characters of the string, then `...`. */
const LONG_CALL = `indapi(var = "ELEVATION", wkt = "${manyPoints(30).slice(0, 200)}"...)`;
/** A box in western Kenya. */
const KEN_BOX = 'POLYGON((34 0.2, 34.9 0.2, 34.9 1, 34 1, 34 0.2))';
/** A short error body: the request is never echoed in full. */
const short = (max: number) => (b: Uint8Array) => expect(b.byteLength).toBeLessThan(max);

const isRows = (v: any) => {
  expect(Array.isArray(v)).toBe(true);
  expect(v.length).toBeGreaterThan(0);
  for (const r of v) expect(typeof r).toBe('object');
};

/** Catchment sessions (issue 19; the real bundle's FRICTION_WALK): Nairobi, walking. */
const NAIROBI = [36.82, -1.29];
const catchmentSession = (extra: Record<string, unknown>): CaseRequest => ({
  method: 'POST', path: `${R}/catchment`, headers: JSONH, body: JSON.stringify({ xy: NAIROBI, minutes: [0, 60, 120, 240, 480], var: 'PN14_POP', ...extra }),
});
const catchmentBad = (name: string, body: string, arg: string, form = true): ContractCase => ({
  name: `catchment: ${name} is 400 naming ${arg}`,
  request: { method: 'POST', path: `${R}/catchment/json`, headers: form ? FORM : JSONH, body },
  status: 400,
  headers: { 'content-type': TEXT_PLAIN },
  text: [`'${arg}'`, 'In call:', 'catchment('],
});

/** Cases of the catchment method (an addition to the original's methods). */
const CATCHMENT_CASES: ContractCase[] = [
  {
    name: 'catchment/json: one row per band, labelled as R cut(include.lowest = TRUE), with cells, area and the var summaries',
    request: { method: 'POST', path: `${R}/catchment/json`, headers: JSONH, body: JSON.stringify({ xy: NAIROBI, var: ['PN14_POP', 'ELEVATION'] }) },
    status: 201,
    headers: CREATED,
    json: (v) => {
      expect(v.map((r: any) => r.band)).toEqual(['[0,60]', '(60,120]', '(120,240]', '(240,480]']);
      expect(v[0]).toMatchObject({ minutes_from: 0, minutes_to: 60 });
      for (const r of v) {
        expect(r.cells).toBeGreaterThan(0);
        expect(r.area_km2).toBeGreaterThan(50 * r.cells);
        expect(r.PN14_POP).toBeGreaterThan(0);
        expect(typeof r.ELEVATION).toBe('number');
      }
    },
  },
  {
    name: 'catchment/json from R literals: several points (list of pairs), custom breaks',
    request: { method: 'POST', path: `${R}/catchment/json`, headers: FORM, body: 'xy=list(c(36.82,-1.29),c(32.58,0.35))&minutes=c(0,120,480)' },
    status: 201,
    json: (v) => {
      expect(v.map((r: any) => r.band)).toEqual(['[0,120]', '(120,480]']);
      expect(v[0].cells).toBeGreaterThanOrEqual(2);
    },
  },
  {
    name: 'catchment/json from a WKT MULTIPOINT',
    request: { method: 'POST', path: `${R}/catchment/json`, headers: FORM, body: "wkt='MULTIPOINT((36.82 -1.29), (32.58 0.35))'&minutes=c(0,60)" },
    status: 201,
    json: (v) => expect(v).toEqual([expect.objectContaining({ band: '[0,60]' })]),
  },
  { name: 'catchment csv: a data package of the band table', session: catchmentSession({ format: 'csv' }), request: { path: `${P}/tmp/{key}/files/{file:.csv}` }, status: 200, headers: { 'content-type': /^text\/csv/ }, text: ['band', '[0,60]', 'area_km2', 'PN14_POP'] },
  { name: 'catchment csv: with datapackage.json', session: catchmentSession({ format: 'csv' }), request: { path: `${P}/tmp/{key}/files/` }, status: 200, text: [/^datapackage\.json$/m, /^catchment-.+\.csv$/m] },
  {
    name: 'catchment tif: the travel-time raster (Float32 GeoTIFF)',
    session: catchmentSession({ format: 'tif' }),
    request: { path: `${P}/tmp/{key}/files/{file:.tif}` },
    status: 200,
    bytes: (b) => expect([...b.slice(0, 4)]).toEqual([0x49, 0x49, 42, 0]),
  },
  {
    name: 'catchment json: GeoJSON, one MultiPolygon per band',
    session: catchmentSession({ format: 'json' }),
    request: { path: `${P}/tmp/{key}/files/{file:.geojson}` },
    status: 200,
    json: (v) => {
      expect(v.type).toBe('FeatureCollection');
      expect(v.features.map((f: any) => f.properties.band)).toEqual(['[0,60]', '(60,120]', '(120,240]', '(240,480]']);
      for (const f of v.features) expect(f.geometry.type).toBe('MultiPolygon');
    },
  },
  {
    name: 'catchment/json marketshed: rows per source x band (source, source_id), then the all-sources rows; cumulative bands; 16 neighbours',
    request: { method: 'POST', path: `${R}/catchment/json`, headers: JSONH, body: JSON.stringify({ xy: [NAIROBI, [34.76171, -0.10221], [39.67, -4.05]], names: ['Nairobi', 'Kisumu', 'Mombasa'], minutes: [0, 120, 240, 480], marketshed: true, cumulative: true, neighbours: 16, var: 'PN14_POP' }) },
    status: 201,
    json: (v) => {
      expect(v).toHaveLength(12);
      expect(v.slice(0, 3).map((r: any) => [r.source, r.source_id, r.band])).toEqual([['Nairobi', 1, '[0,120]'], ['Nairobi', 1, '[0,240]'], ['Nairobi', 1, '[0,480]']]);
      expect(v.slice(9).map((r: any) => [r.source, r.band])).toEqual([[undefined, '[0,120]'], [undefined, '[0,240]'], [undefined, '[0,480]']]);
      // the all-sources rows add up the sources; cumulative bands grow
      for (let k = 0; k < 3; k++) expect(v[9 + k].cells).toBe(v[k].cells + v[3 + k].cells + v[6 + k].cells);
      expect(v[11].PN14_POP).toBeGreaterThan(v[9].PN14_POP);
    },
  },
  {
    name: 'catchment/json capacity: coverage per source and the people left uncovered',
    request: { method: 'POST', path: `${R}/catchment/json`, headers: FORM, body: "xy=list(c(36.82,-1.29),c(39.67,-4.05))&names=c('Nairobi','Mombasa')&capacity=c(5e4,1e9)&minutes=c(0,240)&population='PN14_POP'" },
    status: 201,
    json: (v) => {
      expect(v[0]).toMatchObject({ source: 'Nairobi', capacity: 50000, population_covered: 50000 });
      expect(v[0].population_in_reach).toBeGreaterThan(50000);
      expect(v[1].population_covered).toBe(v[1].population_in_reach);
      expect(v[2].population_uncovered).toBe(v[2].population_in_reach - v[2].population_covered);
    },
  },
  {
    name: 'catchment population must be a layer of people: ELEVATION is 400 naming population',
    request: { method: 'POST', path: `${R}/catchment/json`, headers: FORM, body: "xy=c(36.82,-1.29)&capacity=5e4&minutes=c(0,240)&population='ELEVATION'" },
    status: 400,
    text: ["'population': ELEVATION is not a layer of people per cell (its unit is 'm'", 'In call:'],
  },
  {
    name: 'catchment names with NUL or another control character are 400 naming names (a .dta cut them, an .rds was unreadable)',
    request: { method: 'POST', path: `${R}/catchment/json`, headers: JSONH, body: JSON.stringify({ xy: [[36.82, -1.29], [39.67, -4.05]], names: ['Nairobi', 'Mom\u0000basa'], minutes: [0, 240] }) },
    status: 400,
    text: ["invalid 'names' argument: control character U+0000 in element 2 at position 4", 'In call:'],
  },
  {
    name: 'a free-text argument with a control character (BEL) is 400 naming it',
    request: { method: 'POST', path: `${R}/category/json`, headers: JSONH, body: JSON.stringify({ q: 'elev\u0007ation' }) },
    status: 400,
    text: ["invalid 'q' argument: control character U+0007 at position 5"],
  },
  {
    name: 'catchment: a coastal point in a sea cell moves to the nearest land cell, and the warnings say so',
    // (39.75, -4.1): the sea 9 km east of Mombasa island, an all-water cell of FRICTION_WALK
    session: catchmentSession({ xy: [39.75, -4.1], names: ['Off Mombasa'] }),
    request: { path: `${P}/tmp/{key}/warnings` },
    status: 200,
    text: [/Off Mombasa moved \d+\.\d km to the nearest land cell, centred at \(39\.7083, -4\.0417\)/, /Cells are 9\.\d x 9\.\d km/],
  },
  catchmentBad('a name longer than 200 characters', `xy=list(c(36.82,-1.29),c(39.67,-4.05))&names=c('a','${'b'.repeat(201)}')`, 'names'),
  catchmentBad('names not one per source', "xy=c(36.82,-1.29)&names=c('a','b')", 'names'),
  catchmentBad('the same point twice', 'xy=list(c(36.82,-1.29),c(36.82,-1.29))', 'xy'),
  catchmentBad('a negative capacity', 'xy=c(36.82,-1.29)&capacity=-5', 'capacity'),
  catchmentBad('a capacity that is not a number', 'xy=c(36.82,-1.29)&capacity=NA', 'capacity'),
  catchmentBad('neighbours other than 8 or 16', 'xy=c(36.82,-1.29)&neighbours=12', 'neighbours'),
  catchmentBad('101 breaks', `xy=c(36.82,-1.29)&minutes=c(${Array.from({ length: 101 }, (_, i) => i).join(',')})`, 'minutes'),
  catchmentBad('a point outside the grid', 'xy=c(100,50)', 'xy'),
  catchmentBad('a point at sea (a barrier)', 'xy=c(45,-10)', 'xy'),
  catchmentBad('a WKT point at sea', "wkt='POINT(45 -10)'", 'wkt'),
  catchmentBad('xy that is not pairs', 'xy=c(1,2,3)', 'xy'),
  catchmentBad('more than 1000 sources', JSON.stringify({ xy: Array.from({ length: 1001 }, () => NAIROBI) }), 'xy', false),
  catchmentBad('breaks not increasing', 'xy=c(36.82,-1.29)&minutes=c(0,120,60)', 'minutes'),
  catchmentBad('an unknown friction layer', "xy=c(36.82,-1.29)&friction='NOPE'", 'friction'),
  catchmentBad('a layer that is not a friction layer', "xy=c(36.82,-1.29)&friction='ELEVATION'", 'friction'),
];

/**
 * `year` and `change` (series). They run on the bundle's committed national series (PWT 9.1
 * population, `PWT_POP`, million people, public/data/series/national.csv, built from r-cran-pwt9):
 * the values below are `round(pwt9.1$pop, 3)` for KEN and NGA as R gives them (2000: 31.45 and
 * 122.352; 2005: 36.048 and 138.939), their differences (4.598, 16.587) and percentages
 * (14.62, 13.56), read in R, not computed here.
 */
const PWT = { 'KEN 2000': 31.45, 'NGA 2000': 122.352, 'KEN 2005': 36.048, 'NGA 2005': 138.939 } as const;
/** Long rows of PWT_POP for KEN and NGA: keys, then `year`, then the value, blocks by year. */
const pwtLong = (years: number[]) => (v: any) => {
  expect(v.map((r: any) => Object.keys(r))).toEqual(v.map(() => ['ISO3', 'ADM0_NAME', 'year', 'PWT_POP']));
  expect(v.map((r: any) => `${r.ISO3} ${r.year}`)).toEqual(years.flatMap((y) => [`KEN ${y}`, `NGA ${y}`]));
  for (const r of v) {
    const want = (PWT as Record<string, number>)[`${r.ISO3} ${r.year}`];
    if (want !== undefined) expect(r.PWT_POP).toBe(want);
    else expect(typeof r.PWT_POP).toBe('number');
  }
};
/** The change 2000-2005 of KEN and NGA: one row per unit with year_from, year_to and the change. */
const pwtChange = (ken: number, nga: number) => (v: any) => {
  expect(v).toEqual([
    { ISO3: 'KEN', ADM0_NAME: 'Kenya', year_from: 2000, year_to: 2005, PWT_POP: ken },
    { ISO3: 'NGA', ADM0_NAME: 'Nigeria', year_from: 2000, year_to: 2005, PWT_POP: nga },
  ]);
};
const yearBad = (name: string, method: string, body: string, text: string[]): ContractCase => ({
  name, request: { method: 'POST', path: `${R}/${method}/json`, headers: FORM, body }, status: 400, headers: { 'content-type': TEXT_PLAIN }, text: [...text, 'In call:', `${method}(`],
});
const PWT_KN = "var='PWT_POP'&iso3=c('KEN','NGA')";
const YEAR_CASES: ContractCase[] = [
  { name: 'year: one year (R literal) gives the long table with a year column', request: { method: 'POST', path: `${R}/getLayer/json`, headers: FORM, body: `${PWT_KN}&year=2000` }, status: 201, headers: CREATED, json: pwtLong([2000]) },
  { name: 'year: two years as R c(2000, 2005)', request: { method: 'POST', path: `${R}/getLayer/json`, headers: FORM, body: `${PWT_KN}&year=c(2000,2005)` }, status: 201, json: pwtLong([2000, 2005]) },
  { name: 'year: two years as a JSON array', request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: JSON.stringify({ var: 'PWT_POP', iso3: ['KEN', 'NGA'], year: [2005, 2000] }) }, status: 201, json: pwtLong([2000, 2005]) },
  { name: 'year: a JSON array inside a form field', request: { method: 'POST', path: `${R}/getLayer/json`, headers: FORM, body: `${PWT_KN}&year=[2000,2005]` }, status: 201, json: pwtLong([2000, 2005]) },
  { name: 'year: an R range 2000:2002', request: { method: 'POST', path: `${R}/getLayer/json`, headers: FORM, body: `${PWT_KN}&year=2000:2002` }, status: 201, json: pwtLong([2000, 2001, 2002]) },
  // serialize(list(var = "PWT_POP", iso3 = "KEN", year = 2000:2002), NULL) in R 4 (a compact integer sequence)
  {
    name: 'year: an application/rds body with year = 2000:2002',
    request: { method: 'POST', path: `${R}/getLayer/json`, headers: RDSH, body: { base64: 'WAoAAAADAAQCAgADBQAAAAAFVVRGLTgAAAITAAAAAwAAABAAAAABAAQACQAAAAdQV1RfUE9QAAAAEAAAAAEABAAJAAAAA0tFTgAAAO4AAAACAAAAAQAEAAkAAAAOY29tcGFjdF9pbnRzZXEAAAACAAAAAQAEAAkAAAAEYmFzZQAAAAIAAAANAAAAAQAAAA0AAAD+AAAADgAAAANACAAAAAAAAECfQAAAAAAAP/AAAAAAAAAAAAD+AAAEAgAAAAEABAAJAAAABW5hbWVzAAAAEAAAAAMABAAJAAAAA3ZhcgAEAAkAAAAEaXNvMwAEAAkAAAAEeWVhcgAAAP4=' } },
    status: 201,
    json: (v) => expect(v.map((r: any) => [r.ISO3, r.year, r.PWT_POP])).toEqual([['KEN', 2000, PWT['KEN 2000']], ['KEN', 2001, expect.any(Number)], ['KEN', 2002, expect.any(Number)]]),
  },
  { name: 'year = NULL is the latest year the series holds (2017)', request: { method: 'POST', path: `${R}/getLayer/json`, headers: FORM, body: `${PWT_KN}&year=NULL` }, status: 201, json: pwtLong([2017]) },
  { name: 'a series without year is its latest year too', request: { method: 'POST', path: `${R}/getLayer/json`, headers: JSONH, body: JSON.stringify({ var: 'PWT_POP', iso3: ['KEN', 'NGA'] }) }, status: 201, json: pwtLong([2017]) },
  { name: 'getLayerWKT with two years: one row per shape and year', request: { method: 'POST', path: `${R}/getLayerWKT/json`, headers: FORM, body: "var='PWT_POP'&wkt='POINT(34.95 0.5)'&year=c(2000,2005)" }, status: 201, json: (v) => expect(v.map((r: any) => [r.feature, r.ISO3, r.year, r.PWT_POP])).toEqual([[1, 'KEN', 2000, PWT['KEN 2000']], [1, 'KEN', 2005, PWT['KEN 2005']]]) },
  { name: 'change = "diff" with two years (JSON): to - from in the unit of the series', request: { method: 'POST', path: `${R}/getLayer/json`, headers: JSONH, body: JSON.stringify({ var: 'PWT_POP', iso3: ['KEN', 'NGA'], year: [2000, 2005], change: 'diff' }) }, status: 201, json: pwtChange(4.598, 16.587) },
  { name: 'change = "pct" with two years (R literals): 100 * (to - from) / from', request: { method: 'POST', path: `${R}/getLayer/json`, headers: FORM, body: `${PWT_KN}&year=c(2000,2005)&change='pct'` }, status: 201, json: pwtChange(14.62, 13.56) },
  // serialize(list(var = "PWT_POP", iso3 = c("NGA", "KEN"), year = c(2000, 2005), change = "diff"), NULL) in R 4
  {
    name: 'change = "diff" in an application/rds body',
    request: { method: 'POST', path: `${R}/getLayer/json`, headers: RDSH, body: { base64: 'WAoAAAADAAQCAgADBQAAAAAFVVRGLTgAAAITAAAABAAAABAAAAABAAQACQAAAAdQV1RfUE9QAAAAEAAAAAIABAAJAAAAA05HQQAEAAkAAAADS0VOAAAADgAAAAJAn0AAAAAAAECfVAAAAAAAAAAAEAAAAAEABAAJAAAABGRpZmYAAAQCAAAAAQAEAAkAAAAFbmFtZXMAAAAQAAAABAAEAAkAAAADdmFyAAQACQAAAARpc28zAAQACQAAAAR5ZWFyAAQACQAAAAZjaGFuZ2UAAAD+' } },
    status: 201,
    json: pwtChange(4.598, 16.587),
  },
  {
    name: 'year: a csv package of two years holds the year column (long)',
    session: { method: 'POST', path: `${R}/indapi`, headers: FORM, body: `${PWT_KN}&year=c(2000,2005)&format='csv'` },
    request: { path: `${P}/tmp/{key}/files/{file:.csv}` },
    status: 200,
    exact: `ISO3,ADM0_NAME,year,PWT_POP\r\nKEN,Kenya,2000,${PWT['KEN 2000']}\r\nNGA,Nigeria,2000,${PWT['NGA 2000']}\r\nKEN,Kenya,2005,${PWT['KEN 2005']}\r\nNGA,Nigeria,2005,${PWT['NGA 2005']}\r\n`,
  },
  {
    name: 'change: the csv package holds year_from, year_to and the change; datapackage.json gives its unit (%)',
    session: { method: 'POST', path: `${R}/indapi`, headers: FORM, body: `${PWT_KN}&year=c(2000,2005)&change='pct'&format='csv'` },
    request: { path: `${P}/tmp/{key}/files/datapackage.json` },
    status: 200,
    json: (v) => {
      const fields = v.resources[0].schema.fields;
      expect(fields.map((f: any) => f.name)).toEqual(['ISO3', 'ADM0_NAME', 'year_from', 'year_to', 'PWT_POP']);
      expect(fields[4]).toMatchObject({ unit: '%', description: expect.stringContaining('change 2000-2005') });
    },
  },
  yearBad('year: a year the series does not hold is 400 naming year and listing the years it holds', 'getLayer', `${PWT_KN}&year=c(2000,2018)`, ["'year': PWT_POP does not hold 2018; it holds 1950-2017."]),
  yearBad('change with one year is 400 naming change', 'getLayer', `${PWT_KN}&year=2000&change='diff'`, ["'change' needs exactly two years in 'year' (from, to), not 1."]),
  yearBad('change with three years is 400 naming change', 'indapi', `${PWT_KN}&year=c(2000,2005,2010)&change='pct'`, ["'change' needs exactly two years in 'year' (from, to), not 3."]),
  yearBad('change other than diff or pct is 400 naming change', 'getLayer', `${PWT_KN}&year=c(2000,2005)&change='ratio'`, ["'change' must be \"diff\" or \"pct\", not \"ratio\"."]),
  yearBad('year on a layer that is not a series is 400 naming year', 'getLayer', "var='ELEVATION'&iso3='KEN'&year=2000", ["'year': no code of 'var' is a series (ELEVATION); query it without 'year' and 'change'."]),
  yearBad('year over a series and a plain layer together is 400 naming year', 'getLayer', `var=c('PWT_POP','ELEVATION')&iso3='KEN'&year=2000`, ["'year': ELEVATION is not a series"]),
  yearBad('year that is not a whole number is 400 naming year', 'getLayer', `${PWT_KN}&year=2000.5`, ["'year' must be whole years"]),
  yearBad('year that is text is 400 naming year', 'getLayer', `${PWT_KN}&year='2000'`, ["invalid 'year' argument"]),
  {
    name: 'year as a sequence over the parser bound is 400 naming year and the bound',
    request: { method: 'POST', path: `${R}/getLayer/json`, headers: FORM, body: `${PWT_KN}&year=1:1e9` },
    status: 400,
    headers: { 'content-type': TEXT_PLAIN },
    exact: 'Unparsable argument: 1:1e9 (\'year\': a sequence from:to holds at most 10000 numbers)\n\nIn call:\nparse(text = "1:1e9")\n',
  },
  yearBad('year given twice in a form body is 400 as in R', 'getLayer', `${PWT_KN}&year=2000&year=2005`, ['formal argument "year" matched by multiple actual arguments']),
  yearBad('similar takes one year: two are 400 naming year', 'similar', "x='KEN'&var='PWT_POP'&by=0&year=c(2000,2005)", ["'year': this output takes one year (and no 'change')"]),
  {
    name: 'a raster of two years is 400 naming year (one year per raster)',
    request: { method: 'POST', path: `${R}/genFile`, headers: FORM, body: "var='PWT_POP'&iso3='KEN'&year=c(2000,2005)&format='tif'" },
    status: 400,
    text: ["'year': this output takes one year (and no 'change')", 'In call:'],
  },
  {
    name: 'a raster of one year of a national series: the national value in every cell',
    session: { method: 'POST', path: `${R}/genFile`, headers: FORM, body: "var='PWT_POP'&iso3='KEN'&year=2000&format='tif'" },
    request: { path: `${P}/tmp/{key}/files/` },
    status: 200,
    text: [/^getLayer-PWT_POP-KEN\.tif$/m],
  },
  ...(['indapi', 'getLayer', 'getLayerWKT', 'genFile', 'classify', 'similar'] as const).map((m): ContractCase => ({
    name: `man/${m}/text documents year${m === 'similar' ? '' : ' and change'}`,
    request: { path: `${LIB}/man/${m}/text` },
    status: 200,
    text: [`year = NULL`, /^\s*year: /m, ...(m === 'similar' ? [] : [`change = NULL`, /^\s*change: /m])],
  })),
];

/** The cases. */
/**
 * Issue 25 item 3: a `format` with white space or in capitals is the same format (one
 * normalisation, in the format registry); these answered 500 ("needs the per-cell result").
 */
const FORMAT_SPELLING_CASES: ContractCase[] = [
  ...(['tif ', ' tif', 'tif\n', 'GeoTIFF\t'] as const).map((f): ContractCase => ({
    name: `indapi with format ${JSON.stringify(f)} writes the GeoTIFF package`,
    session: { method: 'POST', path: `${R}/indapi`, headers: JSONH, body: JSON.stringify({ var: 'ELEVATION', iso3: 'KEN', format: f }) },
    request: { path: `${P}/tmp/{key}/files/` },
    status: 200,
    text: [/^getLayer-ELEVATION-KEN\.tif$/m, /^getLayer-ELEVATION-KEN\.tif\.aux\.xml$/m],
  })),
  {
    name: 'genFile with format "asc " writes the ESRI ASCII grid',
    session: { method: 'POST', path: `${R}/genFile`, headers: JSONH, body: JSON.stringify({ var: 'ELEVATION', iso3: 'KEN', format: 'asc ' }) },
    request: { path: `${P}/tmp/{key}/files/` },
    status: 200,
    text: [/^getLayer-ELEVATION-KEN\.asc$/m],
  },
  {
    name: 'genFile with format " JSON" (form-encoded) writes GeoJSON',
    session: { method: 'POST', path: `${R}/genFile`, headers: FORM, body: "var='ELEVATION'&iso3='KEN'&format=' JSON'" },
    request: { path: `${P}/tmp/{key}/files/` },
    status: 200,
    text: [/^getLayer-ELEVATION-KEN\.geojson$/m],
  },
  {
    name: 'indapi with format " GeoPackage" writes the gpkg package',
    session: { method: 'POST', path: `${R}/indapi`, headers: JSONH, body: JSON.stringify({ var: 'ELEVATION', iso3: 'KEN', by: 'ADM1_NAME_ALT', format: ' GeoPackage' }) },
    request: { path: `${P}/tmp/{key}/files/` },
    status: 200,
    text: [/^getLayer-ELEVATION-ADM1_NAME_ALT-KEN\.gpkg$/m, /^datapackage\.json$/m],
  },
  {
    name: 'indapi gpkg with by = "ISO3" (ISO3 both a country key and the by key) writes the GeoPackage, not a 500',
    session: { method: 'POST', path: `${R}/indapi`, headers: FORM, body: "var='ELEVATION'&iso3='KEN'&by='ISO3'&format='gpkg'" },
    request: { path: `${P}/tmp/{key}/files/` },
    status: 200,
    text: [/^getLayer-ELEVATION-ISO3-KEN\.gpkg$/m],
  },
  { name: 'catchment with format "tif " writes the travel-time raster', session: catchmentSession({ format: 'tif ' }), request: { path: `${P}/tmp/{key}/files/` }, status: 200, text: [/^catchment-TRAVEL_TIME-.*\.tif$/m] },
  { name: 'indapi/json with format " data.table" answers the table', request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: JSON.stringify({ var: 'ELEVATION', iso3: 'KEN', format: ' data.table' }) }, status: 201, json: (v) => expect(v).toEqual([expect.objectContaining({ ISO3: 'KEN' })]) },
  { name: 'catchment with an unknown format is 400 listing the catchment formats', request: { method: 'POST', path: `${R}/catchment`, headers: JSONH, body: JSON.stringify({ xy: NAIROBI, format: 'plot' }) }, status: 400, text: ["'format': catchment writes csv"] },
];

export const CASES: ContractCase[] = [
  ...CATCHMENT_CASES,
  ...YEAR_CASES,
  ...FORMAT_SPELLING_CASES,
  // ---- listings and docs ---------------------------------------------------------------
  { name: 'R without slash redirects to R/', request: { path: R }, status: 302, redirect: `${R}/` },
  {
    name: 'R/ lists the methods',
    request: { path: `${R}/` },
    status: 200,
    headers: { 'content-type': TEXT_PLAIN, 'access-control-allow-origin': '*' },
    exact: METHOD_NAMES.join('\n') + '\n',
  },
  {
    name: 'info/ documents every method',
    request: { path: `${LIB}/info/` },
    status: 200,
    text: [...METHOD_NAMES.map((m) => new RegExp(`^${m}\\s`, 'm')), ...METHOD_NAMES.map((m) => new RegExp(`^${m}\\s+package:indapi3\\s+R Documentation$`, 'm'))],
  },
  { name: 'GET R/<method> shows its usage', request: { path: `${R}/indapi` }, status: 200, text: ['indapi(var, iso3 = "SSA", by = NULL, wkt = NULL, format = NULL'] },
  { name: 'the prefix lists library/ and tmp/', request: { path: `${P}/` }, status: 200, exact: 'library/\ntmp/\n' },
  ...METHOD_NAMES.map(
    (m): ContractCase => ({
      name: `man/${m}/text`,
      request: { path: `${LIB}/man/${m}/text` },
      status: 200,
      headers: { 'content-type': TEXT_PLAIN },
      text: ['Description:', 'Usage:', `${m}(`, 'Arguments:', 'Details:', 'Value:', 'Examples:'],
    }),
  ),
  ...METHOD_NAMES.map(
    (m): ContractCase => ({
      name: `man/${m}/html`,
      request: { path: `${LIB}/man/${m}/html` },
      status: 200,
      headers: { 'content-type': /^text\/html/ },
      text: ['<h3>Usage</h3>', '<h3>Arguments</h3>', '<h3>Examples</h3>', `${m}(`],
    }),
  ),
  { name: 'man/<method> redirects to text', request: { path: `${LIB}/man/describe` }, status: 302, redirect: `${LIB}/man/describe/text` },
  {
    name: 'man of an unknown topic is 404 with R\'s message',
    request: { path: `${LIB}/man/nothing/text` },
    status: 404,
    text: ["No documentation for 'nothing' in specified packages and libraries"],
  },
  {
    name: 'data/vi/csv is the catalog',
    request: { path: `${LIB}/data/vi/csv` },
    status: 200,
    headers: { 'content-type': /^text\/csv/ },
    text: [/^"?varCode"?,"?varLabel"?/, 'ELEVATION'],
  },

  // ---- calls ---------------------------------------------------------------------------------
  {
    name: 'category/json without a body lists everything (201, session headers)',
    request: { method: 'POST', path: `${R}/category/json` },
    status: 201,
    headers: { ...CREATED, 'content-type': /^application\/json/, 'access-control-allow-origin': '*', 'access-control-expose-headers': /X-ocpu-session/i },
    json: (v) => {
      isRows(v);
      expect(Object.keys(v[0]).sort()).toEqual(['category', 'code', 'item', 'label', 'subcategory']);
      expect(v.map((r: any) => r.code)).toContain('ELEVATION');
    },
  },
  {
    name: 'category/json with a JSON pattern',
    request: { method: 'POST', path: `${R}/category/json`, headers: JSONH, body: '{"q": "elevation"}' },
    status: 201,
    json: (v) => {
      isRows(v);
      expect(v.map((r: any) => r.code)).toContain('ELEVATION');
    },
  },
  {
    name: 'category/json as.list=TRUE nests by category and subcategory',
    request: { method: 'POST', path: `${R}/category/json`, headers: FORM, body: 'as.list=TRUE' },
    status: 201,
    json: (v) => {
      expect(Array.isArray(v)).toBe(false);
      const first: any = Object.values(v)[0];
      expect(Array.isArray(Object.values(first)[0])).toBe(true);
    },
  },
  {
    name: 'category without /json answers the session listing',
    request: { method: 'POST', path: `${R}/category` },
    status: 201,
    headers: { ...CREATED, 'content-type': TEXT_PLAIN },
    text: [/^\/ocpu\/tmp\/x0[0-9a-f]{32}\/R\/\.val$/m, /\/stdout$/m, /\/source$/m, /\/console$/m, /\/info$/m],
  },
  {
    name: 'describe/json works (the original failed) and carries Code',
    request: { method: 'POST', path: `${R}/describe/json`, headers: FORM, body: "var='ELEVATION'" },
    status: 201,
    json: (v) => {
      isRows(v);
      expect(v[0].Code).toBe('ELEVATION');
    },
  },
  {
    name: 'indapi/json with form R literals',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: FORM, body: "var='ELEVATION'&iso3='KEN'" },
    status: 201,
    headers: CREATED,
    json: (v) => {
      isRows(v);
      for (const r of v) {
        expect(r.ISO3).toBe('KEN');
        expect(typeof r.ELEVATION).toBe('number');
      }
    },
  },
  {
    name: 'indapi/json with JSON and by codes',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: JSON.stringify({ var: ['ELEVATION'], iso3: ['KEN'], by: ['ADM1_NAME_ALT'] }) },
    status: 201,
    json: (v) => {
      isRows(v);
      expect(v.some((r: any) => typeof r.ADM1_NAME_ALT === 'string')).toBe(true);
    },
  },
  {
    name: 'indapi/json with by as {code: breaks}',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: JSON.stringify({ var: 'AREA_LAND', iso3: 'KEN', by: { ELEVATION: [0, 1000, 6000] } }) },
    status: 201,
    json: (v) => {
      isRows(v);
      expect(v.some((r: any) => 'ELEVATION' in r)).toBe(true);
      for (const r of v) expect(typeof r.AREA_LAND).toBe('number');
    },
  },
  {
    name: 'indapi/json with form list(code = c(breaks))',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: FORM, body: "var='AREA_LAND'&iso3='KEN'&by=list(ELEVATION=c(0,1000,6000))" },
    status: 201,
    json: (v) => {
      isRows(v);
      expect(v.some((r: any) => 'ELEVATION' in r)).toBe(true);
    },
  },
  {
    // a code with its default grouping beside one with custom breaks (Summaries' two-domain case,
    // issue 23 item 4): JSON null, [] and {} (jsonlite's list(a = NULL)) all mean "default"
    name: 'indapi/json with by mixing a default code (null) and custom breaks',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: JSON.stringify({ var: 'AREA_LAND', iso3: 'KEN', by: { ADM1_NAME_ALT: null, ELEVATION: [0, 1500, 6000] } }) },
    status: 201,
    json: (v) => {
      isRows(v);
      expect(v.some((r: any) => typeof r.ADM1_NAME_ALT === 'string' && typeof r.ELEVATION === 'string')).toBe(true);
    },
  },
  {
    name: 'indapi/json with by mixing {} (jsonlite NULL) and custom breaks',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: JSON.stringify({ var: 'AREA_LAND', iso3: 'KEN', by: { ADM1_NAME_ALT: {}, ELEVATION: [0, 1500, 6000] } }) },
    status: 201,
    json: (v) => {
      isRows(v);
      expect(v.some((r: any) => typeof r.ADM1_NAME_ALT === 'string' && typeof r.ELEVATION === 'string')).toBe(true);
    },
  },
  {
    name: 'indapi/json with form list(code = NULL, code = c(breaks))',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: FORM, body: "var='AREA_LAND'&iso3='KEN'&by=list(ADM1_NAME_ALT=NULL,ELEVATION=c(0,1500,6000))" },
    status: 201,
    json: (v) => {
      isRows(v);
      expect(v.some((r: any) => typeof r.ADM1_NAME_ALT === 'string' && typeof r.ELEVATION === 'string')).toBe(true);
    },
  },
  {
    name: 'indapi with a by value that is a nested list is refused naming by',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: JSON.stringify({ var: 'AREA_LAND', iso3: 'KEN', by: { ADM1_NAME_ALT: 'x', ELEVATION: [[1]] } }) },
    status: 400,
    text: ["'by'"],
  },
  {
    name: 'indapi/json with JSON array literal in a form field',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: FORM, body: 'var=["ELEVATION"]&iso3="KEN"&by=["ADM1_NAME_ALT"]' },
    status: 201,
    json: isRows,
  },
  {
    name: 'getLayerWKT/json over a point',
    request: { method: 'POST', path: `${R}/getLayerWKT/json`, headers: FORM, body: "var='ELEVATION'&wkt='POINT(34.95 0.5)'" },
    status: 201,
    json: (v) => {
      isRows(v);
      expect(v.map((r: any) => r.ISO3)).toContain('KEN');
    },
  },
  {
    name: 'classify/json over named WKT domains',
    request: {
      method: 'POST',
      path: `${R}/classify/json`,
      headers: JSONH,
      body: JSON.stringify({ var: 'ELEVATION', domains: { a: 'POLYGON((34 0.2, 34.9 0.2, 34.9 1, 34 1, 34 0.2))', b: 'POLYGON((34 -1.9, 34.9 -1.9, 34.9 -1.3, 34 -1.3, 34 -1.9))' } }),
    },
    status: 201,
    json: (v) => {
      isRows(v);
      expect(v.length).toBe(2);
    },
  },
  {
    name: 'indapi/json with wkt and collapse=FALSE: one row per selected cell',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: JSON.stringify({ var: 'ELEVATION', wkt: KEN_BOX, collapse: false }) },
    status: 201,
    json: (v) => {
      isRows(v);
      expect(v.length).toBeGreaterThan(50);
      expect(new Set(v.map((r: any) => r.CELL5M)).size).toBe(v.length);
      for (const r of v) {
        expect(Object.keys(r).slice(0, 5)).toEqual(['CELL5M', 'X', 'Y', 'ISO3', 'ADM0_NAME']);
        expect(Number.isInteger(r.CELL5M)).toBe(true);
        expect(r.X).toBeGreaterThan(34);
        expect(r.X).toBeLessThan(34.9);
        expect(r.Y).toBeGreaterThan(0.2);
        expect(r.Y).toBeLessThan(1);
      }
      expect(v.some((r: any) => r.ISO3 === 'KEN' && typeof r.ELEVATION === 'number')).toBe(true);
    },
  },
  {
    name: 'indapi/json with wkt, collapse=FALSE and by: cells carry their group',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: FORM, body: `var='ELEVATION'&wkt='${KEN_BOX}'&collapse=FALSE&by='ADM1_NAME_ALT'` },
    status: 201,
    json: (v) => {
      isRows(v);
      for (const r of v) expect(typeof r.CELL5M).toBe('number');
      expect(v.some((r: any) => typeof r.ADM1_NAME_ALT === 'string')).toBe(true);
    },
  },
  {
    name: 'indapi/json with a wkt in the sea: no rows, collapsed or not (files answer 400)',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: JSON.stringify({ var: 'ELEVATION', wkt: 'POINT(0 -20)', collapse: false }) },
    status: 201,
    exact: '[]\n',
  },
  {
    name: 'indapi/json with a wkt in the sea, collapsed: no rows',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: JSON.stringify({ var: 'ELEVATION', wkt: 'POINT(0 -20)' }) },
    status: 201,
    exact: '[]\n',
  },
  {
    name: 'indapi with a wkt in the sea and a file format: 400',
    request: { method: 'POST', path: `${R}/indapi`, headers: JSONH, body: JSON.stringify({ var: 'ELEVATION', wkt: 'POINT(0 -20)', format: 'tif' }) },
    status: 400,
    text: ['The query selects no cell with data.', 'In call:'],
  },
  {
    name: 'similar/json ranks first-level units, the reference first',
    request: { method: 'POST', path: `${R}/similar/json`, headers: JSONH, body: JSON.stringify({ x: 'Eastern', var: ['ELEVATION'], by: 1, iso3: 'KEN' }) },
    status: 201,
    json: (v) => {
      isRows(v);
      expect(v.every((r: any) => typeof r.score === 'number')).toBe(true);
      expect(v[0].score).toBe(0);
      expect(v[0].ADM1_NAME_ALT).toBe('Eastern');
    },
  },

  // ---- sessions -------------------------------------------------------------------------------
  { name: 'session without slash redirects', session: jsonSession, request: { path: `${P}/tmp/{key}` }, status: 302, redirect: `${P}/tmp/{key}/` },
  {
    name: 'session listing',
    session: csvSession,
    request: { path: `${P}/tmp/{key}/` },
    status: 200,
    headers: { 'content-type': TEXT_PLAIN },
    text: [/^R\/\.val$/m, /^console$/m, /^info$/m, /^source$/m, /^stdout$/m, /^files\/.+\.csv$/m],
  },
  { name: 'R/.val is the printed value', session: jsonSession, request: { path: `${P}/tmp/{key}/R/.val` }, status: 200, headers: { 'content-type': TEXT_PLAIN }, text: ['ISO3', 'ELEVATION', 'KEN'] },
  { name: 'R/.val/print', session: jsonSession, request: { path: `${P}/tmp/{key}/R/.val/print` }, status: 200, text: [/^\s+ISO3\s.*ELEVATION/m, /^1\s+KEN/m] },
  {
    name: 'R/.val/json',
    session: jsonSession,
    request: { path: `${P}/tmp/{key}/R/.val/json` },
    status: 200,
    headers: { 'content-type': /^application\/json/ },
    json: (v) => {
      isRows(v);
      expect(v[0].ISO3).toBe('KEN');
    },
  },
  {
    name: 'R/.val/json?dataframe=columns&pretty=false (jsonlite options)',
    session: jsonSession,
    request: { path: `${P}/tmp/{key}/R/.val/json?dataframe=columns&pretty=false` },
    status: 200,
    text: [/^\{"ISO3":\["KEN"\],/],
    json: (v) => expect(typeof v.ELEVATION[0]).toBe('number'),
  },
  { name: 'R/.val/csv', session: jsonSession, request: { path: `${P}/tmp/{key}/R/.val/csv` }, status: 200, headers: { 'content-type': /^text\/csv/ }, text: [/^"ISO3",.*"ELEVATION"\r\n"KEN",/] },
  {
    name: 'R/.val/tab is tab-separated text',
    session: jsonSession,
    request: { path: `${P}/tmp/{key}/R/.val/tab` },
    status: 200,
    headers: { 'content-type': TEXT_PLAIN, 'content-disposition': /filename="\.val\.tab"/ },
    text: [/^"ISO3"\t"ADM0_NAME"\t.*"ELEVATION"\r\n"KEN"\t"Kenya"\t/],
  },
  {
    name: 'R/.val/md is a markdown table',
    session: jsonSession,
    request: { path: `${P}/tmp/{key}/R/.val/md` },
    status: 200,
    headers: { 'content-type': TEXT_PLAIN },
    text: [/^\| ISO3 \| ADM0_NAME \| .*ELEVATION \|\n\|:---\|:---\|.*---:\|\n\| KEN \| Kenya \| /],
  },
  {
    name: 'R/.val/rds is gzip-compressed R serialization (saveRDS)',
    session: jsonSession,
    request: { path: `${P}/tmp/{key}/R/.val/rds` },
    status: 200,
    headers: { 'content-type': 'application/octet-stream', 'content-disposition': /attachment; filename="\.val\.rds"/ },
    bytes: (b) => expect([b[0], b[1]]).toEqual([0x1f, 0x8b]),
  },
  {
    name: 'R/.val/rds of file names (a character vector)',
    session: csvSession,
    request: { path: `${P}/tmp/{key}/R/.val/rds` },
    status: 200,
    bytes: (b) => expect([b[0], b[1]]).toEqual([0x1f, 0x8b]),
  },
  { name: 'R/.val/<unknown format> is 404', session: jsonSession, request: { path: `${P}/tmp/{key}/R/.val/xyz` }, status: 404, text: ['Invalid output format'] },
  { name: 'R/ lists .val', session: jsonSession, request: { path: `${P}/tmp/{key}/R/` }, status: 200, exact: '.val\n' },
  { name: 'source is the call', session: jsonSession, request: { path: `${P}/tmp/{key}/source` }, status: 200, exact: 'indapi(var = "ELEVATION", iso3 = "KEN")\n' },
  { name: 'source cuts long argument values', session: longSession, request: { path: `${P}/tmp/{key}/source` }, status: 200, exact: LONG_CALL + '\n' },
  { name: 'console cuts long argument values', session: longSession, request: { path: `${P}/tmp/{key}/console` }, status: 200, text: ['> ' + LONG_CALL + '\n'] },
  { name: 'console shows call and output', session: jsonSession, request: { path: `${P}/tmp/{key}/console` }, status: 200, text: [/^> indapi\(var = "ELEVATION", iso3 = "KEN"\)\n/, 'KEN'] },
  { name: 'stdout', session: jsonSession, request: { path: `${P}/tmp/{key}/stdout` }, status: 200, text: ['ELEVATION'] },
  { name: 'info names the session', session: jsonSession, request: { path: `${P}/tmp/{key}/info` }, status: 200, text: ['Session: {key}', 'indapi3'] },
  { name: 'files without slash redirects', session: csvSession, request: { path: `${P}/tmp/{key}/files` }, status: 302, redirect: `${P}/tmp/{key}/files/` },
  { name: 'files/ lists the files', session: csvSession, request: { path: `${P}/tmp/{key}/files/` }, status: 200, text: [/^DESCRIPTION$/m, /^.+ELEVATION.+KEN\.csv$/m] },
  { name: 'files/<data file>', session: csvSession, request: { path: `${P}/tmp/{key}/files/{file:.csv}` }, status: 200, headers: { 'content-type': /^text\/csv/ }, text: ['ELEVATION', 'ADM1_NAME_ALT'] },
  {
    name: 'zip holds the files, named <var>-<by>-<ISO3>.<format>.zip',
    session: csvSession,
    request: { path: `${P}/tmp/{key}/zip` },
    status: 200,
    headers: { 'content-type': 'application/zip', 'content-disposition': /attachment; filename="ELEVATION-ADM1_NAME_ALT-KEN\.csv\.zip"/ },
    bytes: (b) => expect([b[0], b[1], b[2], b[3]]).toEqual([0x50, 0x4b, 0x03, 0x04]),
  },
  { name: 'plot: listing names graphics/1', session: plotSession, request: { path: `${P}/tmp/{key}/` }, status: 200, text: [/^graphics\/1$/m] },
  { name: 'graphics/1 redirects to png', session: plotSession, request: { path: `${P}/tmp/{key}/graphics/1` }, status: 302, redirect: `${P}/tmp/{key}/graphics/1/png` },
  {
    name: 'graphics/1/png',
    session: plotSession,
    request: { path: `${P}/tmp/{key}/graphics/1/png` },
    status: 200,
    headers: { 'content-type': 'image/png' },
    bytes: (b) => expect([...b.slice(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]),
  },
  { name: 'graphics/1/svg', session: plotSession, request: { path: `${P}/tmp/{key}/graphics/1/svg` }, status: 200, headers: { 'content-type': 'image/svg+xml' }, text: ['<svg'] },
  { name: 'graphics/9 is 404', session: plotSession, request: { path: `${P}/tmp/{key}/graphics/9/png` }, status: 404, text: ['Graphic not found'] },

  // ---- bad input -------------------------------------------------------------------------------
  {
    name: 'unused argument (R message and In call:)',
    request: { method: 'POST', path: `${R}/category`, headers: FORM, body: "cat='x'" },
    status: 400,
    headers: { 'content-type': TEXT_PLAIN, 'access-control-allow-origin': '*' },
    exact: 'unused argument (cat = "x")\n\nIn call:\ncategory(cat = "x")\n',
  },
  {
    name: 'unused argument in JSON',
    request: { method: 'POST', path: `${R}/category/json`, headers: JSONH, body: '{"q": "elev", "cat": ["a", "b"]}' },
    status: 400,
    exact: 'unused argument (cat = c("a", "b"))\n\nIn call:\ncategory(q = "elev", cat = c("a", "b"))\n',
  },
  {
    name: "form by=['A','B'] is unparsable",
    request: { method: 'POST', path: `${R}/indapi`, headers: FORM, body: "var='ELEVATION'&by=['ADM1_NAME_ALT','ELEVATION']" },
    status: 400,
    headers: { 'content-type': TEXT_PLAIN },
    text: [/^Unparsable argument: \['ADM1_NAME_ALT','ELEVATION'\]\n/],
  },
  { name: 'a bare word is unparsable (never evaluated)', request: { method: 'POST', path: `${R}/indapi`, headers: FORM, body: 'var=ELEVATION' }, status: 400, text: [/^Unparsable argument: ELEVATION\n/] },
  { name: 'R code is unparsable (never evaluated)', request: { method: 'POST', path: `${R}/indapi`, headers: FORM, body: `var=${encodeURIComponent('system("id")')}` }, status: 400, text: ['Unparsable argument: system("id")'] },
  // Errors of the request itself carry no In call: line (no call was made); see EXAMPLES.md.
  { name: 'malformed JSON (message only)', request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: '{"var": ' }, status: 400, headers: { 'content-type': TEXT_PLAIN }, text: [/^Failed to parse JSON body: [^\n]+\n$/] },
  {
    name: 'JSON top level not an object (message only)',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: '["ELEVATION"]' },
    status: 400,
    exact: 'JSON body must be an object whose members are the function arguments (got an array).\n',
  },
  { name: 'JSON top level a string', request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: '"ELEVATION"' }, status: 400, text: ['JSON body must be an object'] },
  {
    name: 'iso3=NA is an unknown code, not the default',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: FORM, body: "var='ELEVATION'&iso3=NA" },
    status: 400,
    text: [/^Unknown country or region code NA\b/, 'In call:\nindapi(var = "ELEVATION", iso3 = NA)\n'],
  },
  {
    name: 'JSON iso3 null (jsonlite writes NA so) is an unknown code, not the default',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: '{"var": "ELEVATION", "iso3": null}' },
    status: 400,
    text: [/^Unknown country or region code NA\b/, 'In call:\nindapi(var = "ELEVATION", iso3 = NULL)\n'],
  },
  {
    name: 'collapse=NA is an error, not the default',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: FORM, body: "var='ELEVATION'&iso3='KEN'&collapse=NA" },
    status: 400,
    text: ["invalid 'collapse' argument: expected TRUE or FALSE, got logical NA"],
  },
  { name: 'JSON null for a NULL default is the default', request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: '{"var": "ELEVATION", "iso3": "KEN", "by": null, "wkt": null}' }, status: 201, json: isRows },
  {
    name: 'similar with an unknown unit is a failed call (400), not a missing resource',
    request: { method: 'POST', path: `${R}/similar/json`, headers: JSONH, body: JSON.stringify({ x: 'Nowhere', var: 'ELEVATION', by: 1, iso3: 'KEN' }) },
    status: 400,
    text: ["Unit 'Nowhere' was not found", 'In call:\nsimilar(x = "Nowhere", var = "ELEVATION", by = 1, iso3 = "KEN")\n'],
  },
  {
    name: 'a WKT over the length limit answers 413 with a short body (the call cut)',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: JSON.stringify({ var: 'ELEVATION', wkt: HUGE_WKT }) },
    status: 413,
    text: [/^WKT is longer than 5000000 characters\.\n\nIn call:\nindapi\(var = "ELEVATION", wkt = "MULTIPOINT\(\(34\.95 0\.5\), [^\n]{150,200}"\.\.\.\)\n$/],
    bytes: short(1000),
  },
  {
    name: 'a polygon over the vertex limit answers 413 with a short body',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: FORM, body: `var='ELEVATION'&wkt=${encodeURIComponent(`'${MANY_VERTICES}'`)}` },
    status: 413,
    text: ['vertices', 'In call:\nindapi(var = "ELEVATION", wkt = "POLYGON((34.000000 0.2, '],
    bytes: short(1000),
  },
  {
    name: 'a long unused argument is cut in the message and the call',
    request: { method: 'POST', path: `${R}/category`, headers: JSONH, body: JSON.stringify({ cat: 'x'.repeat(100_000) }) },
    status: 400,
    exact: `unused argument (cat = "${'x'.repeat(200)}"...)\n\nIn call:\ncategory(cat = "${'x'.repeat(200)}"...)\n`,
  },
  {
    name: 'a long vector is cut after 20 elements',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: JSON.stringify({ var: Array.from({ length: 5000 }, (_, i) => `NOPE${i}`) }) },
    status: 400,
    text: [`In call:\nindapi(var = c(${Array.from({ length: 20 }, (_, i) => `"NOPE${i}"`).join(', ')}, ...))\n`],
    bytes: short(6000),
  },
  {
    name: 'an unparsable long form value is cut',
    request: { method: 'POST', path: `${R}/indapi`, headers: FORM, body: `var=${'y'.repeat(50_000)}` },
    status: 400,
    exact: `Unparsable argument: ${'y'.repeat(200)}...\n\nIn call:\nparse(text = "${'y'.repeat(200)}"...)\n`,
  },
  {
    name: 'wrong type: a number where codes are expected',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: '{"var": 42}' },
    status: 400,
    exact: "invalid 'var' argument: expected a character vector of indicator codes, got numeric 42\n\nIn call:\nindapi(var = 42)\n",
  },
  { name: 'wrong type: as.list not logical', request: { method: 'POST', path: `${R}/category/json`, headers: JSONH, body: '{"as.list": "yes"}' }, status: 400, text: ["invalid 'as.list' argument"] },
  { name: 'missing required argument', request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: '{"iso3": "KEN"}' }, status: 400, text: ['argument "var" is missing, with no default', 'In call:\nindapi(iso3 = "KEN")'] },
  {
    name: 'interval labels as R cut() with dig.lab = 3 by default; the NA group row has the key null; the overall row total: 1',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: JSON.stringify({ var: 'AREA_LAND', iso3: 'KEN', by: { ELEVATION: [500, 1500, 2500] } }) },
    status: 201,
    json: (v) => {
      isRows(v);
      expect(v[0].total).toBe(1);
      expect('ELEVATION' in v[0]).toBe(false);
      const keys = v.slice(1).map((r: any) => r.ELEVATION);
      for (const k of keys) expect(['(500,1.5e+03]', '(1.5e+03,2.5e+03]', null]).toContain(k);
      for (const r of v.slice(1)) expect(r.total).toBeUndefined();
    },
  },
  {
    name: 'dig.lab sets the digits of interval labels (form R literal)',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: FORM, body: "var='AREA_LAND'&iso3='KEN'&by=list(ELEVATION=c(0,1000,6000))&dig.lab=4" },
    status: 201,
    json: (v) => {
      isRows(v);
      expect(v.some((r: any) => r.ELEVATION === '(0,1000]')).toBe(true);
    },
  },
  { name: 'dig.lab out of 1..12 is a bad argument naming it', request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: '{"var": "AREA_LAND", "iso3": "KEN", "by": ["ELEVATION"], "dig.lab": 13}' }, status: 400, text: ["'dig.lab'", 'In call:'] },
  { name: 'dig.lab that is not a whole number is a bad argument naming it', request: { method: 'POST', path: `${R}/getLayer/json`, headers: JSONH, body: '{"var": "AREA_LAND", "by": ["ELEVATION"], "dig.lab": 2.5}' }, status: 400, text: ["'dig.lab'"] },
  {
    name: 'several iso3 codes with a region: one block per code, the region labelled with its code and name',
    request: { method: 'POST', path: `${R}/indapi/json`, headers: JSONH, body: JSON.stringify({ var: 'AREA_LAND', iso3: ['KEN', 'EAF'] }) },
    status: 201,
    json: (v) => {
      isRows(v);
      expect(v.map((r: any) => r.ISO3)).toEqual(['EAF', 'KEN']);
      expect(v[0].ADM0_NAME).toBe('Eastern Africa');
      expect(v[0].AREA_LAND).toBeGreaterThan(v[1].AREA_LAND);
    },
  },
  { name: 'similar by = 2 without second-level unit layers is a bad argument (400) saying so', request: { method: 'POST', path: `${R}/similar/json`, headers: JSONH, body: '{"x": "Central", "var": "ELEVATION", "by": 2}' }, status: 400, text: ['Second-level administrative units (by = 2) are not in this bundle', 'In call:'] },
  { name: 'unknown indicator code', request: { method: 'POST', path: `${R}/indapi/json`, headers: FORM, body: "var='NOPE_CODE'" }, status: 400, text: ['NOPE_CODE', 'In call:\nindapi(var = "NOPE_CODE")'] },
  { name: 'unknown country code', request: { method: 'POST', path: `${R}/indapi/json`, headers: FORM, body: "var='ELEVATION'&iso3='XXX'" }, status: 400, text: ['XXX'] },
  { name: 'unknown format', request: { method: 'POST', path: `${R}/indapi`, headers: JSONH, body: '{"var": "ELEVATION", "iso3": "KEN", "format": "docx"}' }, status: 400, text: ["'docx' is not a recognized format."] },
  { name: 'unknown method', request: { method: 'POST', path: `${R}/nosuchmethod` }, status: 404, text: ["object 'nosuchmethod' not found"] },
  // application/rds bodies (OpenCPU's ocpu_post_rds) and multipart parts of that type
  // (ocpu_post_multipart); the bytes are R 4's, each made by the R command in its comment.
  {
    // serialize(list(var = "ELEVATION", iso3 = factor("KEN"), by = list(ELEVATION = c(0, 500, 1500))), NULL)
    name: 'application/rds body: a named list with a factor and a by list of breaks, as the JSON call',
    request: { method: 'POST', path: `${R}/getLayer/json`, headers: RDSH, body: { base64: RDS_GETLAYER } },
    status: 201,
    json: (v) => {
      isRows(v);
      expect(v.map((r: any) => r.ELEVATION_by).filter(Boolean)).toEqual(['(0,500]', '(500,1.5e+03]']);
      expect(v.every((r: any) => r.ISO3 === 'KEN')).toBe(true);
    },
  },
  {
    // f <- tempfile(); saveRDS(list(q = "elevation"), f, version = 2)  (gzip, format version 2)
    name: 'application/rds body: a gzip-compressed saveRDS() file of format version 2',
    request: { method: 'POST', path: `${R}/category/json`, headers: RDSH, body: { base64: 'H4sIAAAAAAAAA4vgYmBgYGJgYWJiYGIGMYWBBCMQC4BpFgZOIM2ZmpNalliSmZ/HAFSJJMGal5ibWoymmrEQSPwDADKErpBZAAAA' } },
    status: 201,
    json: (v) => expect(v.map((r: any) => r.code)).toContain('ELEVATION'),
  },
  {
    name: 'multipart: percent-escaped deparsed fields and an application/rds part (ocpu_post_multipart)',
    request: { method: 'POST', path: `${R}/getLayer/json`, headers: { 'Content-Type': `multipart/form-data; boundary=${MP_BOUNDARY}` }, body: { base64: multipartRds() } },
    status: 201,
    json: (v) => expect(v.map((r: any) => r.ELEVATION_by).filter(Boolean)).toEqual(['(0,500]', '(500,1.5e+03]']),
  },
  {
    // x <- iconv("Ségou", "UTF-8", "latin1"); stopifnot(Encoding(x) == "latin1")
    // serialize(list(x = x, var = "ELEVATION", by = 1, iso3 = "MLI"), NULL)  (R 4.2, a UTF-8 session)
    name: 'application/rds body: a string R marks as Latin-1 is read as Latin-1 (similar finds Ségou)',
    request: { method: 'POST', path: `${R}/similar/json`, headers: RDSH, body: { base64: 'WAoAAAADAAQCAgADBQAAAAAFVVRGLTgAAAITAAAABAAAABAAAAABAABACQAAAAVT6WdvdQAAABAAAAABAAQACQAAAAlFTEVWQVRJT04AAAAOAAAAAT/wAAAAAAAAAAAAEAAAAAEABAAJAAAAA01MSQAABAIAAAABAAQACQAAAAVuYW1lcwAAABAAAAAEAAQACQAAAAF4AAQACQAAAAN2YXIABAAJAAAAAmJ5AAQACQAAAARpc28zAAAA/g==' } },
    status: 201,
    json: (v) => {
      isRows(v);
      expect(v[0].ADM1_NAME_ALT).toBe('Ségou');
      expect(v[0].score).toBe(0);
    },
  },
  // serialize(list(q = function() Sys.time()), NULL)
  { name: 'application/rds body holding a closure is 400 naming it', request: { method: 'POST', path: `${R}/category`, headers: RDSH, body: { base64: 'WAoAAAADAAQCAgADBQAAAAAFVVRGLTgAAAITAAAAAQAABAMAAAD9AAAA/gAAAAYAAAABAAQACQAAAAhTeXMudGltZQAAAP4AAAQCAAAAAQAEAAkAAAAFbmFtZXMAAAAQAAAAAQAEAAkAAAABcQAAAP4=' } }, status: 400, text: ['application/rds', 'a function (closure)'] },
  // serialize(list(q = new.env()), NULL)
  { name: 'application/rds body holding an environment is 400 naming it', request: { method: 'POST', path: `${R}/category`, headers: RDSH, body: { base64: RDS_ENV } }, status: 400, text: ['an environment'] },
  // serialize(list(q = quote(system("id"))), NULL)
  { name: 'application/rds body holding a call is 400 naming it', request: { method: 'POST', path: `${R}/category`, headers: RDSH, body: { base64: 'WAoAAAADAAQCAgADBQAAAAAFVVRGLTgAAAITAAAAAQAAAAYAAAABAAQACQAAAAZzeXN0ZW0AAAACAAAAEAAAAAEABAAJAAAAAmlkAAAA/gAABAIAAAABAAQACQAAAAVuYW1lcwAAABAAAAABAAQACQAAAAFxAAAA/g==' } }, status: 400, text: ['a language object'] },
  // header of serialize(list(...), NULL), then a list declaring 2^30 elements in a body of 43 bytes
  { name: 'application/rds body declaring more elements than it holds is 400 before any work', request: { method: 'POST', path: `${R}/category`, headers: RDSH, body: { base64: 'WAoAAAADAAQCAgADBQAAAAAFVVRGLTgAAAATQAAAAAAAAP4AAAD+AAAA/g==' } }, status: 400, text: ['declares 1073741824 elements'] },
  { name: 'unsupported content type', request: { method: 'POST', path: `${R}/category`, headers: { 'Content-Type': 'application/xml' }, body: '<q/>' }, status: 415, text: ['Unsupported Content-Type'] },
  { name: 'body over the limit', request: { method: 'POST', path: `${R}/category`, headers: FORM, body: { fill: 11 * 1024 * 1024 } }, status: 413, text: ['too large'] },
  { name: 'R/.val of an unknown session is 404', request: { path: `${P}/tmp/x0${'0'.repeat(32)}/R/.val/rds` }, status: 404, text: ['Session not found'] },
  { name: 'unknown session', request: { path: `${P}/tmp/x0${'0'.repeat(32)}/R/.val` }, status: 404, exact: `Session not found: x0${'0'.repeat(32)}\n` },
  { name: 'not a session key', request: { path: `${P}/tmp/x0abc/` }, status: 404, text: ['Session not found: x0abc'] },
  { name: 'sessions are not listed', request: { path: `${P}/tmp/` }, status: 404 },
  { name: 'unknown file of a session', session: csvSession, request: { path: `${P}/tmp/{key}/files/nope.csv` }, status: 404, exact: 'File not found: files/nope.csv\n' },
  { name: 'traversal with ../ stays inside the contract', session: csvSession, request: { path: `${P}/tmp/{key}/files/../../../package.json` }, status: 404 },
  { name: 'traversal with %2e%2e stays inside the contract', session: csvSession, request: { path: `${P}/tmp/{key}/files/%2e%2e/%2e%2e/%2e%2e/package.json` }, status: 404 },
  { name: 'traversal with encoded slashes is refused', session: csvSession, request: { path: `${P}/tmp/{key}/files/..%2f..%2f..%2fpackage.json` }, status: 400, text: ['Invalid path'] },
  { name: 'unknown path', request: { path: `${P}/nothing/here` }, status: 404, text: ['Invalid API call: /ocpu/nothing/here'] },
  { name: 'unknown library', request: { path: `${P}/library/stats/R/` }, status: 404, text: ["There is no package called 'stats'"] },
  { name: 'PUT is not allowed', request: { method: 'PUT', path: `${R}/category`, body: 'x' }, status: 405, text: ['Method: PUT invalid'] },
  {
    name: 'OPTIONS preflight',
    request: { method: 'OPTIONS', path: `${R}/indapi`, headers: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' } },
    status: 204,
    headers: { 'access-control-allow-origin': '*', 'access-control-allow-methods': /POST/, 'access-control-allow-headers': /Content-Type/i },
  },
];
