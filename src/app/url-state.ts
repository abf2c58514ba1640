/**
 * Shareable app state in the URL hash: indicator, summary variables, countries, `by`
 * domains with custom breaks, drawn/pasted WKT, the `exact` option, the open panel, the
 * map opacity, the map view, the picked place, which result to re-run and the layer
 * comparison (second indicator, swipe or split, divider position), the statistics of the
 * Summaries and Areas panels (`st=`, `q=`, `bins=`, `wt=`) and the year or change of a series on the map. Parsing never throws: unknown keys are ignored and the caller
 * validates codes against the catalog.
 */
import { MAX_NAME_CHARS } from '../core/catchment/options';
import { MAX_SOURCES } from '../core/catchment/sources';
import { breaksProblem, minutesRule } from '../core/r/breaks';
import { parseYears, yearsParam, type YearsChoice } from './years-choice';

// The API's own limits (`xy`: most sources; `names`: longest name, characters), so a link and the API agree.
export { MAX_NAME_CHARS, MAX_SOURCES };

/** Panels of the right-hand side. */
export type PanelId = 'summary' | 'table' | 'areas' | 'compare' | 'catchment' | 'download' | 'api';
const PANELS: PanelId[] = ['summary', 'table', 'areas', 'compare', 'catchment', 'download', 'api'];

/** A named source of a catchment: a point in degrees (EPSG:4326), a name, optionally a capacity in people. */
export interface SourceSpec {
  /** Longitude, degrees. */
  lon: number;
  /** Latitude, degrees. */
  lat: number;
  /** Name shown in the table, on the map and in downloads (1-200 characters). */
  name: string;
  /** People the source can serve (coverage); absent: no capacity. */
  capacity?: number;
}

/** The sources as the link keeps them: a JSON array of [lon, lat, name] or [lon, lat, name, capacity] (5 decimals). */
export function sourcesToParam(list: SourceSpec[]): string {
  return JSON.stringify(list.map((s) => [+s.lon.toFixed(5), +s.lat.toFixed(5), s.name, ...(s.capacity !== undefined ? [s.capacity] : [])]));
}

/** The sources of a link's `src=` ({@link sourcesToParam}); malformed entries are dropped, never throws. */
export function sourcesFromParam(s: string | null): SourceSpec[] {
  if (!s) return [];
  let v: unknown;
  try { v = JSON.parse(s); } catch { return []; }
  if (!Array.isArray(v)) return [];
  const out: SourceSpec[] = [];
  for (const e of v.slice(0, MAX_SOURCES)) {
    if (!Array.isArray(e) || typeof e[0] !== 'number' || typeof e[1] !== 'number' || Math.abs(e[0]) > 180 || Math.abs(e[1]) > 90) continue;
    const name = typeof e[2] === 'string' ? e[2].slice(0, MAX_NAME_CHARS) : '';
    const cap = typeof e[3] === 'number' && e[3] >= 0 ? e[3] : undefined;
    out.push({ lon: e[0], lat: e[1], name, ...(cap !== undefined ? { capacity: cap } : {}) });
  }
  return out;
}

/**
 * Adds sources to a list: unnamed ones get "Source k", names are made unique (" (2)"), a point
 * already in the list is left out with a message, and the total is capped at {@link MAX_SOURCES}
 * (then nothing is added and a message says so).
 */
export function addSources(list: SourceSpec[], add: SourceSpec[]): { list: SourceSpec[]; errors: string[] } {
  if (list.length + add.length > MAX_SOURCES) return { list, errors: [`${list.length + add.length} sources: at most ${MAX_SOURCES} can be computed at once. Nothing was added.`] };
  const out = [...list], errors: string[] = [];
  const names = new Set(list.map((s) => s.name));
  const at = new Set(list.map((s) => `${s.lon},${s.lat}`));
  for (const s of add) {
    if (at.has(`${s.lon},${s.lat}`)) { errors.push(`${s.name || `${s.lon.toFixed(4)}, ${s.lat.toFixed(4)}`}: already a source at ${s.lon.toFixed(4)}, ${s.lat.toFixed(4)}; left out.`); continue; }
    let name = s.name || `Source ${out.length + 1}`;
    for (let k = 2; names.has(name); k++) name = `${(s.name || `Source ${out.length + 1}`).slice(0, MAX_NAME_CHARS - 6)} (${k})`;
    names.add(name);
    at.add(`${s.lon},${s.lat}`);
    out.push({ ...s, name });
  }
  return { list: out, errors };
}

