/** Area summaries with a total row per shape that crosses borders (pure over the engine). */
import type { Row } from '../../core/types';
import type { Engine, GetLayerWktArgs, TableResult } from '../../core/api';
import { wktToFeatures } from '../../ui/wkt';

/** Marks a shape's total row (all countries) among its per-country rows; never a result column. */
export const SHAPE_TOTAL = '__shapeTotal';

/**
 * Areas with a total row per shape that crosses borders: the per-country rows of
 * getLayerWKT, and for each shape with several countries the engine's summary of the whole
 * shape (classify over the same shapes, no per-country split: sums and weighted means
 * computed from the cells, never averages of country averages), first, marked {@link SHAPE_TOTAL}.
 */
export async function areasWithTotals(engine: Pick<Engine, 'getLayerWKT' | 'classify'>, a: GetLayerWktArgs, o: { signal?: AbortSignal; onProgress?: (d: number, t: number) => void }): Promise<TableResult> {
  const per = await engine.getLayerWKT(a, o);
  const n = new Map<number, number>();
  for (const row of per.rows) n.set(Number(row.feature), (n.get(Number(row.feature)) ?? 0) + 1);
  if (![...n.values()].some((k) => k > 1)) return per;
  const tot = await engine.classify({ var: a.var, domains: wktToFeatures(a.wkt), key: 'feature', exact: a.exact }, o);
  const rows: Row[] = [];
  for (const f of [...n.keys()]) {
    const pr = per.rows.filter((row) => Number(row.feature) === f);
    const t = pr.length > 1 ? tot.rows.find((row) => Number(row.feature) === f) : undefined;
    if (t) rows.push({ ...t, feature: f, [SHAPE_TOTAL]: 1 });
    rows.push(...pr);
  }
  return { ...per, rows };
}

