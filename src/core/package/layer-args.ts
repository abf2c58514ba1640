/**
 * The main query's arguments from a request's R names: the one mapping of the contract's names
 * (`as.list`, `dig.lab`, `quantile_type`...) to the engine's, used by the contract's methods
 * (src/contract/methods/common.ts) and by the package builder, so a download runs the query the
 * call ran (light: the contract's methods use it without the writers).
 */
import type { GetLayerWktArgs } from '../api';
import type { GetLayerArgs } from '../types';

/**
 * The main query's arguments (`GetLayerArgs`) from the contract's names: var, iso3, by, ids,
 * collapse, `as.list` (asList), stats, `dig.lab` (digLab), year, change, the zonal operations' weights, q,
 * `quantile_type` (quantileType), bins and range; with `shapes` also wkt, exact and totals.
 * Arguments not sent are left out.
 * @param a the request's arguments as bound by the contract (or as a panel sends them)
 * @param shapes keep the shapes' arguments (a query over `wkt`)
 */
export function layerArgs(a: Record<string, unknown>, shapes = false): GetLayerArgs & Pick<GetLayerWktArgs, 'totals'> {
  const g: GetLayerArgs & Pick<GetLayerWktArgs, 'totals'> = { var: a.var as string[] };
  const set = (k: string, v: unknown) => { if (v !== undefined && v !== null) (g as unknown as Record<string, unknown>)[k] = v; };
  set('iso3', a.iso3);
  set('by', a.by);
  set('ids', a.ids);
  set('collapse', a.collapse);
  set('asList', a['as.list']);
  set('stats', a.stats);
  set('digLab', a['dig.lab']);
  set('year', a.year);
  set('change', a.change);
  set('weights', a.weights);
  set('q', a.q);
  set('quantileType', a.quantile_type === undefined ? undefined : String(a.quantile_type));
  set('bins', a.bins);
  set('range', a.range);
  if (shapes) {
    set('wkt', a.wkt);
    set('exact', a.exact);
    set('totals', a.totals);
  }
  return g;
}
