import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ErrorBoundary } from 'react-error-boundary';
import { App } from './App';
import { Crashed } from './Crashed';
import { setBasemaps, setDataBase } from './bundle';
import { fetchConfig } from './config';
import { prefetchJson } from '../ui/prefetch';
import { afterFirstMap, liveMapReleased } from '../ui/first-map';
import { getEngine } from './services';
import { parseHash } from './url-state';
import { warmEngine } from './warm';
import './styles.css';

const client = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });

// The map's code (MapLibre, lazy in App) starts downloading as soon as the first view's preview
// is drawn (or there is none: src/ui/first-map.ts releaseLiveMap), not with the preview's bytes.
void liveMapReleased().then(() => import('../ui/MapView'));

// The bundle location (config.json's dataUrl) is known before anything reads the bundle.
void fetchConfig(document.baseURI).then((c) => {
  setDataBase(c.dataUrl);
  // The country outlines the first map draws, fetched while MapLibre is still downloading (src/ui/prefetch.ts).
  prefetchJson(new URL('basemap/countries.geojson', c.dataUrl).href);
  setBasemaps(c.basemaps ?? []);
  // The engine's cold start (worker, catalog, the link's domain layers) once the map is up, not at
  // the first click (./warm.ts); again for the engine started once the service worker controls the page.
  const warm = () => void warmEngine(getEngine(), parseHash(location.hash));
  void afterFirstMap().then(() => {
    warm();
    if (navigator.serviceWorker && !navigator.serviceWorker.controller) navigator.serviceWorker.addEventListener('controllerchange', warm, { once: true });
  });
  if (c.error) console.warn(c.error);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ErrorBoundary FallbackComponent={Crashed}>
        <QueryClientProvider client={client}>
          <App />
        </QueryClientProvider>
      </ErrorBoundary>
    </StrictMode>,
  );
});
