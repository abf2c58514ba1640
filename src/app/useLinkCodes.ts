/**
 * Unknown indicator or country codes in a pasted link: they are dropped from the view (the
 * mapped layer falls back to ELEVATION, or the catalog's first record) and a message names
 * them until the user changes the inputs.
 */
import { useEffect, useMemo, useState } from 'react';
import type { IsoEntry, VarRecord } from '../core/types';
import type { UrlState } from './url-state';
import { YEAR_DOMAIN } from '../ui/year-domain';

/** The message about a link's unknown codes, and its dismissal. */
export interface LinkCodesMessage {
  /** The message, or null when the link's codes are all known (or it was dismissed). */
  text: string | null;
  /** Hides the message. */
  dismiss: () => void;
}

/**
 * The link's codes that are not in the catalog (`v`, `v2`, `tv`, `tr`, `tc`, `vars`, `by`) or, when
 * the list is known (non-empty `iso`), not a country or region (`iso`); each once. The Table
 * builder's rows and columns may also be its year domain ({@link YEAR_DOMAIN}), no catalog code.
 */
export function unknownLinkCodes(state: Pick<UrlState, 'v' | 'v2' | 'tv' | 'tr' | 'tc' | 'vars' | 'by' | 'iso'>, byCode: ReadonlyMap<string, unknown>, iso: readonly IsoEntry[]): string[] {
  const codes = [...[state.v, state.v2, state.tv, ...[state.tr, state.tc].filter((c) => c !== YEAR_DOMAIN)].filter((c): c is string => !!c), ...state.vars, ...state.by];
  const bad = codes.filter((c) => !byCode.has(c));
  if (iso.length) bad.push(...state.iso.filter((c) => !iso.some((e) => e.code === c)));
  return [...new Set(bad)];
}

/**
 * Checks the link's codes (`v`, `v2`, `tv`, `tr`, `tc`, `vars`, `by` against the catalog;
 * `iso` against the country and region list), replaces the history entry with the link
 * cleaned of unknown codes, and keeps a message naming them.
 * @param update the URL state's updater (called with `replace: true`)
 */
export function useLinkCodes(state: UrlState, update: (p: Partial<UrlState>, o?: { replace?: boolean }) => void, catalog: VarRecord[], iso: IsoEntry[], byCode: Map<string, VarRecord>): LinkCodesMessage {
  const badCodes = useMemo(() => (catalog.length ? unknownLinkCodes(state, byCode, iso) : []),
    [catalog, iso, state.v, state.v2, state.tv, state.tr, state.tc, state.vars, state.by, state.iso, byCode]);
  // The message stays until the user changes the inputs (the clean-up below is not a change).
  const [msg, setMsg] = useState<{ text: string; key: string } | null>(null);
  const inputsKey = JSON.stringify([state.v, state.vars, state.noVars, state.iso, state.by]);
  useEffect(() => {
    if (!badCodes.length) return;
    const ok = (c: string) => byCode.has(c);
    const fallback = byCode.has('ELEVATION') ? 'ELEVATION' : catalog[0]?.varCode ?? null;
    const isoOk = iso.length ? state.iso.filter((c) => iso.some((e) => e.code === c)) : state.iso;
    const v = state.v && ok(state.v) ? state.v : fallback;
    const okIn = (k: 'tv' | 'tr' | 'tc', c: string) => ok(c) || (k !== 'tv' && c === YEAR_DOMAIN);
    const clean = { v, v2: state.v2 && ok(state.v2) ? state.v2 : null, ...Object.fromEntries((['tv', 'tr', 'tc'] as const).map((k) => [k, state[k] && okIn(k, state[k]!) ? state[k] : null])), vars: state.vars.filter(ok), by: state.by.filter(ok), iso: isoOk };
    update(clean, { replace: true });
    setMsg({ text: `Unknown code${badCodes.length > 1 ? 's' : ''} in the link, ignored: ${badCodes.join(', ')}. See the catalog for valid codes.`, key: JSON.stringify([v, clean.vars, state.noVars, isoOk, clean.by]) });
  }, [badCodes]);
  useEffect(() => { setMsg((m) => (m && m.key !== inputsKey ? null : m)); }, [inputsKey]);
  return { text: msg?.text ?? null, dismiss: () => setMsg(null) };
}
