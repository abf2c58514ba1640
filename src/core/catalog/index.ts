/**
 * The catalog: the records of `vi.csv` (variable inventory), class tables and the
 * country/region list `iso.csv` of the bundle (read and parsed by src/core/bundle), plus the
 * `category` listing and `describe` records of the service (spec E4, E5, part 2.1/2.2).
 */
import type { CategoryRow } from '../api';
import { formSeries, VI_FIELDS, type Bundle, type BundleSeries, type IsoRow, type NationalSeries } from '../bundle';
import { IndapiError, throwIfAborted } from '../errors';
import { aggFormulaText } from '../r';
import type { ClassEntry, VarRecord } from '../types';

/** Reads a class table at a path relative to the bundle root (a Bundle's `classTableAt`). */
export type ClassTableLoader = (path: string, signal?: AbortSignal) => Promise<ClassEntry[]>;

/**
 * True when a record's `published` field hides it from `category` (false, FALSE, F, 0, no):
 * helper layers of an ingested bundle. Anything else (TRUE, a date, empty) is listed.
 */
export function isUnpublished(published: string | undefined): boolean {
  return /^\s*(false|f|0|no)\s*$/i.test(published ?? '');
}

/** The wording of the original for unknown codes (getLayer.R), without the brand. */
export function unknownCodeMessage(codes: string[]): string {
  return `Variable ${codes.join(', ')} was not found in the indicator data catalog. Use describe() or category() to query indicator metadata.`;
}

/** A compiled user pattern: tests whether it matches any part of a text. */
export interface Pattern {
  /** True when the pattern matches somewhere in `text`. */
  test(text: string): boolean;
}

/**
 * Compiles user patterns as case-insensitive regular expressions with RE2 semantics
 * (`re2js`): matching takes time linear in the text, so no pattern (e.g. `(.*){6}QQQ` or
 * `(a+)+$`) can block the server or the service worker. RE2 has no backreferences or
 * lookaround; such patterns are invalid. `re2js` is imported on first use: it is 150 KB of
 * the 445 KB engine worker script that a summary never needs (a separate chunk in the browser,
 * fetched when a pattern is first asked for; precached for offline use with the other lazy files).
 * @throws IndapiError BAD_ARGUMENT for a pattern that is not text of at most 200 characters
 *   or not a valid regular expression
 */
export async function compilePatterns(q: string[]): Promise<Pattern[]> {
  for (const p of q) if (typeof p !== 'string' || p.length > 200) throw new IndapiError('BAD_ARGUMENT', 'A pattern must be text of at most 200 characters.');
  const { RE2JS } = await import('re2js');
  return q.map((p) => {
    try {
      const re = RE2JS.compile(p, RE2JS.CASE_INSENSITIVE);
      return { test: (text: string) => re.test(text) };
    } catch (e) {
      throw new IndapiError('BAD_ARGUMENT', `Invalid regular expression '${p}': ${(e as Error).message.replace('(?i)', '')}`, { pattern: p });
    }
  });
}

/** The loaded catalog of a bundle. */
export class Catalog {
  /** Records in catalog order. */
  readonly records: VarRecord[];
  /** Country and region codes. */
  readonly iso: IsoRow[];
  /**
   * The national series' values (series/national.csv), null when the bundle has none or, for a
   * catalog opened with {@link Catalog.open}, until {@link loadNational} has read them.
   */
  national: NationalSeries | null;
  /** The national series' records (series/vi.csv): known to queries, not listed in `records`. */
  readonly seriesRecords: VarRecord[];
  private readonly byCode = new Map<string, VarRecord>();
  /** Series stem -> year -> the record of that year (vi.csv records with `series` and `year`). */
  private readonly members = new Map<string, Map<number, VarRecord>>();
  private readonly isoByCode = new Map<string, IsoRow>();
  private readonly tables = new Map<string, Promise<ClassEntry[]>>();
  private nationalP: Promise<void> | null = null;

  /**
   * @param records vi.csv's records
   * @param iso iso.csv's rows
   * @param classTable reads the class tables records name (read once each, on demand)
   * @param series the bundle's national series (values and records), if any
   * @param loadSeries reads the national series' values when {@link loadNational} first asks
   *   (absent: `series` holds them already)
   */
  constructor(records: VarRecord[], iso: IsoRow[], private readonly classTable: ClassTableLoader, series: { table: NationalSeries | null; records: VarRecord[] } | null = null, private readonly loadSeries?: (signal?: AbortSignal) => Promise<BundleSeries | null>) {
    this.records = records;
    this.iso = iso;
    this.national = series?.table ?? null;
    this.seriesRecords = series?.records ?? [];
    for (const r of [...records, ...this.seriesRecords]) this.byCode.set(r.varCode, r);
    for (const f of formSeries(records)) {
      if (this.byCode.has(f.stem)) continue; // a record of its own wins over a stem
      this.members.set(f.stem, new Map(f.members.map((m) => [m.year, this.byCode.get(m.code)!])));
    }
    for (const i of iso) this.isoByCode.set(i.code.toUpperCase(), i);
  }

