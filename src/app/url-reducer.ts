/**
 * The URL state's transitions as a pure reducer (issue 27 item 5): the app's changes
 * (`patch`) and the browser's (`navigate`: Back/Forward, an edited address) both go through
 * {@link urlReducer}; {@link historyWrite} says how a change is written to the browser's
 * history. The location's hash is part of each action (the URL is the source of truth), so
 * both stay pure and `useUrlState.ts` only applies their answers.
 */
import { HISTORY_KEYS, parseHash, toHash, type UrlState } from './url-state';

/** A change of the app's state by the app: keys to merge into it. */
export interface UrlPatch {
  type: 'patch';
  /** Keys to set. */
  patch: Partial<UrlState>;
  /** The location's hash when the change is made (`location.hash`, "" or "#..."). */
  hash: string;
  /** Replace the history entry even when a {@link HISTORY_KEYS} key changes (a step that is not one, e.g. a clean-up). */
  replace?: boolean;
}

/** The browser moved to another URL (Back/Forward, an edited address): its hash. */
export interface UrlNavigate {
  type: 'navigate';
  hash: string;
}

/** What changes the URL state. */
export type UrlAction = UrlPatch | UrlNavigate;

/** How a change is written to the browser's history. */
export interface HistoryWrite {
  /** The new hash ("" for the state of a fresh visit). */
  hash: string;
  /** `push`: a step of its own (Back returns before it); `replace`: the entry is rewritten. */
  mode: 'push' | 'replace';
}

/**
 * The state a patch applies to: `s` while the location still shows it, else the location's
 * state. After Back/Forward whose `navigate` has not been applied yet, `s` is stale, and merging
 * into it would write the state left behind over the entry navigated to (a map resize's view
 * update after Back used to restore the previous step).
 */
function baseOf(s: UrlState, hash: string): UrlState {
  return toHash(s) === hash ? s : parseHash(hash);
}

/**
 * The next state: a patch merged into the current state ({@link baseOf}); a navigation reads
 * the location's state, keeping `s` itself when it says the same (no re-render, and keys the
 * hash does not keep, such as `v2` while no comparison is on, survive).
 */
export function urlReducer(s: UrlState, a: UrlAction): UrlState {
  if (a.type === 'patch') return { ...baseOf(s, a.hash), ...a.patch };
  const n = parseHash(a.hash);
  return toHash(n) === toHash(s) ? s : n;
}

/**
 * How patch `a` on state `s` is written to the history: null when the hash does not change;
 * a push when a {@link HISTORY_KEYS} key takes a new value (and `a.replace` is not set), else
 * a replace (map view, opacity, typing).
 */
export function historyWrite(s: UrlState, a: UrlPatch): HistoryWrite | null {
  const base = baseOf(s, a.hash);
  const hash = toHash(urlReducer(s, a));
  if (hash === a.hash) return null;
  const step = !a.replace && HISTORY_KEYS.some((k) => k in a.patch && JSON.stringify(a.patch[k]) !== JSON.stringify(base[k]));
  return { hash, mode: step ? 'push' : 'replace' };
}
