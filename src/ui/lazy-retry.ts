/**
 * `React.lazy` that can be tried again. A plain `lazy()` keeps its first rejected import for
 * good, so a panel whose code failed to download once (a mobile connection that dropped, the
 * device gone offline before the chunk came) could never load without a page reload. Here a
 * failed load is remembered, and {@link retryFailedLoads} (called by the error boundary of
 * `Loadable.tsx` on "Try again" or when the browser is back online) gives each failed one a
 * fresh `lazy()`, so the next render downloads it again. (Chromium and Firefox fetch a module
 * again after a failed dynamic import; the failure is not kept in the module map.)
 */
import { createElement, lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** Renewers of the lazy components whose last load failed. */
const failed = new Set<() => void>();

/**
 * A component that renders what `load` resolves to, loading it on first render (suspends
 * meanwhile, as `React.lazy`). A failed load is thrown to the nearest error boundary, and
 * rendering again throws the same error until {@link retryFailedLoads} is called.
 * @param load resolves to the component (e.g. `() => import('./X').then((m) => m.X)`); its
 *   rejection (a failed dynamic import) reaches the error boundary
 */
export function lazyRetry<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const renew = () => { current = make(); };
  const make = (): LazyExoticComponent<ComponentType<P>> => lazy(() => load().then(
    (c) => ({ default: c }),
    (e: unknown) => { failed.add(renew); throw e; },
  ));
  let current = make();
  /** Renders the current lazy component with the caller's props. */
  function LazyRetry(props: P) {
    return createElement(current as ComponentType<P>, props);
  }
  return LazyRetry;
}

/** Lets every lazy component whose load failed load again on its next render. */
export function retryFailedLoads(): void {
  for (const renew of failed) renew();
  failed.clear();
}