  /**
   * The catalog of a bundle: its vi.csv and iso.csv, class tables read on demand.
   * @throws IndapiError IO when they cannot be read or parsed
   */
  static async open(bundle: Bundle, signal?: AbortSignal): Promise<Catalog> {
    // The national series' values (series/national.csv, about 85 KB gzipped) are read only by a
    // query over a national series ({@link loadNational}): a first summary on a slow link does
    // not wait for them. Their records (series/vi.csv, small) are known from the start.
    const [records, iso, seriesRecords] = await Promise.all([bundle.catalog(signal), bundle.iso(signal), bundle.seriesCatalog(signal)]);
    return new Catalog(records, iso, bundle.classTableAt, { table: null, records: seriesRecords }, (s) => bundle.series(s));
  }

  /**
   * Reads the national series' values into {@link national} (once; at once when the catalog
   * was built with them). A query over national series awaits it before planning its years.
   * @throws IndapiError IO when series/national.csv cannot be read or parsed, ABORTED on abort
   */
  async loadNational(signal?: AbortSignal): Promise<void> {
    if (this.national || !this.loadSeries) return;
    const p = (this.nationalP ??= this.loadSeries().then((s) => { this.national = s?.table ?? null; }));
    p.catch(() => { if (this.nationalP === p) this.nationalP = null; });
    throwIfAborted(signal);
    await p;
    throwIfAborted(signal);
  }

  /**
   * The years a code holds when it is a series, increasing; null when it is not one. A series
   * is a national series (series/vi.csv, years of series/national.csv) or a stem of records of
   * vi.csv, one per year (src/core/bundle/series-form.ts: their `series` column, codes
   * `<STEM>_<YYYY>`, or CELL5M codes differing by a two-digit year: PN00_TOT, PN05_TOT -> PN_TOT).
   */
  seriesYears(code: string): number[] | null {
    if (this.isNational(code)) return this.national?.years.get(code) ?? [];
    const m = this.members.get(code);
    return m ? [...m.keys()].sort((a, b) => a - b) : null;
  }

  /** True for a national series (values per ISO3 in series/national.csv, no COG). */
  isNational(code: string): boolean {
    return this.byCode.get(code)?.dataType === 'national';
  }

  /**
   * The record holding a series' values of `year`: the national series' own record, or the
   * year's member record (e.g. PN05_TOT for PN_TOT and 2005); a code that is not a series is its own record.
   * @throws IndapiError UNKNOWN_CODE when neither
   */
  seriesRecord(code: string, year: number): VarRecord {
    const m = this.members.get(code)?.get(year);
    return m ?? this.need(code);
  }

  /** The record of a code, or undefined. */
  get(code: string): VarRecord | undefined {
    return this.byCode.get(code);
  }

  /**
   * The record of a code.
   * @throws IndapiError UNKNOWN_CODE
   */
  need(code: string): VarRecord {
    const r = this.byCode.get(code);
    if (!r) throw new IndapiError('UNKNOWN_CODE', unknownCodeMessage([code]), { codes: [code] });
    return r;
  }

  /**
   * Checks codes, naming every unknown one in one message (the original's wording).
   * @throws IndapiError UNKNOWN_CODE
   */
  validate(codes: string[]): void {
    const bad = [...new Set(codes.filter((c) => !this.byCode.has(c)))];
    if (bad.length) throw new IndapiError('UNKNOWN_CODE', unknownCodeMessage(bad), { codes: bad });
  }

  /** iso.csv row of a code (case-insensitive), or undefined. */
  isoEntry(code: string): IsoRow | undefined {
    return this.isoByCode.get(String(code).toUpperCase());
  }

  /**
   * Class table of a class layer (cached). Falls back to the record's pipe-separated
   * classBreaks/classLabels when the record names no table.
   * @throws IndapiError IO when the table cannot be read
   */
  async classes(code: string, signal?: AbortSignal): Promise<ClassEntry[]> {
    const rec = this.need(code);
    let p = this.tables.get(code);
    if (!p) {
      if (rec.classTable) {
        p = this.classTable(rec.classTable, signal);
      } else {
        const vals = rec.classBreaks.split('|').filter(Boolean);
        const labs = rec.classLabels.split('|');
        const cols = rec.classColors.split('|');
        p = Promise.resolve(vals.map((v, i) => {
          const e: ClassEntry = { value: Number(v), label: labs[i] || v };
          if (cols[i]) e.color = cols[i];
          return e;
        }));
      }
      this.tables.set(code, p);
      p.catch(() => this.tables.delete(code));
    }
    throwIfAborted(signal);
    return p;
  }

