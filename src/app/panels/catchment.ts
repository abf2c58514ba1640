/**
 * Pure helpers of the Catchment panel: the bands' rule, and the named sources of a marketshed
 * (issue 24) read from pasted `lon, lat[, name]` lines, a CSV table (papaparse), GeoJSON or
 * KML points, each checked with a message naming the row.
 */
import Papa from 'papaparse';
import { minutesRule } from '../../core/r/breaks';
import type { CatchmentResult } from '../../core/api';
import type { Row } from '../../core/types';
import { MAX_NAME_CHARS, type SourceSpec } from '../url-state';

export { addSources, MAX_NAME_CHARS, MAX_SOURCES, sourcesFromParam, sourcesToParam, type SourceSpec } from '../url-state';

/** The rule of the panel's typed travel-time bands: the API's `minutes` rule (src/core/breaks.ts), named as the field is. */
export const BANDS_RULE = minutesRule('Travel-time bands', '0, 60, 120, 240', true);

/** Sources read from some input, with a message per bad row (nothing is kept from a row with a message). */
export interface SourcesRead {
  /** The good rows, in input order. */
  sources: SourceSpec[];
  /** "Row 3: …" messages, in input order. */
  errors: string[];
}

/** Window of the grid the sources must fall in: [xmin, ymin, xmax, ymax] degrees. */
export type Bbox = readonly [number, number, number, number];

const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : NaN);

/**
 * Checks one source row; returns the source or a message naming the row.
 * @param row 1-based row number as the user sees it (line, data row or feature)
 */
export function checkSource(row: number, lon: unknown, lat: unknown, name: unknown, capacity: unknown, bbox: Bbox): SourceSpec | string {
  const x = num(lon), y = num(lat);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return `Row ${row}: longitude and latitude must be numbers (got ${JSON.stringify(lon ?? '')}, ${JSON.stringify(lat ?? '')}).`;
  if (x < bbox[0] || x > bbox[2] || y < bbox[1] || y > bbox[3]) return `Row ${row}: ${x.toFixed(4)}, ${y.toFixed(4)} lies outside the grid (longitude ${bbox[0]} to ${bbox[2]}, latitude ${bbox[1]} to ${bbox[3]}).`;
  const nm = typeof name === 'string' || typeof name === 'number' ? String(name).trim() : '';
  if (nm.length > MAX_NAME_CHARS) return `Row ${row}: the name has ${nm.length} characters; at most ${MAX_NAME_CHARS} are allowed.`;
  const out: SourceSpec = { lon: x, lat: y, name: nm };
  if (capacity !== undefined && capacity !== null && String(capacity).trim() !== '') {
    const c = num(capacity);
    if (!Number.isFinite(c) || c < 0) return `Row ${row}: capacity must be a number of people, 0 or more (got ${JSON.stringify(capacity)}).`;
    out.capacity = c;
  }
  return out;
}

/**
 * Pasted lines "lon, lat[, name]" (commas, semicolons or tabs; the name is the rest of the line).
 * Blank lines and lines starting with # are skipped.
 */
export function parseSourceLines(text: string, bbox: Bbox): SourcesRead {
  const sources: SourceSpec[] = [], errors: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const t = line.trim();
    if (!t || t.startsWith('#')) return;
    const m = /^([^,;\t]+)[,;\t]\s*([^,;\t]+)(?:[,;\t]\s*(.*))?$/.exec(t);
    const r = m ? checkSource(i + 1, m[1], m[2], m[3] ?? '', undefined, bbox) : `Row ${i + 1}: expected "longitude, latitude[, name]", got ${JSON.stringify(t.slice(0, 60))}.`;
    if (typeof r === 'string') errors.push(r); else sources.push(r);
  });
  return { sources, errors };
}

const COLS = {
  lon: /^(lon|lng|long|longitude|x)$/i,
  lat: /^(lat|latitude|y)$/i,
  name: /^(name|label|title|place|id)$/i,
  capacity: /^(capacity|cap)$/i,
};

/**
 * A CSV table with a header naming longitude / latitude columns (lon, lng, long, longitude, x /
 * lat, latitude, y) and optionally name and capacity columns; rows are numbered from 1 for the
 * first data row. A table without both coordinate columns gives one message and no source.
 */
