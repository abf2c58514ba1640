/**
 * Offline support and the update prompt: registers the service worker (`./sw.js`, which
 * precaches the app and the bundle, versioned by the bundle manifest) and shows a banner
 * when a new version is installed and waiting, or when the worker reports a new bundle.
 */
import { useEffect, useState } from 'react';

/** Set when the person asked to update: the next controller change reloads the page. */
let reloadRequested = false;

/** True once a service worker controls the page (offline-ready). */
export function useOnline() {
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(navigator.onLine);
    window.addEventListener('online', on); window.addEventListener('offline', on);
    return () => { window.removeEventListener('online', on); window.removeEventListener('offline', on); };
  }, []);
  return online;
}

/** The banner (and the registration). */
export function UpdateBanner() {
  const [waiting, setWaiting] = useState<ServiceWorker | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const [swErr, setSwErr] = useState<string | null>(null);
  const online = useOnline();
  useEffect(() => {
    if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
    let reg: ServiceWorkerRegistration | undefined;
    const watch = (r: ServiceWorkerRegistration) => {
      if (r.waiting && navigator.serviceWorker.controller) setWaiting(r.waiting);
      r.addEventListener('updatefound', () => {
        const nw = r.installing;
        nw?.addEventListener('statechange', () => {
          if (nw.state === 'installed' && navigator.serviceWorker.controller) setWaiting(r.waiting ?? nw);
        });
      });
    };
    navigator.serviceWorker.register('./sw.js', { scope: './' }).then((r) => { reg = r; watch(r); }).catch((e) => setSwErr(`Offline mode unavailable: ${(e as Error).message}`));
    navigator.serviceWorker.ready.then(() => setReady(true)).catch(() => undefined);
    const onMsg = (e: MessageEvent) => {
      const d = e.data;
      if (d && typeof d === 'object' && /updat/i.test(String(d.type ?? ''))) setNote(`A new data bundle${d.version ? ` (${d.version})` : ''} is available.`);
    };
    navigator.serviceWorker.addEventListener('message', onMsg);
    const onCtl = () => { if (reloadRequested) location.reload(); };
    navigator.serviceWorker.addEventListener('controllerchange', onCtl);
    const t = setInterval(() => void reg?.update().catch(() => undefined), 30 * 60_000);
    return () => { clearInterval(t); navigator.serviceWorker.removeEventListener('message', onMsg); navigator.serviceWorker.removeEventListener('controllerchange', onCtl); };
  }, []);
  return (
    <>
      <p className="status small" data-testid="sw-status" data-ready={ready ? '1' : '0'} title={swErr ?? undefined}>{online ? (ready ? 'Available offline' : swErr ? 'Online (no offline mode)' : 'Online') : 'Offline'}</p>
      {(waiting || note) && (
        <div className="msg info banner" role="status" data-testid="update-banner">
          {waiting ? 'A new version of the app and data is ready.' : note}{' '}
          <button type="button" className="primary" onClick={() => {
            reloadRequested = true;
            if (waiting) { waiting.postMessage({ type: 'SKIP_WAITING' }); setTimeout(() => location.reload(), 4000); } else location.reload();
          }}>Reload to update</button>
        </div>
      )}
    </>
  );
}