/** The state kept in the URL. */
export interface UrlState {
  /** Mapped indicator code. */
  v: string | null;
  /** Indicator codes summarised (the mapped one when empty, unless `noVars`). */
  vars: string[];
  /** The user removed every summary indicator (hash `vars=`): no fallback to the mapped one. */
  noVars: boolean;
  /** Country / region codes. */
  iso: string[];
  /** `by` domain codes. */
  by: string[];
  /** Custom breaks per continuous `by` code. */
  breaks: Record<string, number[]>;
  /** Drawn or pasted WKT (EPSG:4326). */
  wkt: string;
  /** Coverage-fraction weights for areas. */
  exact: boolean;
  /** Open panel. */
  panel: PanelId;
  /** Map layer opacity 0..1. */
  op: number;
  /** Map view: centre longitude, latitude (degrees) and zoom; null = fit the selection. */
  map: [number, number, number] | null;
  /** Picked place: longitude, latitude (degrees); null = none. */
  pick: [number, number] | null;
  /** The panel whose result the view shows (re-run when a link opens); null = none. */
  run: 'summary' | 'areas' | 'compare' | 'table' | null;
  /** Second indicator of the layer comparison (hash `v2=`); null = none chosen yet. */
  v2: string | null;
  /** Layer comparison mode (hash `cmp=swipe|split`): one map with a divider, or two synchronised maps; null = off. */
  cmp: CompareMode | null;
  /** Position of the swipe divider as a fraction 0.02..0.98 of the map width from the left (hash `sw=`, default 0.5). */
  sw: number;
  /** Catchment band breaks, minutes, increasing (hash `cm=0,60,120`); null = the default 0, 60, 120, 240, 480. */
  cm: number[] | null;
  /** Table builder: indicator in the cells (hash `tv=`); null = the mapped one. */
  tv: string | null;
  /** Table builder: domain of the rows (hash `tr=`); null = the default (ADM1_NAME_ALT). */
  tr: string | null;
  /** Table builder: domain of the columns (hash `tc=`); null = the default (ELEV_ZONE). */
  tc: string | null;
  /** Indicator charted in the summary result (hash `y=`); null = the first one summarised. */
  y: string | null;
  /** Names of the shapes in `wkt`, by shape number 1..n ('' = unnamed: shown by its number); hash `fn=` as a JSON array. */
  names: string[];
  /** Catchment sources, named (hash `src=` as a JSON array of [lon, lat, name(, capacity)]); [] = none (the picked place is the source). */
  src: SourceSpec[];
  /** Statistics of Summaries and Areas, the API's `stats` names (hash `st=mean,quantile`); [] = the indicator's own value only. */
  st: string[];
  /** Quantile probabilities 0..1 of `quantile` (hash `q=0.1,0.5,0.9`); null = the API's default. */
  q: number[] | null;
  /** Histogram bin count 1..1000 of `histogram` (hash `bins=10`); null = the API's default. */
  bins: number | null;
  /** Weight layer code of the weighted statistics (hash `wt=POP_MODEL`); null = none. */
  wt: string | null;
  /** Year of a series drawn on the map (hash `year=`, a whole number 1000-9999); null = its latest year. */
  year: number | null;
  /** Change map of a series: `diff` (year - from) or `pct` (100 * (year - from) / from), hash `chg=`; null = the year's values. */
  chg: ChangeMode | null;
  /** First year of the change map (hash `yfrom=`); null = the series' first year. */
  yfrom: number | null;
  /** Years of a Summaries run over series (hash `yrs=2005`, `yrs=2000:2017`, `yrs=all`; ./years-choice.ts); null = the latest year. */
  yrs: YearsChoice | null;
  /** Table builder: statistic in the cells, one value per cell (hash `ts=stdev`); null = the indicator's own formula. */
  ts: string | null;
}

/** Change between two years of a series, as the API's `change`: `diff` = to - from, `pct` = 100 * (to - from) / from. */
export type ChangeMode = 'diff' | 'pct';
const CHANGE_MODES: ChangeMode[] = ['diff', 'pct'];
/** A year from a hash value: a whole number 1000-9999, else null. */
const yearOf = (s: string | null): number | null => (s && /^\d{4}$/.test(s) ? Number(s) : null);

