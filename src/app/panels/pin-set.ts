/**
 * What "Keep offline" must store so that kept indicators can be summarised offline: the
 * indicators' COGs plus the layers every summary reads beside them: the columns their
 * catalog formulas name (weights such as AREA_TOTAL, denominators) and the key layers of
 * the country mask and admin domains (ISO3, ADM0_NAME, ADM1_*, ADM2_* when present).
 */
import { parseAggFun } from '../../core/r/expr';
import type { VarRecord } from '../../core/types';

/** Key layers read by selections by country and by admin units (kept when in the bundle). */
export const KEY_LAYERS = ['ISO3', 'ADM0_NAME', 'ADM1_NAME_ALT', 'ADM1_CODE_ALT', 'ADM2_NAME_ALT', 'ADM2_CODE_ALT'] as const;

/** Result of {@link pinSet}: codes asked for, and codes added because summaries need them. */
export interface PinSet {
  /** The requested codes that have a COG in the bundle, in request order. */
  codes: string[];
  /** Codes added (formula columns, key layers), in the bundle and not among `codes`. */
  needed: string[];
}

/**
 * Expands codes to keep offline with what their summaries read.
 * @param codes indicator codes chosen by the user
 * @param records catalog records (for `aggFunR`; a record absent or whose formula does not
 *   parse adds nothing beyond its own code)
 * @param inBundle whether the bundle has a COG for a code (e.g. manifest lookup)
 */
export function pinSet(codes: readonly string[], records: readonly Pick<VarRecord, 'varCode' | 'aggFunR' | 'type'>[], inBundle: (code: string) => boolean): PinSet {
  const byCode = new Map(records.map((r) => [r.varCode, r]));
  const chosen = [...new Set(codes)].filter(inBundle);
  const have = new Set(chosen);
  const needed: string[] = [];
  const add = (c: string) => { if (!have.has(c) && inBundle(c)) { have.add(c); needed.push(c); } };
  for (const c of chosen) {
    const r = byCode.get(c);
    if (!r?.aggFunR || r.type === 'class') continue;
    try { for (const col of parseAggFun(r.aggFunR).columns) add(col); } catch { /* the engine reports bad formulas */ }
  }
  if (chosen.length) for (const k of KEY_LAYERS) add(k);
  return { codes: chosen, needed };
}
