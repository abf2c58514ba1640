/**
 * Offline support and the update prompt: registers the service worker (`./sw.js`, which
 * precaches the app and the small bundle files and caches COG ranges as they are used) and
 * shows a banner when a new version is installed and waiting, or when the worker reports a
 * new bundle. The status text in the header opens the storage dialog (panels/StoragePanel).
 *
 * On a first visit (no service worker controls the page) the registration waits until the
 * first map has been drawn and the main thread is idle (src/ui/first-map.ts), so the
 * precache never competes with the first map for the network; a returning visit registers
 * at once (an update check).
 */
import { useEffect, useRef, useState } from 'react';
import { DATA_BASE, loadManifest } from './bundle';
import { afterFirstMap } from '../ui/first-map';
import { whenOfflineReady } from './services';
import { lazyRetry } from '../ui/lazy-retry';
import { Loadable } from '../ui/Loadable';
import { bundleAt } from '../ui/bundle-files';
import type { PageToSw, SwToPage } from '../../workers/protocol/storage';
import { KEEP_ALL_PREF, keepAllByDefault, layerFiles, offlineStatusText } from './keep-all';

const StoragePanel = lazyRetry(() => import('./panels/StoragePanel').then((m) => m.StoragePanel));

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

/**
 * After the page is offline-ready: what the service worker keeps (its `storage-status`), and
 * for a small bundle (the embedded one) every layer kept by default, once, with progress
 * ({@link keepAllByDefault}); larger bundles keep today's per-layer choice (StoragePanel).
 * @returns the header's text ({@link offlineStatusText}), or null before the first status
 */
function useKeepAll(ready: boolean): string | null {
  const [layers, setLayers] = useState<string[] | null>(null);
  const [pinned, setPinned] = useState<string[] | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (!ready || !navigator.serviceWorker?.controller) return;
    const ac = new AbortController();
    const sw = () => navigator.serviceWorker.controller;
    let files: { paths: string[]; bytes: number } | null = null;
    const onMsg = (e: MessageEvent) => {
      const d = e.data as SwToPage | undefined;
      if (d?.type === 'storage-status') {
        const paths = d.pins.map((p) => p.path);
        setPinned(paths);
        if (files && !asked.current && keepAllByDefault(files, paths, localStorage.getItem(KEEP_ALL_PREF), false)) {
          asked.current = true;
          sw()?.postMessage({ type: 'PIN', id: 'keep-all', paths: files.paths } satisfies PageToSw);
        }
      } else if (d?.type === 'pin-progress' && d.id === 'keep-all') {
        const over = d.complete || d.cancelled || !!d.error;
        setProgress(over ? null : d.totalBytes ? d.bytes / d.totalBytes : d.done / Math.max(1, d.total));
        if (over) sw()?.postMessage({ type: 'STORAGE_STATUS' } satisfies PageToSw);
      } else if (d?.type === 'pin-progress' && d.complete) sw()?.postMessage({ type: 'STORAGE_STATUS' } satisfies PageToSw);
    };
    navigator.serviceWorker.addEventListener('message', onMsg);
    bundleAt(DATA_BASE).manifest(ac.signal).then((m) => {
      files = layerFiles(m.files);
      setLayers(files.paths);
      sw()?.postMessage({ type: 'STORAGE_STATUS' } satisfies PageToSw);
    }, () => undefined);
    return () => { ac.abort(); navigator.serviceWorker.removeEventListener('message', onMsg); };
  }, [ready]);
  return layers && pinned ? offlineStatusText(layers, pinned, progress) : null;
}

/** The banner (and the registration). */
export function UpdateBanner() {
  const [waiting, setWaiting] = useState<ServiceWorker | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const [swErr, setSwErr] = useState<string | null>(null);
  const [storageOpen, setStorageOpen] = useState(false);
  const [full, setFull] = useState<string | null>(null);
  const [bundleErr, setBundleErr] = useState<string | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const online = useOnline();
  const kept = useKeepAll(ready);
  // A missing or unreadable bundle at the configured location: say so once, plainly.
  useEffect(() => {
    const ac = new AbortController();
    loadManifest(ac.signal).then(() => setBundleErr(null), (e: Error) => { if (!ac.signal.aborted) setBundleErr(e.message); });
    return () => ac.abort();
  }, []);
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
    const ac = new AbortController();
    const when = navigator.serviceWorker.controller ? Promise.resolve() : afterFirstMap(ac.signal);
    when
      .then(() => navigator.serviceWorker.register('./sw.js', { scope: './' }))
      .then((r) => { reg = r; watch(r); })
      .catch((e) => { if (!ac.signal.aborted) setSwErr(`Offline mode unavailable: ${(e as Error).message}`); });
    // offline-ready: everything this visit showed is stored (shell, small bundle files, COG ranges read so far)
    whenOfflineReady(navigator.serviceWorker, ac.signal).then(() => setReady(true)).catch(() => undefined);
    const onMsg = (e: MessageEvent) => {
      const d = e.data;
      if (d?.type === 'storage-full') setFull(String(d.message));
      if (d && typeof d === 'object' && /updat/i.test(String(d.type ?? ''))) setNote(`A new data bundle${d.version ? ` (${d.version})` : ''} is available.`);
    };
    navigator.serviceWorker.addEventListener('message', onMsg);
    const onCtl = () => { if (reloadRequested) location.reload(); };
    navigator.serviceWorker.addEventListener('controllerchange', onCtl);
    const t = setInterval(() => void reg?.update().catch(() => undefined), 30 * 60_000);
    return () => { ac.abort(); clearInterval(t); navigator.serviceWorker.removeEventListener('message', onMsg); navigator.serviceWorker.removeEventListener('controllerchange', onCtl); };
  }, []);
  return (
    <>
      <p className="status small" data-testid="sw-status" data-ready={ready ? '1' : '0'} title={swErr ?? 'Storage: what this device keeps offline'}>
        <button type="button" aria-haspopup="dialog" data-testid="storage-open" style={{ background: 'none', border: 0, padding: 0, color: 'inherit', textDecoration: 'underline dotted', cursor: 'pointer' }}
          onClick={() => { setStorageOpen(true); dialog.current?.showModal(); }}>
          {online ? (ready ? (kept ?? 'Available offline') : swErr ? 'Online (no offline mode)' : 'Online') : 'Offline'}<span className="sr-only"> – storage</span>
        </button>
      </p>
      <dialog ref={dialog} aria-labelledby="storage-title" data-testid="storage-dialog" onClose={() => setStorageOpen(false)} style={{ maxWidth: 720, width: '95vw', maxHeight: '85vh', overflow: 'auto' }}>
        <div className="row space"><h2 id="storage-title" style={{ margin: 0 }}>Storage on this device</h2><button type="button" className="ghost" onClick={() => dialog.current?.close()}>Close</button></div>
        {storageOpen && <Loadable what="the storage panel" loading={<p>Loading…</p>}><StoragePanel /></Loadable>}
      </dialog>
      {bundleErr && (
        <div className="msg error banner" role="alert" data-testid="bundle-error">Data bundle ({DATA_BASE}): {bundleErr}</div>
      )}
      {full && (
        <div className="msg warn banner" role="alert" data-testid="storage-full">{full} <button type="button" className="ghost" onClick={() => setFull(null)}>Dismiss</button></div>
      )}
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