/** How two layers are compared: `swipe` (one map, a draggable divider) or `split` (two maps side by side, or stacked on a phone). */
export type CompareMode = 'swipe' | 'split';
const CMP_MODES: CompareMode[] = ['swipe', 'split'];

/** Keys whose change is a step of its own in the browser history (Back returns before it); others replace the entry. */
export const HISTORY_KEYS: ReadonlyArray<keyof UrlState> = ['v', 'vars', 'noVars', 'iso', 'by', 'panel', 'pick', 'run', 'exact', 'v2', 'cmp', 'cm', 'src', 'st', 'wt', 'chg'];

/** The state of a fresh visit. */
export const DEFAULT_STATE: UrlState = { v: null, vars: [], noVars: false, iso: [], by: [], breaks: {}, wkt: '', exact: false, panel: 'summary', op: 0.85, map: null, pick: null, run: null, v2: null, cmp: null, sw: 0.5, cm: null, tv: null, tr: null, tc: null, y: null, names: [], src: [], st: [], q: null, bins: null, wt: null, year: null, chg: null, yfrom: null, yrs: null, ts: null };

const list = (s: string | null) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : []);
/** n finite numbers from "a,b,c" (null otherwise). */
const nums = (s: string | null, n: number): number[] | null => {
  const v = list(s).map(Number);
  return v.length === n && v.every(Number.isFinite) ? v : null;
};
const RUNS = ['summary', 'areas', 'compare', 'table'] as const;
/** A JSON array of strings (shape names); [] when absent or malformed (never throws). */
function strings(s: string | null): string[] {
  if (!s) return [];
  try {
    const v: unknown = JSON.parse(s);
    return Array.isArray(v) ? v.slice(0, 10_000).map((x) => (typeof x === 'string' ? x.slice(0, 200) : '')) : [];
  } catch { return []; }
}

/**
 * The statistics choices of a hash: names that look like statistic names (the engine checks
 * them against its registry), probabilities 0..1 (at most 100), a whole bin count 1..1000, a
 * code; anything else is dropped (never throws).
 */
function zonalFromParams(p: URLSearchParams): Pick<UrlState, 'st' | 'q' | 'bins' | 'wt' | 'ts'> {
  const q = list(p.get('q')).map(Number);
  const bins = Number(p.get('bins'));
  const wt = p.get('wt');
  return {
    st: [...new Set(list(p.get('st')).filter((x) => /^[a-z][a-z0-9_]{0,30}$/.test(x)))],
    q: q.length && q.length <= 100 && q.every((x) => Number.isFinite(x) && x >= 0 && x <= 1) ? q : null,
    bins: p.has('bins') && Number.isInteger(bins) && bins >= 1 && bins <= 1000 ? bins : null,
    wt: wt && /^[A-Za-z0-9_]{1,64}$/.test(wt) ? wt : null,
    ts: /^[a-z][a-z0-9_]{0,30}$/.test(p.get('ts') ?? '') ? p.get('ts') : null,
  };
}

