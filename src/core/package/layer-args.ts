/** The main query's arguments from a request's (light: the contract's methods use it without the writers). */
import type { GetLayerArgs } from '../types';

/**
 * The main query's arguments (`GetLayerArgs`) from the contract's names: var, iso3, by, ids,
 * collapse, `as.list` (asList), stats, `dig.lab` (digLab), year, change; arguments not sent are left out.
 * @param a the request's arguments as bound by the contract (or as a panel sends them)
 */
export function layerArgs(a: Record<string, unknown>): GetLayerArgs {
  const g: GetLayerArgs = { var: a.var as string[] };
  if (a.iso3 !== undefined) g.iso3 = a.iso3 as string[];
  if (a.by !== undefined) g.by = a.by as GetLayerArgs['by'];
  if (a.ids !== undefined) g.ids = a.ids as number[];
  if (a.collapse !== undefined) g.collapse = a.collapse as boolean;
  if (a['as.list'] !== undefined) g.asList = a['as.list'] as boolean;
  if (a.stats !== undefined) g.stats = a.stats as string[];
  if (a['dig.lab'] !== undefined) g.digLab = a['dig.lab'] as number;
  if (a.year !== undefined && a.year !== null) g.year = a.year as number[];
  if (a.change !== undefined && a.change !== null) g.change = a.change as GetLayerArgs['change'];
  return g;
}

