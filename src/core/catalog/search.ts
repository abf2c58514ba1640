/**
 * Catalog search: a full-text index over the catalog records (MiniSearch, BM25 ranking with
 * per-field boosts, prefix and light fuzzy matching), accent-insensitive word-start matching,
 * everyday synonyms ("town" finds places and settlements), and faceted filters by category,
 * year, source and type with counts per option. Pure: no DOM, no I/O.
 *
 * Ranking: fields are boosted so that code and label hits come first, then title, then
 * category / subcategory / item, then year, source and description; an exact code (or a code
 * prefix such as `dist_co`) always ranks first. Words match at the start of a word ("rain"
 * finds "Rainfall", never "Terrain"); every query word (or one of its synonyms) must match.
 */
import MiniSearch, { type Query, type SearchOptions } from 'minisearch';
import type { VarRecord } from '../types';
import { VI_FIELDS } from '../bundle';

const KNOWN = new Set<string>(VI_FIELDS as string[]);

/**
 * Synonyms users type, keyed by a word or phrase as typed (lower case, accents ignored,
 * plural "s" ignored); each maps to the words or phrases the catalog uses. A phrase matches
 * when all its words match (prefixes, in any order). A synonym match scores below a match of
 * the typed word itself ({@link SYNONYM_WEIGHT}). Extend freely: one line per entry.
 */
export const CATALOG_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  // places, markets and access (issue 11 item 8: "town", "city", "travel time")
  town: ['place', 'settlement', 'urban', 'city', 'market', 'travel time'],
  city: ['place', 'settlement', 'urban', 'town', 'market', 'travel time'],
  village: ['place', 'settlement', 'rural'],
  settlement: ['place', 'town', 'city', 'village'],
  urban: ['place', 'settlement', 'town', 'city'],
  market: ['place', 'settlement', 'town', 'city', 'travel time', 'access'],
  'travel time': ['distance', 'access', 'remoteness', 'travel'],
  access: ['distance', 'travel time', 'remoteness'],
  remoteness: ['distance', 'travel time', 'access'],
  // climate
  rain: ['rainfall', 'precipitation'],
  precipitation: ['rainfall', 'rain'],
  temperature: ['temp', 'heat'],
  // production
  yield: ['yield', 'production per area', 'productivity'],
  production: ['yield', 'output', 'harvest'],
  // people
  pop: ['population', 'people', 'inhabitant'],
  population: ['people', 'inhabitant', 'pop'],
  people: ['population', 'pop'],
  // terrain
  height: ['elevation', 'altitude'],
  altitude: ['elevation', 'height'],
  elevation: ['altitude', 'height'],
  // economy
  poverty: ['poor', 'poverty', 'income', 'headcount', 'wealth'],
  income: ['gdp', 'poverty', 'wealth', 'economy'],
  gdp: ['gross domestic product', 'income', 'economy'],
  wealth: ['income', 'gdp', 'poverty'],
  // water
  water: ['lake', 'inland water', 'river', 'wetland', 'hydrology'],
  lake: ['inland water', 'water', 'reservoir'],
  river: ['water', 'hydrology', 'stream'],
  // administrative units and their key layers (ADM1 = first level, ADM2 = second level)
  admin: ['administrative', 'adm1', 'adm2', 'admin 1', 'admin 2', 'boundary', 'province', 'district'],
  administrative: ['admin', 'adm1', 'adm2', 'boundary'],
  province: ['adm1', 'admin 1', 'first level', 'province', 'state', 'region'],
  state: ['adm1', 'admin 1', 'first level', 'province'],
  region: ['adm1', 'admin 1', 'subregion', 'province'],
  district: ['adm2', 'admin 2', 'second level', 'district', 'county'],
  county: ['adm2', 'admin 2', 'second level', 'district'],
  country: ['adm0', 'iso3', 'national', 'country'],
  national: ['adm0', 'iso3', 'country'],
};

/** Score factor of a synonym match relative to a match of the typed word (0..1). */
export const SYNONYM_WEIGHT = 0.6;

/** The code a record's description sends users to ("… use POP_MODEL for people near a place"), if any. */
export function preferredCode(rec: VarRecord): string | null {
  const m = /\b[Uu]se ([A-Z][A-Z0-9_]{2,})\b/.exec(rec.varDesc);
  return m && m[1] !== rec.varCode ? m[1] : null;
}

