/**
 * Which records of the app's catalog are series (src/ui/series-info.ts `SeriesInfo`), loaded
 * after the catalog (src/app/useBundleData.ts) so the series rules of
 * src/core/bundle/series-form.ts stay out of the first load.
 */
import { formSeries } from '../core/bundle';
import type { VarRecord } from '../core/types';
import { isNationalRecord, type SeriesInfo } from './series-info';

/**
 * Series of a catalog, by every code that belongs to one (a national series' code; each member
 * code and the stem of a gridded series).
 * @param records catalog records (vi.csv's, then series/vi.csv's)
 */
export function catalogSeries(records: readonly VarRecord[]): Map<string, SeriesInfo> {
  const out = new Map<string, SeriesInfo>();
  for (const r of records) {
    if (!isNationalRecord(r)) continue;
    const from = Number(r.year), to = Number(r.yearEnd || r.year);
    if (!Number.isInteger(from) || !Number.isInteger(to) || to < from) continue;
    out.set(r.varCode, { stem: r.varCode, kind: 'national', years: Array.from({ length: to - from + 1 }, (_, i) => from + i), members: new Map() });
  }
  const grid = records.filter((r) => !isNationalRecord(r));
  for (const f of formSeries(grid.map((r) => ({ varCode: r.varCode, year: r.year, series: r.series, cat3: r.cat3, unit: r.unit })))) {
    const info: SeriesInfo = { stem: f.stem, kind: 'gridded', years: f.members.map((m) => m.year), members: new Map(f.members.map((m) => [m.year, m.code])) };
    for (const m of f.members) out.set(m.code, info);
    if (!out.has(f.stem)) out.set(f.stem, info);
  }
  return out;
}

