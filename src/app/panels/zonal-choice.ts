/**
 * The statistics chosen in Summaries, Areas and "Many polygons" (the link's `st`, `q`, `bins`,
 * `wt`) as the API's arguments (`stats`, `q`, `bins`, `weights`: the same names in R and in
 * the engine, so the API panel's snippets and the downloads carry them as sent), the picker's
 * options from the zonal registry (`src/core/engine/zonal-ops.ts`) and the weight layers from
 * the catalog. Light: no engine code.
 */
import type { GetLayerArgs, Row, VarRecord } from '../../core/types';
import type { ColumnInfo } from '../../core/api';
import { ZONAL_OPS } from '../../core/engine/zonal-ops';
import type { UrlState } from '../url-state';
import { prettyUnit } from './common';

/** The statistics' arguments of a request. */
export type ZonalRequest = Pick<GetLayerArgs, 'stats' | 'q' | 'bins' | 'weights'>;

/** Whether a statistic needs `weights` (the registry's `weighted`). */
export function needsWeights(stat: string): boolean {
  return !!ZONAL_OPS.find((o) => o.name === stat)?.weighted;
}

/**
 * The API arguments of the chosen statistics: `stats` when any is chosen, `q` with `quantile`,
 * `bins` (one count) with `histogram`, `weights` with a weighted statistic; {} when none.
 */
export function zonalRequest(s: Pick<UrlState, 'st' | 'q' | 'bins' | 'wt'>): ZonalRequest {
  if (!s.st.length) return {};
  return {
    stats: [...s.st],
    ...(s.q && s.st.includes('quantile') ? { q: [...s.q] } : {}),
    ...(s.bins !== null && s.st.includes('histogram') ? { bins: [s.bins] } : {}),
    ...(s.wt && s.st.some(needsWeights) ? { weights: s.wt } : {}),
  };
}

/** A short text of the chosen statistics for a result's label ("; stats stdev, quantile (q 0.1, 0.9)"); '' when none. */
export function zonalText(a: ZonalRequest): string {
  if (!a.stats?.length) return '';
  return `; stats ${a.stats.join(', ')}${a.q ? ` (q ${a.q.join(', ')})` : ''}${a.bins ? ` (${a.bins[0]} bins)` : ''}${a.weights ? ` weighted by ${a.weights}` : ''}`;
}

/** One option of the Statistics picker. */
export interface StatOption { value: string; label: string; group: string }

/**
 * The picker's options: `mean` (the coverage-weighted mean, column `<VAR>_mean`, whatever the
 * indicator's own formula) then the zonal registry's operations, with their labels.
 */
export function statOptions(): StatOption[] {
  return [
    { value: 'mean', label: 'Mean of the cells\' values', group: 'any layer' },
    ...ZONAL_OPS.map((o) => ({ value: o.name, label: o.label, group: o.of === 'class' ? 'class layers' : o.of === 'numeric' ? 'continuous layers' : 'any layer' })),
  ];
}

/**
 * The Table builder's statistics (one value per zone: the registry's operations that are not
 * `multi`, plus `mean`) that apply to a layer of `type` ("class" or "continuous").
 */
export function tableStatOptions(type: string | undefined): StatOption[] {
  const of = type === 'class' ? 'class' : 'numeric';
  return statOptions().filter((o) => {
    const op = ZONAL_OPS.find((z) => z.name === o.value);
    return op ? !op.multi && (op.of === 'any' || op.of === of) : of === 'numeric';
  });
}

/**
 * The layers a weighted statistic can be weighted by: continuous catalog records counted in
 * people or km2 and summed (their catalog unit and formula; e.g. POP_MODEL, CENSUS_POP, AREA_TOTAL),
 * people first, in catalog order.
 */
export function weightLayers(byCode: Map<string, VarRecord>): VarRecord[] {
  const ok = [...byCode.values()].filter((r) => r.type !== 'class' && ['people', 'km2'].includes(r.unit.trim()) && r.aggFunR.startsWith('sum('));
  return [...ok.filter((r) => r.unit.trim() === 'people'), ...ok.filter((r) => r.unit.trim() !== 'people')];
}

/**
 * A statistic column's header from the result's own column record: "Elevation (stdev) (m)";
 * undefined when `name` is not a statistic column of `columns` (an indicator or key column).
 */
export function statLabel(columns: ColumnInfo[] | undefined, name: string): string | undefined {
  const c = columns?.find((x) => x.name === name);
  if (!c || c.role !== 'value' || !c.code || c.code === name) return undefined;
  return c.unit ? `${c.label} (${prettyUnit(c.unit)})` : c.label;
}

/** The statistic columns of a result (value columns that are not an indicator itself), in order. */
export function statColumns(columns: ColumnInfo[] | undefined): string[] {
  return (columns ?? []).filter((c) => c.role === 'value' && !!c.code && c.code !== c.name).map((c) => c.name);
}

/** Decimals of a result's statistic columns (their `dec`), by column name. */
export function statDecimals(columns: ColumnInfo[] | undefined): Record<string, number> {
  return Object.fromEntries((columns ?? []).filter((c) => c.role === 'value' && c.code && c.code !== c.name && c.dec !== undefined).map((c) => [c.name, c.dec!]));
}

/** Rows of a result carry a histogram (one row per bin, a `bin` column). */
export function hasBins(rows: Row[]): boolean {
  return rows.some((r) => r.bin !== undefined);
}