/**
 * Ranked hits, with each record whose description sends users to another hit of the same rank
 * tier (code match) moved just after that one: "population" lists POP_MODEL (people where they
 * live) before PN14_POP (spread evenly, "use POP_MODEL"), whatever BM25 makes of the labels.
 */
function deferToPreferred(keyed: Array<{ hit: SearchHit; tier: number }>): SearchHit[] {
  const at = new Map(keyed.map((k, i) => [k.hit.rec.varCode, i]));
  const later = (k: { hit: SearchHit; tier: number }, i: number) => {
    const p = preferredCode(k.hit.rec);
    const j = p === null ? undefined : at.get(p);
    return j !== undefined && j > i && keyed[j].tier === k.tier ? p : null;
  };
  const deferred = new Map<string, SearchHit[]>();
  const out: SearchHit[] = [];
  keyed.forEach((k, i) => {
    const p = later(k, i);
    if (p) deferred.set(p, [...(deferred.get(p) ?? []), k.hit]);
  });
  for (const k of keyed) {
    if (deferred.size && [...deferred.values()].some((l) => l.includes(k.hit))) continue;
    out.push(k.hit, ...(deferred.get(k.hit.rec.varCode) ?? []));
  }
  return out;
}

/** Field boosts of the index (see the module comment for the ranking they give). */
export const FIELD_BOOST: Readonly<Record<SearchField, number>> = {
  code: 8, label: 6, title: 3, category: 2, year: 1.2, source: 0.8, description: 0.5, more: 0.5,
};

/**
 * Fields of the search index, each made of record fields; `more` holds the extra fields an
 * ingested catalog keeps on its records (keywords, topics, crops, caveats, ...).
 */
export type SearchField = 'code' | 'label' | 'title' | 'category' | 'year' | 'source' | 'description' | 'more';

/** Fields a synonym may match in (not descriptions or sources, where everyday words are noise). */
const SYNONYM_FIELDS: SearchField[] = ['code', 'label', 'title', 'category'];

const FIELDS: SearchField[] = ['code', 'label', 'title', 'category', 'year', 'source', 'description', 'more'];

const STOP = new Set(['a', 'an', 'the', 'of', 'to', 'in', 'on', 'per', 'and', 'or', 'for', 'by', 'at', 'with', 'from', 'is', 'are', 'as', 'its']);

