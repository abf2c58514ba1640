/**
 * The catalog: `vi.csv` (variable inventory), class tables `classes/<code>.csv` and the
 * country/region list `iso.csv` of the bundle, parsed with papaparse (RFC 4180), plus the
 * `category` listing and `describe` records of the service (spec E4, E5, part 2.1/2.2).
 */
import Papa from 'papaparse';
import { RE2JS } from 're2js';
import { aggFormulaText } from '../engine/expr';
import { IndapiError, throwIfAborted } from '../errors';
import { restoreFormulaText } from '../formats/csv';
import type { TextLoader } from '../io/source';
import type { CategoryRow } from '../api';
import type { ClassEntry, IsoEntry, VarRecord } from '../types';

/** Field names of vi.csv, in order (the {@link VarRecord} fields). */
export const VI_FIELDS: Array<keyof VarRecord> = [
  'varCode', 'varLabel', 'varTitle', 'varDesc', 'unit', 'type', 'dec', 'aggFunR', 'classBreaks', 'classLabels',
  'classColors', 'cat1', 'cat2', 'cat3', 'year', 'yearEnd', 'sources', 'sourceMini', 'owner', 'citation', 'license',
  'version', 'published', 'dataType', 'noData', 'classTable',
];

/** RFC 4180 records; a field neutralised against formula injection by the bundle's writers (`'=...`) comes back as written before. */
function parseCsv(text: string, what: string): Record<string, string>[] {
  const res = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true, transform: restoreFormulaText });
  const bad = res.errors.find((e) => e.type !== 'Delimiter');
  if (bad) throw new IndapiError('IO', `Cannot parse ${what}: ${bad.message} (row ${bad.row}).`);
  return res.data;
}

/**
 * True when a record's `published` field hides it from `category` (false, FALSE, F, 0, no):
 * helper layers of an ingested bundle. Anything else (TRUE, a date, empty) is listed.
 */
export function isUnpublished(published: string | undefined): boolean {
  return /^\s*(false|f|0|no)\s*$/i.test(published ?? '');
}

/**
 * Parses vi.csv text into records (dec as a number). Fields that are not {@link VI_FIELDS}
 * (an ingested catalog keeps all the original's fields) are kept on the record as text.
 * @throws IndapiError IO when the CSV is malformed or lacks fields
 */
export function parseVi(text: string): VarRecord[] {
  const rows = parseCsv(text, 'vi.csv');
  if (rows.length && !('varCode' in rows[0] && 'aggFunR' in rows[0] && 'type' in rows[0])) {
    throw new IndapiError('IO', 'vi.csv lacks the varCode, type or aggFunR column.');
  }
  const known = new Set<string>(VI_FIELDS);
  return rows.map((r) => {
    const rec: Record<string, unknown> = {};
    for (const f of VI_FIELDS) rec[f] = (r[f] ?? '').trim();
    // Fields beyond VarRecord (the original catalog's isDomain, tbName, dKeywords, ...) stay on the record.
    for (const [k, v] of Object.entries(r)) if (!known.has(k) && k !== '__parsed_extra') rec[k] = (v ?? '').trim();
    rec.dec = Number(r.dec) || 0;
    rec.type = r.type === 'class' ? 'class' : 'continuous';
    return rec as unknown as VarRecord;
  });
}

/**
 * Parses a class table (`value,label,color,...extras`).
 * @throws IndapiError IO when values are not integers
 */
export function parseClassTable(text: string, what = 'class table'): ClassEntry[] {
  return parseCsv(text, what).map((r) => {
    const value = Number(r.value);
    if (!Number.isInteger(value)) throw new IndapiError('IO', `${what}: class value '${r.value}' is not an integer.`);
    const e: ClassEntry = { value, label: r.label ?? String(value) };
    if (r.color) e.color = r.color;
    for (const [k, v] of Object.entries(r)) if (k !== 'value' && k !== 'label' && k !== 'color') e[k] = v;
    return e;
  });
}

/** A row of iso.csv with its cell count. */
export interface IsoRow extends IsoEntry {
  /** Number of grid cells of the code. */
  cells: number;
}

/** Parses iso.csv. @throws IndapiError IO */
export function parseIso(text: string): IsoRow[] {
  return parseCsv(text, 'iso.csv').map((r) => ({
    code: r.code,
    name: r.name,
    type: r.type === 'region' ? 'region' : 'country',
    members: (r.members ?? '').split('|').filter(Boolean),
    bboxDeg: [Number(r.xmin), Number(r.ymin), Number(r.xmax), Number(r.ymax)],
    cells: Number(r.cells) || 0,
  }));
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
 * lookaround; such patterns are invalid.
 * @throws IndapiError BAD_ARGUMENT for a pattern that is not text of at most 200 characters
 *   or not a valid regular expression
 */
export function compilePatterns(q: string[]): Pattern[] {
  return q.map((p) => {
    if (typeof p !== 'string' || p.length > 200) throw new IndapiError('BAD_ARGUMENT', 'A pattern must be text of at most 200 characters.');
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
  private readonly byCode = new Map<string, VarRecord>();
  private readonly isoByCode = new Map<string, IsoRow>();
  private readonly tables = new Map<string, Promise<ClassEntry[]>>();

  constructor(records: VarRecord[], iso: IsoRow[], private readonly text: TextLoader) {
    this.records = records;
    this.iso = iso;
    for (const r of records) this.byCode.set(r.varCode, r);
    for (const i of iso) this.isoByCode.set(i.code.toUpperCase(), i);
  }

  /**
   * Loads `vi.csv` and `iso.csv` through a text loader.
   * @throws IndapiError IO when they cannot be read or parsed
   */
  static async load(text: TextLoader, signal?: AbortSignal): Promise<Catalog> {
    const [vi, iso] = await Promise.all([text('vi.csv', signal), text('iso.csv', signal)]);
    return new Catalog(parseVi(vi), parseIso(iso), text);
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
        p = this.text(rec.classTable, signal).then((t) => parseClassTable(t, rec.classTable));
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
   * Category listing (spec E4), leaving out records whose `published` is false/FALSE/F/0/no
   * (helper layers; see {@link isUnpublished}): rows of category, subcategory, item, code, label, sorted by
   * those columns; patterns are case-insensitive regular expressions matched against code,
   * label, category, subcategory and item (any pattern may match).
   * @throws IndapiError NO_MATCH when patterns match nothing, BAD_ARGUMENT for an invalid pattern
   */
  category(q?: string[], asList = false): CategoryRow[] | Record<string, Record<string, CategoryRow[]>> {
    const pats = q && q.length ? compilePatterns(q) : null;
    const rows: CategoryRow[] = [];
    for (const r of this.records) {
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
   * patterns in `q` (as {@link category}); all records when both are empty. The identifier
   * element is `Code`.
   * @param today date written as DownloadedOn (ISO 8601 date)
   * @throws IndapiError UNKNOWN_CODE for unknown codes, NO_MATCH when patterns match nothing
   */
  describe(vars: string[] = [], q: string[] = [], today = new Date().toISOString().slice(0, 10)): Record<string, string>[] {
    this.validate(vars);
    const codes = new Set(vars);
    if (q.length) for (const r of this.category(q) as CategoryRow[]) codes.add(r.code);
    const recs = vars.length || q.length ? this.records.filter((r) => codes.has(r.varCode)) : this.records;
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
