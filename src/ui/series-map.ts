/**
 * Maps of a national series (values per country and year, src/core/bundle/series.ts): one
 * year's values, or the change between two years, as a choropleth on the country outlines
 * (admin-0, basemap/countries.geojson joined on ISO3). A country without a value in a year has
 * no fill (the basemap shows through), never an interpolated one. Pure: no DOM.
 *
 * - A year: the record's own classes (`classBreaks`, `classColors`, `classLabels`, right-closed
 *   intervals as R `cut()`), the same for every year so that playing the years compares them.
 * - A change: `diff` = to - from (the record's unit) or `pct` = 100 * (to - from) / from (%; NA
 *   where `from` is 0), the change formulas and diverging classes of src/core/map/change.ts
 *   (the gridded series' change map uses the same).
 */
import { intervalIndex, paletteFor, type LegendEntry } from '../core/map/palette';
import { changeDec, changeOf, changeRecord, changeTitle, type ChangeMode } from '../core/map/change';
import { changePalette } from '../core/map/diverging';
import type { NationalSeries } from '../core/bundle';
import type { VarRecord } from '../core/types';

/** Change modes: the API's `change` (src/core/map/change.ts). */
export type SeriesChange = ChangeMode;

/** A choropleth on the country outlines (the shape of the app's `Choro`, level 0). */
export interface SeriesChoro {
  /** ISO3 and colour of each country with a value. */
  pairs: Array<[string, string]>;
  /** Legend entries, low to high. */
  legend: LegendEntry[];
  /** Legend title. */
  title: string;
  /** What is drawn, as the API asks it (e.g. "PWT_POP year 2017", "PWT_POP change pct 2000-2017"). */
  code: string;
  /** Value per ISO3 (the read-out). */
  values: Map<string, number>;
  /** Decimals of the values. */
  dec: number;
  /** Unit of the values ("%" for a pct change). */
  unit: string;
  /** Outlines: 0, the countries. */
  level: 0;
  /**
   * The record as drawn, for the map export's title lines: the series' record with the title as
   * `varLabel` and the drawn year (or the change's two years) as `year`–`yearEnd`.
   */
  rec: VarRecord;
}

/** A country's values in `year` of series `code` (ISO3 -> value); empty when the series does not hold the year. */
export function yearValues(table: NationalSeries, code: string, year: number): Map<string, number> {
  return table.values.get(code)?.get(year) ?? new Map();
}

/**
 * The change per country between two years: countries with a value in both years (and, for
 * `pct`, a non-zero first value) only.
 * @param from values of the first year by ISO3
 * @param to values of the second year by ISO3
 * @param mode `diff` (to - from) or `pct` (100 * (to - from) / from)
 */
export function changeValues(from: Map<string, number>, to: Map<string, number>, mode: SeriesChange): Map<string, number> {
  const out = new Map<string, number>();
  for (const [iso, b] of to) {
    const d = changeOf(from.get(iso) ?? NaN, b, mode);
    if (!Number.isNaN(d)) out.set(iso, d);
  }
  return out;
}

/** Choropleth pairs and legend of values on intervals. */
function colour(values: Map<string, number>, breaks: number[], colors: string[]): Array<[string, string]> {
  return [...values].map(([iso, v]): [string, string] => [iso, colors[intervalIndex(breaks, v)]]);
}

/**
 * One year of a national series on the countries, in the record's classes.
 * @param rec the series' catalog record (its classes, label, unit, decimals)
 * @param values the year's values by ISO3 ({@link yearValues})
 * @param year the year drawn
 */
export function seriesYearChoro(rec: VarRecord, values: Map<string, number>, year: number): SeriesChoro {
  const pal = paletteFor(rec);
  const breaks = pal.kind === 'intervals' ? pal.breaks : [];
  const legend = pal.colors.map((color, i) => ({ color, label: pal.labels[i] ?? '' }));
  const title = `${rec.varLabel}, ${year}`;
  const drawn = { ...rec, varLabel: title, year: String(year), yearEnd: String(year) };
  return { pairs: breaks.length > 1 ? colour(values, breaks, pal.colors) : [], legend, title, code: `${rec.varCode} year ${year}`, values, dec: Number(rec.dec) || 0, unit: rec.unit, level: 0, rec: drawn };
}

/**
 * The change between two years of a national series on the countries, diverging classes centred on 0.
 * @param rec the series' catalog record
 * @param change values by ISO3 ({@link changeValues})
 * @param from first year
 * @param to second year
 * @param mode `diff` or `pct`
 */
export function seriesChangeChoro(rec: VarRecord, change: Map<string, number>, from: number, to: number, mode: SeriesChange): SeriesChoro {
  const dec = changeDec(mode, rec.dec);
  const { breaks, colors, labels } = changePalette(change.values(), dec);
  const unit = mode === 'pct' ? '%' : rec.unit;
  const legend = colors.map((color, i) => ({ color, label: labels[i] }));
  return { pairs: colour(change, breaks, colors), legend, title: changeTitle(rec.varLabel, mode, from, to), code: `${rec.varCode} change ${mode} ${from}-${to}`, values: change, dec, unit, level: 0, rec: changeRecord(rec, mode, from, to) };
}

/** One country's line of a national series: runs of consecutive years held (a gap breaks the line; nothing is interpolated). */
export interface SeriesLine {
  /** ISO 3166-1 alpha-3 code. */
  iso3: string;
  /** [year, value] points, increasing years, split where a year the series holds has no value for the country. */
  runs: Array<Array<[number, number]>>;
}

/**
 * The lines of a national series for countries (the series chart per unit).
 * @param table the bundle's national series
 * @param code series code
 * @param iso3s countries, in the chart's order (codes without any value give an empty line)
 */
export function seriesLines(table: NationalSeries, code: string, iso3s: readonly string[]): SeriesLine[] {
  const years = table.years.get(code) ?? [];
  const byYear = table.values.get(code);
  return iso3s.map((iso3) => {
    const runs: Array<Array<[number, number]>> = [];
    let cur: Array<[number, number]> = [];
    for (const y of years) {
      const v = byYear?.get(y)?.get(iso3);
      if (v === undefined) { if (cur.length) runs.push(cur); cur = []; continue; }
      cur.push([y, v]);
    }
    if (cur.length) runs.push(cur);
    return { iso3, runs };
  });
}
