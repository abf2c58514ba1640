/**
 * Runs an engine call on demand through TanStack Query: cached by arguments, cancellable
 * (the query's AbortSignal reaches the worker as `cancel(id)`), with progress. What is on
 * screen follows `run-state.ts` (issue 23 item 5): the shown result keeps the request that
 * produced it; while a newer request runs it is the old one ({@link RunState.old}); an error
 * removes it; a replaced request's answer is dropped. With `setQuery`, the Download and API
 * tabs get the shown result's query (never the inputs of a request still running).
 */
import { useCallback, useEffect, useReducer, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { isCancelledError, useQueryClient } from '@tanstack/react-query';
import type { CallOptions } from '../core/api';
import { holdLiveMap } from '../ui/first-map';
import type { QuerySpec } from './panels/common';
import { initialRunView, oldResult, queryAfter, runReducer, type RunEvent, type RunRequest, type RunView, type ShownResult } from './run-state';

/** Options of {@link useRun}. */
export interface RunOptions<A, R> {
  /** App's query setter: receives the shown result's query (the Download and API tabs describe it). */
  setQuery?: Dispatch<SetStateAction<QuerySpec | null>>;
  /** True for a result with nothing worth showing: the previous one stays on screen (`empty` notes the request). */
  isEmpty?: (a: A, d: R) => boolean;
  /**
   * The shown result as its query's downloads take it ({@link QuerySpec.result}: what the
   * method's package kind writes, e.g. the summary table), so a download of what is on screen
   * runs no query again; absent: downloads run the query.
   */
  result?: (d: R) => unknown;
}

/** State and controls of an on-demand call. */
export interface RunState<A, R> {
  /** Starts a request; `query` describes it for the Download and API tabs once its result is shown. */
  run: (a: A, query?: QuerySpec | null) => void;
  /** Cancels the running request (the shown result stays). */
  cancel: () => void;
  /** A request is running. */
  running: boolean;
  /** Error of the latest request (no result is shown then). */
  error: Error | null;
  /** The result on screen with the request (args, query) that produced it. */
  last: ShownResult<A, R> | null;
  /** The request running now. */
  pending: RunRequest<A> | null;
  /** The latest request's result had nothing to show (see {@link RunOptions.isEmpty}). */
  empty: RunRequest<A> | null;
  /** While a new request runs over a shown result: what the old result was for and what is computing. */
  old: { was: string; next: string } | null;
  progress: [number, number] | null;
  /** How many runs were asked for (for tests: a run has settled when this grew and `running` is false). */
  runs: number;
}

const GC_MS = 10 * 60_000;
const json = (a: unknown) => JSON.stringify(a);
const aborted = (e: unknown) => isCancelledError(e) || (e as { code?: string } | null)?.code === 'ABORTED' || (e as Error | null)?.name === 'AbortError';

/** The hook. `name` namespaces the cache key. */
export function useRun<A, R>(name: string, fn: (a: A, o: CallOptions) => Promise<R>, opts: RunOptions<A, R> = {}): RunState<A, R> {
  const qc = useQueryClient();
  const [view, dispatch] = useReducer(runReducer as (s: RunView<A, R>, e: RunEvent<A, R>) => RunView<A, R>, undefined, () => initialRunView<A, R>());
  const [progress, setProgress] = useState<[number, number] | null>(null);
  const [runs, setRuns] = useState(0);
  const fnRef = useRef(fn);
  const optsRef = useRef(opts);
  useEffect(() => { fnRef.current = fn; optsRef.current = opts; });
  const seq = useRef(0);
  const pending = useRef<{ seq: number; args: A } | null>(null);
  const lastKey = useRef<string | null>(null);

  const run = useCallback((a: A, query: QuerySpec | null = null) => {
    setRuns((n) => n + 1);
    const prev = pending.current;
    if (prev && json(prev.args) !== json(a)) void qc.cancelQueries({ queryKey: [name, prev.args], exact: true });
    const s = ++seq.current;
    pending.current = { seq: s, args: a };
    // the same arguments asked for again compute again (e.g. after a layer came back); others may come from the cache
    const again = lastKey.current === json(a);
    lastKey.current = json(a);
    setProgress(null);
    dispatch({ type: 'start', req: { seq: s, args: a, query } });
    const settle = (e: RunEvent<A, R>) => { if (pending.current?.seq === s) pending.current = null; dispatch(e); };
    // a run asked for before the live map is drawn gets the link first (src/ui/first-map.ts holdLiveMap)
    holdLiveMap(qc.fetchQuery({
      queryKey: [name, a],
      queryFn: ({ signal }) => fnRef.current(a, { signal, onProgress: (d, t) => { if (seq.current === s) setProgress([d, t]); } }),
      staleTime: again ? 0 : Infinity, gcTime: GC_MS, retry: false,
    }).then(
      (data) => settle({ type: 'success', seq: s, data, empty: optsRef.current.isEmpty?.(a, data) ?? false }),
      (e: unknown) => settle(aborted(e) ? { type: 'cancel', seq: s } : { type: 'error', seq: s, error: e instanceof Error ? e : new Error(String(e)) }),
    ));
  }, [qc, name]);

  const cancel = useCallback(() => {
    const p = pending.current;
    if (p) void qc.cancelQueries({ queryKey: [name, p.args], exact: true });
  }, [qc, name]);
  // a panel that goes away stops its request
  useEffect(() => () => { const p = pending.current; if (p) void qc.cancelQueries({ queryKey: [name, p.args], exact: true }); }, [qc, name]);

  // the Download and API tabs follow the result on screen
  const pushed = useRef<QuerySpec | null>(null);
  useEffect(() => {
    const set = optsRef.current.setQuery;
    const shown = view.shown;
    const toResult = optsRef.current.result;
    const q = shown?.query ? (toResult ? { ...shown.query, result: toResult(shown.data) } : shown.query) : null;
    const before = pushed.current;
    if (!set || q === before) return;
    pushed.current = q;
    set((cur) => queryAfter(cur, before, q));
  }, [view.shown]);

  return {
    run, cancel,
    running: view.pending !== null,
    error: view.error,
    last: view.shown,
    pending: view.pending,
    empty: view.empty,
    old: oldResult(view),
    progress,
    runs,
  };
}
