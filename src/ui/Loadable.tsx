/**
 * A part of the app whose code is loaded on demand (a lazy panel, the map, the place search),
 * with its loading placeholder and its own error boundary: when its code cannot be downloaded
 * (offline, a dropped mobile connection, a deployment that removed the chunk), that part says
 * so and offers "Try again"; the rest of the app keeps working. Without the boundary, React
 * unmounts the whole page on such an error and the user is left with a blank screen.
 *
 * Error boundary: `react-error-boundary` (the maintained one; React has no hook for it).
 */
import { Suspense, useEffect, type ReactNode } from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { retryFailedLoads } from './lazy-retry';

/** Props of {@link Loadable}. */
export interface LoadableProps {
  /** What is loaded, for the message, e.g. "the table builder". */
  what: string;
  /** Shown while the code downloads. */
  loading: ReactNode;
  /** Compact failure message (one line, for the map's overlays); default a message block. */
  compact?: boolean;
  /** After a failure, a change of any of these tries again (e.g. the panel being opened). */
  resetKeys?: unknown[];
  children: ReactNode;
}

/**
 * The user's words for why a part of the app did not load.
 * @param e the error of the failed load (a failed dynamic import, or the part's own error)
 * @param online `navigator.onLine`
 * @param compact a few words (for the map's overlays) instead of a sentence
 */
export function loadFailureText(e: unknown, online: boolean, compact = false): string {
  const m = e instanceof Error ? e.message : String(e);
  if (!online) return compact ? 'offline' : 'this device is offline. It loads when the connection is back.';
  if (/dynamically imported module|Importing a module script failed|preload|Failed to fetch|NetworkError|Load failed/i.test(m)) {
    return compact ? 'the connection failed' : 'its code could not be downloaded (the connection dropped, or the app was updated: reload the page).';
  }
  return m;
}

/** The failure message with a retry button; tries again by itself when the browser is back online (and on `resetKeys`). */
function Failed({ error, resetErrorBoundary, what, compact }: FallbackProps & { what: string; compact?: boolean }) {
  useEffect(() => {
    const again = () => resetErrorBoundary();
    window.addEventListener('online', again);
    return () => window.removeEventListener('online', again);
  }, [resetErrorBoundary]);
  const why = loadFailureText(error, navigator.onLine, compact);
  return (
    <p className={`msg error${compact ? ' small' : ''}`} role="alert" data-testid="load-failed">
      {compact ? `Cannot load ${what} (${why}).` : `Cannot load ${what}: ${why}`}{' '}
      <button type="button" className="ghost small" onClick={() => resetErrorBoundary()}>Try again</button>
    </p>
  );
}

/** Suspense plus an error boundary for one lazily loaded part (see the module comment). */
export function Loadable({ what, loading, compact, resetKeys, children }: LoadableProps) {
  return (
    <ErrorBoundary onReset={retryFailedLoads} resetKeys={resetKeys} fallbackRender={(p) => <Failed {...p} what={what} compact={compact} />}>
      <Suspense fallback={loading}>{children}</Suspense>
    </ErrorBoundary>
  );
}