export function parseSourcesCsv(text: string, bbox: Bbox): SourcesRead {
  const p = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy', transformHeader: (h) => h.trim() });
  const fields = p.meta.fields ?? [];
  const col = (re: RegExp) => fields.find((f) => re.test(f));
  const lon = col(COLS.lon), lat = col(COLS.lat), name = col(COLS.name), cap = col(COLS.capacity);
  if (!lon || !lat) return { sources: [], errors: [`The table has no ${!lon ? 'longitude (lon)' : 'latitude (lat)'} column; its columns are: ${fields.join(', ') || '(none)'}.`] };
  const sources: SourceSpec[] = [], errors: string[] = [];
  p.data.forEach((r, i) => {
    const s = checkSource(i + 1, r[lon], r[lat], name ? r[name] : '', cap ? r[cap] : undefined, bbox);
    if (typeof s === 'string') errors.push(s); else sources.push(s);
  });
  return { sources, errors };
}

/**
 * Point features of a GeoJSON object (or KML read by @tmcw/togeojson): one source per Point, and
 * per point of a MultiPoint; named by their `name` property (any case), capacity from `capacity`.
 * Other geometries give a message naming the feature.
 */
export function sourcesFromGeoJson(gj: unknown, bbox: Bbox): SourcesRead {
  const feats: Array<{ geometry?: { type?: string; coordinates?: unknown } | null; properties?: Record<string, unknown> | null }> = [];
  const o = gj as { type?: string; features?: unknown[] };
  if (o?.type === 'FeatureCollection' && Array.isArray(o.features)) feats.push(...(o.features as typeof feats));
  else if (o?.type === 'Feature') feats.push(o as (typeof feats)[number]);
  else if (o?.type === 'Point' || o?.type === 'MultiPoint') feats.push({ geometry: o as { type: string }, properties: {} });
  const sources: SourceSpec[] = [], errors: string[] = [];
  feats.forEach((f, i) => {
    const props = f.properties ?? {};
    const key = (re: RegExp) => Object.keys(props).find((k) => re.test(k));
    const nk = key(COLS.name), ck = key(COLS.capacity);
    const g = f.geometry;
    const pts = g?.type === 'Point' ? [g.coordinates] : g?.type === 'MultiPoint' && Array.isArray(g.coordinates) ? g.coordinates : null;
    if (!pts) { errors.push(`Row ${i + 1}: feature ${i + 1} is ${g?.type ? `a ${g.type}` : 'without a geometry'}; only points can be sources.`); return; }
    for (const c of pts as unknown[][]) {
      const s = checkSource(i + 1, c?.[0], c?.[1], nk ? props[nk] : '', ck ? props[ck] : undefined, bbox);
      if (typeof s === 'string') errors.push(s); else sources.push(s);
    }
  });
  if (!feats.length) errors.push('The file holds no GeoJSON features.');
  return { sources, errors };
}

export { cumulativeRows, isAdditive, WITHIN_SUFFIX } from '../../core/catchment/table';

/** Minutes as the answer says them: whole hours as "2 h", else "90 min". */
export function minutesText(min: number): string {
  return min > 0 && min % 60 === 0 ? `${min / 60} h` : `${min} min`;
}

/** People, short: 2.81 M, 523 k (>= 10,000), else the whole number with thousands separators. */
export function peopleShort(n: number): string {
  if (!Number.isFinite(n)) return 'no data';
  if (Math.abs(n) >= 1e6) return `${(n / 1e6).toFixed(2)} M`;
  if (Math.abs(n) >= 1e4) return `${Math.round(n / 1e3)} k`;
  return Math.round(n).toLocaleString('en');
}

/**
 * The answer of a catchment run in one sentence: the people (`popVar`, a summed layer) within
 * the last break of each source and of all together, e.g. "Within 2 h: Nairobi 2.81 M,
 * Kisumu 0.52 M, together 3.88 M people (modelled)"; one source: "Within 2 h of Nairobi: 2.81 M
 * people (modelled)". Reads the table's `<popVar>_within` columns (or, with cumulative bands,
 * the bands themselves). Null when the table has no such figures.
 * @param qualifier how the people were counted, e.g. "modelled" ('' for none)
 */
export function answerSentence(res: Pick<CatchmentResult, 'table' | 'breaks' | 'marketshed' | 'cumulative' | 'sources'>, popVar: string, qualifier: string, maxSources = 8): string | null {
  const col = res.cumulative ? popVar : `${popVar}_within`;
  const last = res.breaks[res.breaks.length - 1];
  const lastOf = (rows: Row[]) => rows.filter((r) => r.minutes_to === last).map((r) => r[col]).find((v) => typeof v === 'number') as number | undefined;
  const head = `Within ${minutesText(last)}`;
  const q = qualifier ? ` (${qualifier})` : '';
  if (!res.marketshed) {
    const v = lastOf(res.table.rows);
    if (v === undefined) return null;
    return `${head}${res.sources[0]?.name ? ` of ${res.sources[0].name}` : ''}: ${peopleShort(v)} people${q}.`;
  }
  const parts: string[] = [];
  for (const s of res.sources.slice(0, maxSources)) {
    const v = lastOf(res.table.rows.filter((r) => r.source === s.name));
    parts.push(`${s.name} ${v === undefined ? '0' : peopleShort(v)}`);
  }
  if (res.sources.length > maxSources) parts.push(`${res.sources.length - maxSources} more`);
  const all = lastOf(res.table.rows.filter((r) => r.source === undefined || r.source === null || r.source === ''));
  if (all === undefined) return null;
  return `${head}: ${parts.join(', ')}, together ${peopleShort(all)} people${q}.`;
}

