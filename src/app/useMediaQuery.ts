/** Media-query hooks of the app shell. */
import { useEffect, useState } from 'react';
import { afterFirstMap } from '../ui/first-map';

/** The phone-sized viewport (the one-column layout of styles.css, up to 900 px). */
export const PHONE_QUERY = '(max-width: 900px)';
/** Touch-first devices: the read-out says "Tap", not "Hover". */
export const COARSE_QUERY = '(pointer: coarse)';

/** True while the CSS media query `q` matches (follows its changes). */
export function useMediaQuery(q: string): boolean {
  const [on, setOn] = useState(() => window.matchMedia(q).matches);
  useEffect(() => {
    const m = window.matchMedia(q);
    const change = () => setOn(m.matches);
    change();
    m.addEventListener('change', change);
    return () => m.removeEventListener('change', change);
  }, [q]);
  return on;
}

/**
 * True once the first map has drawn (src/ui/first-map.ts): the lazy panels other than the open
 * one, and the place search, load after it; their code is not what a first visit on a slow
 * network waits for (issue 17).
 */
export function useAfterFirstMap(): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => {
    const ac = new AbortController();
    afterFirstMap(ac.signal).then(() => setAfter(true), () => undefined);
    return () => ac.abort();
  }, []);
  return after;
}