/** Parses a location hash ("#v=ELEVATION&iso=KEN,TZA&by=ADM1_NAME_ALT&brk.ELEVATION=0,500,1000"). */
export function parseHash(hash: string): UrlState {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const breaks: Record<string, number[]> = {};
  for (const [k, val] of p) {
    if (!k.startsWith('brk.')) continue;
    const nums = list(val).map(Number);
    if (nums.length >= 2 && nums.every(Number.isFinite)) breaks[k.slice(4)] = nums;
  }
  const op = Number(p.get('op'));
  const panel = p.get('panel') as PanelId;
  const map = nums(p.get('map'), 3);
  const pick = nums(p.get('pick'), 2);
  const run = p.get('run') as UrlState['run'];
  const cmp = p.get('cmp') as CompareMode;
  const sw = Number(p.get('sw'));
  const cm = list(p.get('cm')).map(Number);
  return {
    v: p.get('v') || null,
    vars: list(p.get('vars')),
    noVars: p.has('vars') && list(p.get('vars')).length === 0,
    iso: list(p.get('iso')),
    by: list(p.get('by')),
    breaks,
    wkt: p.get('wkt') ?? '',
    exact: p.get('exact') === '1',
    panel: PANELS.includes(panel) ? panel : 'summary',
    op: Number.isFinite(op) && p.has('op') && op >= 0 && op <= 1 ? op : DEFAULT_STATE.op,
    map: map && Math.abs(map[0]) <= 180 && Math.abs(map[1]) <= 85 && map[2] >= 0 && map[2] <= 22 ? [map[0], map[1], map[2]] : null,
    pick: pick && Math.abs(pick[0]) <= 180 && Math.abs(pick[1]) <= 90 ? [pick[0], pick[1]] : null,
    run: RUNS.includes(run as (typeof RUNS)[number]) ? run : null,
    v2: CMP_MODES.includes(cmp) ? p.get('v2') || null : null,
    cmp: CMP_MODES.includes(cmp) ? cmp : null,
    sw: p.has('sw') && Number.isFinite(sw) && sw >= 0.02 && sw <= 0.98 ? sw : DEFAULT_STATE.sw,
    cm: breaksProblem(cm, minutesRule()) ? null : cm, // the API's minutes rule (src/core/breaks.ts)
    tv: p.get('tv') || null,
    tr: p.get('tr') || null,
    tc: p.get('tc') || null,
    y: p.get('y') || null,
    names: p.get('wkt') ? strings(p.get('fn')) : [],
    src: sourcesFromParam(p.get('src')),
    ...zonalFromParams(p),
    year: yearOf(p.get('year')),
    chg: CHANGE_MODES.includes(p.get('chg') as ChangeMode) ? (p.get('chg') as ChangeMode) : null,
    yfrom: yearOf(p.get('yfrom')),
    yrs: parseYears(p.get('yrs')),
  };
}

/** Writes the state as a hash (without defaults). */
export function toHash(s: UrlState): string {
  const p = new URLSearchParams();
  if (s.v) p.set('v', s.v);
  if (s.vars.length) p.set('vars', s.vars.join(','));
  else if (s.noVars) p.set('vars', '');
  if (s.iso.length) p.set('iso', s.iso.join(','));
  if (s.by.length) p.set('by', s.by.join(','));
  for (const [k, b] of Object.entries(s.breaks)) if (s.by.includes(k)) p.set(`brk.${k}`, b.join(','));
  if (s.wkt) p.set('wkt', s.wkt);
  if (s.wkt && s.names.some(Boolean)) p.set('fn', JSON.stringify(s.names));
  if (s.exact) p.set('exact', '1');
  if (s.panel !== 'summary') p.set('panel', s.panel);
  if (s.op !== DEFAULT_STATE.op) p.set('op', String(s.op));
  if (s.pick) p.set('pick', s.pick.map((x) => +x.toFixed(5)).join(','));
  if (s.run) p.set('run', s.run);
  if (s.tv) p.set('tv', s.tv);
  if (s.tr) p.set('tr', s.tr);
  if (s.tc) p.set('tc', s.tc);
  if (s.y) p.set('y', s.y);
  if (s.cmp) {
    p.set('cmp', s.cmp);
    if (s.v2) p.set('v2', s.v2);
    if (s.cmp === 'swipe' && s.sw !== DEFAULT_STATE.sw) p.set('sw', String(+s.sw.toFixed(3)));
  }
  if (s.cm) p.set('cm', s.cm.join(','));
  if (s.src.length) p.set('src', sourcesToParam(s.src));
  if (s.st.length) p.set('st', s.st.join(','));
  if (s.q) p.set('q', s.q.join(','));
  if (s.bins !== null) p.set('bins', String(s.bins));
  if (s.wt) p.set('wt', s.wt);
  if (s.year !== null) p.set('year', String(s.year));
  if (s.chg) {
    p.set('chg', s.chg);
    if (s.yfrom !== null) p.set('yfrom', String(s.yfrom));
  }
  if (s.yrs) p.set('yrs', yearsParam(s.yrs));
  if (s.ts) p.set('ts', s.ts);
  if (s.map) p.set('map', [+s.map[0].toFixed(4), +s.map[1].toFixed(4), +s.map[2].toFixed(2)].join(','));
  const str = p.toString();
  return str ? `#${str}` : '';
}
