/**
 * React hook keeping {@link UrlState} in the location hash, through the pure reducer of
 * `url-reducer.ts`. A change of a `HISTORY_KEYS` key (indicator, countries, domains,
 * panel, picked place, a run, entering/leaving or switching a layer comparison) pushes a
 * history entry so Back returns to the previous view; other changes (map view, opacity,
 * typing) replace it. Back/Forward (popstate, hashchange) read the state from the URL again.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { parseHash, type UrlState } from './url-state';
import { historyWrite, urlReducer, type UrlAction } from './url-reducer';

/** Merges a patch into the URL state and the URL (`replace` forces replaceState). */
export type UrlUpdate = (patch: Partial<UrlState>, opts?: { replace?: boolean }) => void;

/** Returns the state and its updater ({@link UrlUpdate}). */
export function useUrlState(): [UrlState, UrlUpdate] {
  const [state, setState] = useState<UrlState>(() => parseHash(location.hash));
  // the latest state, ahead of React's render: two patches in one event build on each other
  const latest = useRef(state);
  const dispatch = useCallback((a: UrlAction) => {
    const w = a.type === 'patch' ? historyWrite(latest.current, a) : null;
    latest.current = urlReducer(latest.current, a);
    if (w) {
      const url = `${location.pathname}${location.search}${w.hash}`;
      if (w.mode === 'push') history.pushState(null, '', url); else history.replaceState(null, '', url);
    }
    setState(latest.current);
  }, []);
  useEffect(() => {
    const on = () => dispatch({ type: 'navigate', hash: location.hash });
    window.addEventListener('hashchange', on);
    window.addEventListener('popstate', on);
    return () => { window.removeEventListener('hashchange', on); window.removeEventListener('popstate', on); };
  }, [dispatch]);
  const update = useCallback<UrlUpdate>((patch, opts = {}) => dispatch({ type: 'patch', patch, hash: location.hash, replace: opts.replace }), [dispatch]);
  return [state, update];
}
