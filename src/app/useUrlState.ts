/**
 * React hook keeping {@link UrlState} in the location hash. A change of a {@link HISTORY_KEYS}
 * key (indicator, countries, domains, panel, picked place, a run, entering/leaving or switching a
 * layer comparison) pushes a history entry so
 * Back returns to the previous view; other changes (map view, opacity, typing) replace it.
 * Back/Forward (popstate, hashchange) read the state from the URL again.
 */
import { useCallback, useEffect, useState } from 'react';
import { HISTORY_KEYS, parseHash, toHash, type UrlState } from './url-state';

/** Returns the state and an updater merging a patch into it and the URL (`replace` forces replaceState). */
export function useUrlState(): [UrlState, (patch: Partial<UrlState>, opts?: { replace?: boolean }) => void] {
  const [state, setState] = useState<UrlState>(() => parseHash(location.hash));
  useEffect(() => {
    const on = () => setState((s) => { const n = parseHash(location.hash); return toHash(n) === toHash(s) ? s : n; });
    window.addEventListener('hashchange', on);
    window.addEventListener('popstate', on);
    return () => { window.removeEventListener('hashchange', on); window.removeEventListener('popstate', on); };
  }, []);
  const update = useCallback((patch: Partial<UrlState>, opts: { replace?: boolean } = {}) => {
    setState((prev) => {
      // The URL is the source of truth: after Back/Forward whose popstate has not been applied yet,
      // `prev` is stale, and merging into it would write the state left behind over the entry
      // navigated to (a map resize's view update after Back used to restore the previous step).
      const s = toHash(prev) === location.hash ? prev : parseHash(location.hash);
      const n = { ...s, ...patch };
      const h = toHash(n);
      if (h !== location.hash && !(h === '' && location.hash === '')) {
        const step = !opts.replace && HISTORY_KEYS.some((k) => k in patch && JSON.stringify(patch[k]) !== JSON.stringify(s[k]));
        const url = `${location.pathname}${location.search}${h}`;
        if (step) history.pushState(null, '', url); else history.replaceState(null, '', url);
      }
      return n;
    });
  }, []);
  return [state, update];
}