  /**
   * The records listed by `category` and described by `describe()` without arguments: vi.csv's
   * records, then the national series' records (series/vi.csv, `cat1` "National series"), whose
   * codes are asked with `year` like any series.
   */
  listed(): VarRecord[] {
    return this.seriesRecords.length ? [...this.records, ...this.seriesRecords.filter((r) => !this.records.some((x) => x.varCode === r.varCode))] : this.records;
  }

  /**
   * Category listing (spec E4) of {@link listed} records (national series included), leaving out records whose `published` is false/FALSE/F/0/no
   * (helper layers; see {@link isUnpublished}): rows of category, subcategory, item, code, label, sorted by
   * those columns; patterns are case-insensitive regular expressions matched against code,
   * label, category, subcategory and item (any pattern may match).
   * @throws IndapiError NO_MATCH when patterns match nothing, BAD_ARGUMENT for an invalid pattern
   */
  async category(q?: string[], asList = false): Promise<CategoryRow[] | Record<string, Record<string, CategoryRow[]>>> {
    const pats = q && q.length ? await compilePatterns(q) : null;
    const rows: CategoryRow[] = [];
    for (const r of this.listed()) {
      if (isUnpublished(r.published)) continue;
      if (pats && !pats.some((p) => [r.varCode, r.varLabel, r.cat1, r.cat2, r.cat3].some((f) => p.test(f)))) continue;
      rows.push({ category: r.cat1, subcategory: r.cat2, item: r.cat3, code: r.varCode, label: r.varLabel });
    }
    if (pats && rows.length === 0) {
      throw new IndapiError('NO_MATCH', `No indicator matches ${q!.map((x) => `'${x}'`).join(', ')}. Call category() without a pattern for the full listing.`);
    }
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    rows.sort((a, b) => cmp(a.category, b.category) || cmp(a.subcategory, b.subcategory) || cmp(a.item, b.item) || cmp(a.code, b.code));
    if (!asList) return rows;
    const out: Record<string, Record<string, CategoryRow[]>> = {};
    for (const r of rows) ((out[r.category] ??= {})[r.subcategory] ??= []).push(r);
    return out;
  }

  /**
   * Full metadata records (spec 2.2) for the codes in `vars` and the entries matching the
   * patterns in `q` (as {@link category}); all {@link listed} records (national series included)
   * when both are empty. The identifier element is `Code`; a series' record gives its years
   * (`Period`, e.g. 1950-2017).
   * @param today date written as DownloadedOn (ISO 8601 date)
   * @throws IndapiError UNKNOWN_CODE for unknown codes, NO_MATCH when patterns match nothing
   */
  async describe(vars: string[] = [], q: string[] = [], today = new Date().toISOString().slice(0, 10)): Promise<Record<string, string>[]> {
    this.validate(vars);
    const codes = new Set(vars);
    if (q.length) for (const r of (await this.category(q)) as CategoryRow[]) codes.add(r.code);
    const recs = vars.length || q.length ? this.listed().filter((r) => codes.has(r.varCode)) : this.listed();
    return recs.map((r) => describeRecord(r, today));
  }
}

/**
 * One describe() record: the catalog record under the service's element names, then any
 * further fields of the original catalog (ingested bundles) under their own names.
 */
export function describeRecord(r: VarRecord, today: string): Record<string, string> {
  const period = r.yearEnd && r.yearEnd !== r.year ? `${r.year}-${r.yearEnd}` : r.year;
  const d: Record<string, string> = {
    Code: r.varCode,
    Label: r.varLabel,
    Title: r.varTitle,
    Unit: r.unit,
    Type: r.type,
    Decimals: String(r.dec),
    Period: period,
    Category: r.cat1,
    Subcategory: r.cat2,
    Item: r.cat3,
    Sources: r.sources,
    Source: r.sourceMini,
    Contact: r.owner,
    Description: r.varDesc,
    Citation: r.citation,
    License: r.license,
    Version: r.version,
    Published: r.published,
    AggFormula: r.aggFunR,
    AggFormulaText: aggFormulaText(r.aggFunR, r.type),
    ClassBreaks: r.classBreaks,
    ClassLabels: r.classLabels,
    DownloadedOn: today,
  };
  // The original catalog's further fields (ingested bundles), under their own names.
  const known = new Set<string>(VI_FIELDS);
  const out: Record<string, string> = { ...d };
  for (const [k, v] of Object.entries(r)) if (!known.has(k) && !(k in out) && typeof v === 'string') out[k] = v;
  return out;
}