/** Names of the coverage columns of the band table (shown in their own per-source table by the panel). */
export const COVERAGE_COLUMN_NAMES = ['capacity', 'population_covered', 'population_in_reach', 'minutes_covered', 'population_uncovered'];

/**
 * A typed capacity: a number of people, 0 or more ("12,000" and "12 000" read as 12000); empty: none.
 * @returns the number, undefined for none, or a message
 */
export function parseCapacity(text: string): number | undefined | string {
  const t = text.trim().replace(/[,\s_]/g, '');
  if (!t) return undefined;
  const c = Number(t);
  if (!/^[0-9.eE+-]+$/.test(t) || !Number.isFinite(c) || c < 0) return `Capacity must be a number of people, 0 or more (got ${JSON.stringify(text.trim().slice(0, 30))}).`;
  return c;
}

/**
 * The coverage of a result per source (source, capacity, people covered, people of its
 * marketshed within the last break, those left uncovered, minutes to the last cell covered),
 * then one "All sources" row; [] without coverage.
 */
export function coverageRows(res: Pick<CatchmentResult, 'coverage' | 'sources'>): Row[] {
  const cov = res.coverage;
  if (!cov) return [];
  const rows: Row[] = cov.sources.map((c) => ({
    source: res.sources[c.source]?.name ?? `source ${c.source + 1}`, capacity: c.capacity, population_covered: c.covered, population_in_reach: c.inReach,
    population_uncovered: c.inReach - c.covered, minutes_covered: Number.isFinite(c.minutes) ? c.minutes : null,
  }));
  rows.push({ source: 'All sources', capacity: cov.sources.reduce((a, c) => a + c.capacity, 0), population_covered: cov.covered, population_in_reach: cov.inReach, population_uncovered: cov.uncovered, minutes_covered: null });
  return rows;
}

/** Key of a source by its point (the list holds each point once). */
export function srcKey(s: { lon: number; lat: number }): string {
  return `${s.lon},${s.lat}`;
}

/**
 * The source a catchment error refuses, when it names one: "'xy' row 2 (name): the point ... lies on a
 * no-data cell ..." (a point in the sea beyond snapping) or "... lies outside the grid".
 * @param used the sources of the run, in row order
 * @returns the source and why, or null for any other error
 */
export function refusedSource<S extends { lon: number; lat: number }>(message: string, used: S[]): { source: S; why: string } | null {
  const m = /^'xy' row (\d+)(?: \(.*?\))?: the point \([^)]*\) (lies on a no-data cell|lies outside the grid)/.exec(message);
  const s = m ? used[Number(m[1]) - 1] : undefined;
  if (!m || !s) return null;
  return { source: s, why: m[2] === 'lies outside the grid' ? 'outside the grid' : 'in the sea or on no-data cells (no land within reach to snap to)' };
}

/**
 * Why the shown result no longer answers the inputs above it, or null: the sources were all
 * removed, a typed band or capacity was refused, or the sources, bands or indicators changed.
 * @param shown whether a result is shown
 * @param sources number of usable sources
 * @param refused whether a typed value was refused (a message is shown)
 * @param last the shown result's arguments; `now` the inputs' arguments
 */
export function staleReason(shown: boolean, sources: number, refused: boolean, last: { xy: unknown; minutes: unknown; var: unknown } | undefined, now: { xy: unknown; minutes: unknown; var: unknown }): string | null {
  if (!shown) return null;
  if (!sources) return 'The sources were removed: this result is for the previous ones. Add a source to compute a new answer.';
  if (refused) return 'A typed band or capacity was not accepted (see the message): this result is for the previous values.';
  const sig = (a: { xy: unknown; minutes: unknown; var: unknown }) => JSON.stringify([a.xy, a.minutes, a.var]);
  if (last && sig(last) !== sig(now)) return 'The sources, bands or indicators changed: this result is for the previous ones.';
  return null;
}
