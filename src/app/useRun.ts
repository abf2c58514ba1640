/**
 * Runs an engine call on demand through TanStack Query: cached by arguments, cancellable
 * (the query's AbortSignal reaches the worker as `cancel(id)`), with progress, the error
 * of the latest run kept apart from the last good result (which stays on screen).
 */
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallOptions } from '../core/api';

/** State and controls of an on-demand call. */
export interface RunState<A, R> {
  run: (a: A) => void;
  cancel: () => void;
  running: boolean;
  error: Error | null;
  last: { args: A; data: R } | null;
  progress: [number, number] | null;
  /** How many runs were asked for (for tests: a run has settled when this grew and `running` is false). */
  runs: number;
}

/** The hook. `name` namespaces the cache key. */
export function useRun<A, R>(name: string, fn: (a: A, o: CallOptions) => Promise<R>): RunState<A, R> {
  const qc = useQueryClient();
  const [args, setArgs] = useState<A | null>(null);
  const [progress, setProgress] = useState<[number, number] | null>(null);
  const [runs, setRuns] = useState(0);
  const q = useQuery({
    queryKey: [name, args],
    queryFn: ({ signal }) => { setProgress(null); return fn(args as A, { signal, onProgress: (d, t) => setProgress([d, t]) }); },
    enabled: args !== null,
    retry: false,
    staleTime: Infinity,
    gcTime: 10 * 60_000,
    refetchOnWindowFocus: false,
  });
  const [last, setLast] = useState<{ args: A; data: R } | null>(null);
  useEffect(() => {
    if (q.isSuccess && args !== null && q.data !== undefined) setLast({ args, data: q.data as R });
  }, [q.data, q.isSuccess, args]);
  return {
    run: (a) => {
      setRuns((n) => n + 1);
      if (JSON.stringify(a) === JSON.stringify(args)) void q.refetch();
      else setArgs(a);
    },
    cancel: () => void qc.cancelQueries({ queryKey: [name, args] }),
    running: q.isFetching,
    error: q.isError ? (q.error as Error) : null,
    last,
    progress,
    runs,
  };
}