/** Lower case without accents (NFD, combining marks removed): "Côte" -> "cote". */
export function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** Splits folded text into words (letters and digits). */
function words(s: string): string[] {
  return fold(s).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Light plural stemming: "places" -> "place", "cities" -> "city"; short words kept. */
function stem(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/** Index and query term processing: folded, stop words dropped, plurals stemmed. */
function processTerm(term: string): string | null {
  const t = fold(term);
  if (!t || STOP.has(t)) return null;
  return stem(t);
}

const tokenize = (text: string): string[] => text.split(/[^\p{L}\p{N}\p{M}]+/u).filter(Boolean);

/** The synonym table with its keys as stemmed word lists, longest phrases first. */
const SYN_KEYS: Array<{ key: string[]; to: string[] }> = Object.entries(CATALOG_SYNONYMS)
  .map(([k, v]) => ({ key: words(k).map(stem), to: [...v] }))
  .sort((a, b) => b.key.length - a.key.length);

/** Value of a record for a facet. */
export type FacetKey = 'category' | 'year' | 'source' | 'type';

/** Facet keys in display order. */
export const FACET_KEYS: FacetKey[] = ['category', 'year', 'source', 'type'];

/** Label of a facet option value that is empty in the catalog. */
export const NO_VALUE = '(none)';

/**
 * The value of a record for a facet: category = cat1, year = first year ("n.d." and empty
 * become {@link NO_VALUE}), source = sourceMini (else sources), type = continuous/class.
 */
export function facetValue(r: VarRecord, key: FacetKey): string {
  switch (key) {
    case 'category': return r.cat1 || NO_VALUE;
    case 'year': return /^\d{4}/.test(r.year) ? r.year.slice(0, 4) : NO_VALUE;
    case 'source': return r.sourceMini || r.sources || NO_VALUE;
    case 'type': return r.type;
  }
}

/** Selected filter options per facet: within a facet any option may match, facets combine with AND. */
export type CatalogFilters = Partial<Record<FacetKey, readonly string[]>>;

/** One option of a facet with the number of records it would give. */
export interface FacetOption {
  /** The option value (as {@link facetValue} gives it). */
  value: string;
  /** Records matching the search and the other facets' filters that have this value. */
  count: number;
}

/** One search hit. */
export interface SearchHit {
  /** The record. */
  rec: VarRecord;
  /** Relevance score (higher first); 0 without a query. */
  score: number;
  /** Index fields the query matched in (empty without a query). */
  fields: SearchField[];
  /** Some typed word matched only through a synonym (e.g. "town" -> "place"). */
  viaSynonym: boolean;
}

/** The answer of {@link CatalogIndex.search}. */
export interface SearchResult {
  /** Matching records: ranked when there is a query, else in catalog order. */
  hits: SearchHit[];
  /** Options of every facet (every value present in the catalog) with counts. */
  facets: Record<FacetKey, FacetOption[]>;
  /** The query had words to search for. */
  hasQuery: boolean;
}

interface Doc { id: number; code: string; label: string; title: string; category: string; year: string; source: string; description: string; more: string }

/** A search index over a catalog's records. */
export interface CatalogIndex {
  /** The indexed records, in catalog order. */
  readonly records: readonly VarRecord[];
  /**
   * Records matching the query text (empty: all) and the filters, with facet counts.
   * Never throws: the query is plain text, never a pattern.
   */
  search(q: string, filters?: CatalogFilters): SearchResult;
  /** Builds the text index now (else the first query does): call when the page is idle. */
  prepare(): void;
}

/** The query tree of a text: every word (or phrase) or one of its synonyms must match. */
export function buildQuery(q: string): { query: Query | null; synonymTerms: Set<string>; typed: string[][] } {
  const ws = words(q).map(stem).filter((w) => !STOP.has(w));
  const groups: Query[] = [];
  const typedGroups: string[][] = [];
  const synonymTerms = new Set<string>();
  for (let i = 0; i < ws.length;) {
    const syn = SYN_KEYS.find((s) => s.key.every((k, j) => ws[i + j] === k));
    if (syn) {
      const typed = ws.slice(i, i + syn.key.length);
      typedGroups.push(typed);
      const alts: Query[] = [];
      for (const p of syn.to) {
        const pw = words(p).map(stem).filter((w) => !STOP.has(w));
        if (!pw.length || (pw.length === typed.length && pw.every((w, j) => w === typed[j]))) continue;
        for (const w of pw) if (!typed.includes(w)) synonymTerms.add(w);
        alts.push(pw.length === 1 ? pw[0] : { combineWith: 'AND', queries: pw });
      }
      // the typed words anywhere; synonyms only in the fields that name the indicator
      groups.push({ combineWith: 'OR', queries: [typed.length === 1 ? typed[0] : { combineWith: 'AND', queries: typed }, { combineWith: 'OR', fields: SYNONYM_FIELDS, queries: alts }] });
      i += syn.key.length;
    } else {
      groups.push(ws[i]);
      typedGroups.push([ws[i]]);
      i += 1;
    }
  }
  if (!groups.length) return { query: null, synonymTerms, typed: [] };
  return { query: groups.length === 1 ? groups[0] : { combineWith: 'AND', queries: groups }, synonymTerms, typed: typedGroups };
}

/**
 * Builds the search index of a catalog: facet values at once, the text index on the first
 * query (about 30-100 ms for 750 records with long descriptions; see `npx tsx bench/catalog.ts`).
 */
export function buildCatalogIndex(records: readonly VarRecord[]): CatalogIndex {
  // the text index is built on the first query (the tree and the facets need none of it)
  let built: MiniSearch<Doc> | null = null;
  const textIndex = (): MiniSearch<Doc> => {
    if (built) return built;
    const m = new MiniSearch<Doc>({
      fields: FIELDS,
      idField: 'id',
      tokenize,
      processTerm,
    });
    const docs: Doc[] = records.map((r, id) => ({
      id,
      code: `${r.varCode} ${r.varCode.replace(/[^A-Za-z0-9]+/g, '')}`,
      label: r.varLabel,
      title: r.varTitle,
      category: [r.cat1, r.cat2, r.cat3].join(' '),
      year: r.yearEnd && r.yearEnd !== r.year ? `${r.year} ${r.yearEnd}` : r.year,
      source: `${r.sourceMini} ${r.sources}`,
      description: r.varDesc,
      more: Object.entries(r).filter(([k, v]) => !KNOWN.has(k) && typeof v === 'string').map(([, v]) => v).join(' '),
    }));
    m.addAll(docs);
    built = m;
    return m;
  };
  const codes = records.map((r) => fold(r.varCode));
  const index = new Map(records.map((r, i) => [r, i]));
  const facetVals = records.map((r) => FACET_KEYS.map((k) => facetValue(r, k)));
  const allOptions = FACET_KEYS.map((_, fi) => {
    const seen = new Map<string, number>();
    facetVals.forEach((v, i) => { if (!seen.has(v[fi])) seen.set(v[fi], i); });
    return [...seen.keys()];
  });
  // option order: category in catalog order, years newest first, sources A-Z, type as is
  allOptions[1].sort((a, b) => (a === NO_VALUE ? 1 : b === NO_VALUE ? -1 : b.localeCompare(a)));
  allOptions[2].sort((a, b) => (a === NO_VALUE ? 1 : b === NO_VALUE ? -1 : fold(a).localeCompare(fold(b))));

  return {
    records,
    prepare: () => { textIndex(); },
    search(q: string, filters: CatalogFilters = {}): SearchResult {
      const { query, synonymTerms, typed } = buildQuery(q);
      let hits: SearchHit[];
      if (query) {
        const opts: SearchOptions = {
          boost: FIELD_BOOST,
          prefix: true,
          fuzzy: (t: string) => (t.length >= 5 && !/\d/.test(t) ? 1 : false),
          weights: { prefix: 0.7, fuzzy: 0.3 },
          boostTerm: (t: string) => (synonymTerms.has(t) ? SYNONYM_WEIGHT : 1),
        };
        const qq = fold(q.trim()).replace(/\s+/g, '_');
        const res = textIndex().search(query, opts);
        // rank: exact code, code prefix, then hits matching more of the typed words themselves
        // (not through a synonym), then the BM25 score
        const keyed = res.map((h) => {
          const fields = new Set<SearchField>();
          for (const fs of Object.values(h.match)) for (const f of fs) fields.add(f as SearchField);
          const matched = new Set(h.queryTerms);
          const direct = typed.filter((g) => g.every((t) => matched.has(t))).length;
          const code = codes[h.id as number];
          const tier = code === qq ? 2 : qq.length >= 2 && code.startsWith(qq) ? 1 : 0;
          const hit: SearchHit = { rec: records[h.id as number], score: h.score, fields: FIELDS.filter((f) => fields.has(f)), viaSynonym: direct < typed.length };
          return { hit, tier, direct };
        });
        keyed.sort((a, b) => b.tier - a.tier || b.direct - a.direct || b.hit.score - a.hit.score);
        hits = deferToPreferred(keyed);
      } else {
        hits = records.map((rec) => ({ rec, score: 0, fields: [], viaSynonym: false }));
      }
      // facets: counts of each option over hits passing the other facets' filters
      const sel = FACET_KEYS.map((k) => (filters[k]?.length ? new Set(filters[k]) : null));
      const counts = FACET_KEYS.map(() => new Map<string, number>());
      const kept: SearchHit[] = [];
      for (const h of hits) {
        const v = facetVals[index.get(h.rec)!];
        let failing = -1, fails = 0;
        for (let f = 0; f < sel.length; f++) if (sel[f] && !sel[f]!.has(v[f])) { failing = f; fails++; }
        if (fails === 0) {
          kept.push(h);
          for (let f = 0; f < sel.length; f++) counts[f].set(v[f], (counts[f].get(v[f]) ?? 0) + 1);
        } else if (fails === 1) {
          counts[failing].set(v[failing], (counts[failing].get(v[failing]) ?? 0) + 1);
        }
      }
      const facets = Object.fromEntries(FACET_KEYS.map((k, f) => [k, allOptions[f].map((value) => ({ value, count: counts[f].get(value) ?? 0 }))])) as Record<FacetKey, FacetOption[]>;
      return { hits: kept, facets, hasQuery: !!query };
    },
  };
}
