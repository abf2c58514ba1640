/** React hook keeping {@link UrlState} in the location hash (replaceState, hashchange). */
import { useCallback, useEffect, useState } from 'react';
import { parseHash, toHash, type UrlState } from './url-state';

/** Returns the state and an updater merging a patch into it and the URL. */
export function useUrlState(): [UrlState, (patch: Partial<UrlState>) => void] {
  const [state, setState] = useState<UrlState>(() => parseHash(location.hash));
  useEffect(() => {
    const on = () => setState(parseHash(location.hash));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  const update = useCallback((patch: Partial<UrlState>) => {
    setState((s) => {
      const n = { ...s, ...patch };
      const h = toHash(n);
      if (h !== location.hash && !(h === '' && location.hash === '')) history.replaceState(null, '', `${location.pathname}${location.search}${h}`);
      return n;
    });
  }, []);
  return [state, update];
}
