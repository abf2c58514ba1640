/**
 * Series among catalog records: which records are the years of one indicator (the bundle's
 * layout of gridded series: one record and COG per year). Used by the ingest (it writes the `series` column of vi.csv and lists the series in its findings) and by
 * the catalog when it reads a bundle whose vi.csv has no `series` column.
 *
 * Rules, in order (a record takes the first that applies):
 * 1. an explicit `series` column: records with the same non-empty `series` form it, each with its `year`;
 * 2. codes `<STEM>_<YYYY>` (a four-digit year 1900-2099, e.g. rasters `WPOP_2000.tif`,
 *    `WPOP_2005.tif`): two or more records with the same stem form the series `<STEM>`;
 * 3. CELL5M codes that differ only by a two-digit year (two digits before `_` or the end, equal
 *    to the last two of the record's `year` when it has one) within the same item (`cat3`) and
 *    unit (PN00_TOT, PN05_TOT): the series is the code without the digits (`PN_TOT`), each record's
 *    year its `year` field when it has four digits, else 19YY for YY >= 50 and 20YY below.
 * Inferred series (2, 3) need two records with different years; every member's year is unique.
 */

/** A series formed from records. */
export interface FormedSeries {
  /** The series stem (what `var` names with `year`). */
  stem: string;
  /** Its records and their years, by year. */
  members: Array<{ code: string; year: number }>;
  /** Which rule formed it. */
  rule: 'column' | 'year-suffix' | 'two-digit-year';
}

/** The fields of a record these rules read. */
export type SeriesRecordFields = { varCode: string; year?: string; series?: string; cat3?: string; unit?: string };

const YEAR4 = /^(.+)_((?:19|20)\d\d)$/;

/** A record's year from its `year` field when it is four digits. */
const ownYear = (r: SeriesRecordFields): number | null => (/^\d{4}$/.test((r.year ?? '').trim()) ? Number(r.year) : null);

/** Groups `items` into series of at least two distinct years (or any number when `explicit`). */
function groups(items: Array<{ key: string; stem: string; code: string; year: number | null }>, rule: FormedSeries['rule'], explicit: boolean): FormedSeries[] {
  const by = new Map<string, Array<{ stem: string; code: string; year: number | null }>>();
  for (const it of items) by.set(it.key, [...(by.get(it.key) ?? []), it]);
  const out: FormedSeries[] = [];
  for (const list of by.values()) {
    if (list.some((m) => m.year === null)) continue;
    const years = new Set(list.map((m) => m.year));
    if (years.size !== list.length || (!explicit && list.length < 2)) continue;
    out.push({ stem: list[0].stem, rule, members: list.map((m) => ({ code: m.code, year: m.year! })).sort((a, b) => a.year - b.year) });
  }
  return out;
}

/**
 * The series among `records` (see the module comment), in stem order.
 * @param records catalog records (vi.csv fields as text)
 */
export function formSeries(records: readonly SeriesRecordFields[]): FormedSeries[] {
  const explicit = records.filter((r) => (r.series ?? '').trim() !== '' && r.series!.trim() !== r.varCode);
  const out = groups(explicit.map((r) => ({ key: r.series!.trim(), stem: r.series!.trim(), code: r.varCode, year: ownYear(r) })), 'column', true);
  const taken = new Set(explicit.map((r) => r.varCode));
  const codes = new Set(records.map((r) => r.varCode));
  const rest = records.filter((r) => !taken.has(r.varCode) && (r.series ?? '').trim() === '');
  const suffixed = rest.flatMap((r) => {
    const m = YEAR4.exec(r.varCode);
    return m && !codes.has(m[1]) ? [{ key: m[1], stem: m[1], code: r.varCode, year: Number(m[2]) }] : [];
  });
  const bySuffix = groups(suffixed, 'year-suffix', false);
  out.push(...bySuffix);
  for (const s of bySuffix) for (const m of s.members) taken.add(m.code);
  const twoDigit = rest.filter((r) => !taken.has(r.varCode)).flatMap((r) => {
    const hits = [...r.varCode.matchAll(/(?<![0-9])([0-9]{2})(?=_|$)/g)];
    if (hits.length !== 1) return [];
    const h = hits[0];
    const stem = (r.varCode.slice(0, h.index) + r.varCode.slice(h.index! + 2)).replace(/__/g, '_').replace(/^_|_$/g, '');
    if (!stem || codes.has(stem)) return [];
    const yy = Number(h[1]);
    const own = ownYear(r);
    if (own !== null && own % 100 !== yy) return []; // the digits are not the record's year
    const year = own ?? (yy >= 50 ? 1900 + yy : 2000 + yy);
    return [{ key: `${stem}\u0000${r.cat3 ?? ''}\u0000${r.unit ?? ''}`, stem, code: r.varCode, year }];
  });
  out.push(...groups(twoDigit, 'two-digit-year', false));
  return out.sort((a, b) => (a.stem < b.stem ? -1 : a.stem > b.stem ? 1 : 0));
}

/** A series as a findings line: `PN_TOT (two-digit-year): PN00_TOT 2000, PN05_TOT 2005`. */
export function seriesText(s: FormedSeries): string {
  return `${s.stem} (${s.rule}): ${s.members.map((m) => `${m.code} ${m.year}`).join(', ')}`;
}

/**
 * Marks the series among vi.csv records in place ({@link formSeries}): each member's `series`
 * and `year` set, `series` added to `fields` when any series is formed.
 * @param recs vi.csv records as text (changed in place)
 * @param fields vi.csv's columns in order (changed in place)
 * @returns the series formed
 */
export function markSeries(recs: Array<Record<string, string>>, fields: string[]): FormedSeries[] {
  const formed = formSeries(recs.map((r) => ({ varCode: r.varCode, year: r.year, series: r.series, cat3: r.cat3, unit: r.unit })));
  const byCode = new Map(recs.map((r) => [r.varCode, r]));
  for (const s of formed) for (const m of s.members) Object.assign(byCode.get(m.code)!, { series: s.stem, year: String(m.year) });
  if (formed.length && !fields.includes('series')) fields.push('series');
  return formed;
}
