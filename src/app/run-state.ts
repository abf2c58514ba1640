/**
 * What a panel shows of its on-demand runs (issue 23 item 5, "no stale answer on screen"),
 * as a pure state machine shared by every panel through `useRun`:
 * - the result on screen (`shown`) always carries the request that produced it (its arguments
 *   and its {@link QuerySpec} for the Download and API tabs), never the current inputs;
 * - while a new request runs (`pending`) the shown result stays, marked as the old one
 *   ({@link oldResult}), until the new one replaces it;
 * - an error of the latest request removes the shown result (a stale answer under new inputs
 *   is worse than none); a cancel keeps it (it still answers its own request);
 * - a result or error of a request that is no longer the latest (a second point clicked while
 *   the first computes) is dropped.
 */
import type { QuerySpec } from './panels/common';

/** A request: its sequence number (1, 2, … per panel), arguments and query description. */
export interface RunRequest<A> { seq: number; args: A; query: QuerySpec | null }

/** The result on screen with the request that produced it. */
export interface ShownResult<A, R> extends RunRequest<A> { data: R }

/** State of a panel's runs. */
export interface RunView<A, R> {
  /** The result on screen, or null. */
  shown: ShownResult<A, R> | null;
  /** The request running now, or null. */
  pending: RunRequest<A> | null;
  /** The error of the latest request (its result, and the one before, are not on screen). */
  error: Error | null;
  /** The latest request whose result was left off as empty (`empty` of {@link runReducer}); the previous result stays. */
  empty: RunRequest<A> | null;
}

/** Events of a run. `seq` ties a settle event to its request. */
export type RunEvent<A, R> =
  | { type: 'start'; req: RunRequest<A> }
  | { type: 'success'; seq: number; data: R; empty?: boolean }
  | { type: 'error'; seq: number; error: Error }
  | { type: 'cancel'; seq: number };

/** The state before any run. */
export function initialRunView<A, R>(): RunView<A, R> {
  return { shown: null, pending: null, error: null, empty: null };
}

/**
 * Next state after an event. A settle event whose `seq` is not the pending request's is
 * ignored (an earlier request, replaced). `success` with `empty: true` keeps the result on
 * screen and notes the request in `empty` (a panel that does not replace a result by one with no
 * value, as Summaries).
 */
export function runReducer<A, R>(s: RunView<A, R>, e: RunEvent<A, R>): RunView<A, R> {
  if (e.type === 'start') return { ...s, pending: e.req, error: null, empty: null };
  if (!s.pending || s.pending.seq !== e.seq) return s;
  const req = s.pending;
  switch (e.type) {
    case 'success':
      return e.empty ? { ...s, pending: null, empty: req } : { shown: { ...req, data: e.data }, pending: null, error: null, empty: null };
    case 'error':
      return { shown: null, pending: null, error: e.error, empty: null };
    case 'cancel':
      return { ...s, pending: null };
  }
}

/**
 * The line over an old result while a new request runs: what the old result was for and what
 * is being computed, from the requests' query labels (e.g. "Catchment from 36.817, -1.283");
 * null when nothing old is on screen.
 */
export function oldResult<A, R>(s: RunView<A, R>): { was: string; next: string } | null {
  if (!s.shown || !s.pending) return null;
  return { was: s.shown.query?.label ?? 'the previous request', next: s.pending.query?.label ?? 'the new request' };
}

/**
 * The query the Download and API tabs should describe after a change of the shown result:
 * the shown result's own query; when the result left the screen (an error), `null` if the
 * tabs described that result (so they fall back to the current selection), else what they had.
 */
export function queryAfter(current: QuerySpec | null, before: QuerySpec | null, shown: QuerySpec | null): QuerySpec | null {
  if (shown) return shown;
  return current === before ? null : current;
}
