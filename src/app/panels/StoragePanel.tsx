/**
 * The storage panel: what this device keeps of the data bundle (indicators kept offline,
 * indicators cached because they were viewed, bytes, the origin's quota), "Keep offline" for
 * an indicator or a whole category with its size from the manifest, progress and cancel,
 * and freeing per item or all. Talks to the service worker (workers/sw.ts) by messages:
 * STORAGE_STATUS, PIN, CANCEL_PIN, FREE, CLEAR_STORAGE, SET_BUDGET; it answers with
 * `storage-status`, `pin-progress` and `storage-full`.
 */
import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { PageToSw, PinProgress, StorageStatus, SwToPage } from '../../../workers/protocol/storage';
import { DATA_BASE, catalogQuery } from '../bundle';
import { pinSet } from './pin-set';
import { layerPath } from '../../core/bundle';
import { bundleAt } from '../../ui/bundle-files';
import { KEEP_ALL_PREF } from '../keep-all';

/** Bytes as "12.3 MB" (SI units, as browsers' storage settings show them). */
export function fmtBytes(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '–';
  if (n < 1000) return `${n} B`;
  const u = ['kB', 'MB', 'GB', 'TB'];
  let v = n / 1000;
  let i = 0;
  while (v >= 1000 && i < u.length - 1) { v /= 1000; i++; }
  return `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ${u[i]}`;
}

const codeOf = (path: string) => path.replace(/^cog\//, '').replace(/\.tif$/, '');

function post(msg: PageToSw): boolean {
  const c = navigator.serviceWorker?.controller;
  if (!c) return false;
  c.postMessage(msg);
  return true;
}

/** The panel (rendered in the storage dialog of UpdateBanner). */
export function StoragePanel() {
  const [status, setStatus] = useState<StorageStatus | null>(null);
  const [job, setJob] = useState<PinProgress | null>(null);
  const [full, setFull] = useState<string | null>(null);
  const [persisted, setPersisted] = useState<boolean | null>(null);
  const [cat, setCat] = useState('');
  const [code, setCode] = useState('');
  const controlled = !!navigator.serviceWorker?.controller;
  const catalogQ = useQuery(catalogQuery);
  const manifestQ = useQuery({
    queryKey: ['manifest-files', DATA_BASE],
    queryFn: async ({ signal }) => {
      const m = await bundleAt(DATA_BASE).manifest(signal);
      return new Map(m.files.map((f) => [f.path, f.bytes]));
    },
    staleTime: 60_000,
  });
  const sizes = manifestQ.data;
  const catalog = useMemo(() => catalogQ.data ?? [], [catalogQ.data]);
  const labels = useMemo(() => new Map(catalog.map((r) => [r.varCode, r.varLabel])), [catalog]);
  const cats = useMemo(() => {
    const by = new Map<string, string[]>();
    for (const r of catalog) if (sizes?.has(layerPath(r.varCode))) by.set(r.cat1 || 'Other', [...(by.get(r.cat1 || 'Other') ?? []), r.varCode]);
    return [...by].sort((a, b) => a[0].localeCompare(b[0]));
  }, [catalog, sizes]);
  const sizeOf = (codes: string[]) => codes.reduce((s, c) => s + (sizes?.get(layerPath(c)) ?? 0), 0);
  // Kept indicators are summarised offline only with their formula columns and the key layers.
  const expand = (codes: string[]) => pinSet(codes, catalog, (c) => !!sizes?.has(layerPath(c)));
  const sizeWithNeeded = (codes: string[]) => { const s = expand(codes); return sizeOf([...s.codes, ...s.needed]); };

  useEffect(() => {
    if (!navigator.serviceWorker) return;
    const on = (e: MessageEvent) => {
      const d = e.data as SwToPage | undefined;
      if (d?.type === 'storage-status') setStatus(d);
      else if (d?.type === 'pin-progress' && d.id !== 'update') setJob(d);
      else if (d?.type === 'storage-full') setFull(String(d.message));
    };
    navigator.serviceWorker.addEventListener('message', on);
    post({ type: 'STORAGE_STATUS' });
    void navigator.storage?.persisted?.().then(setPersisted).catch(() => undefined);
    return () => navigator.serviceWorker.removeEventListener('message', on);
  }, []);

  const keep = async (codes: string[]) => {
    if (!codes.length) return;
    // Ask the browser not to evict this origin's storage under pressure (may be granted silently or refused).
    const ok = await navigator.storage?.persist?.().catch(() => false);
    setPersisted(!!ok);
    setFull(null);
    const id = `pin-${Date.now()}`;
    const set = expand(codes);
    const all = [...set.codes, ...set.needed];
    setJob({ id, done: 0, total: all.length, bytes: 0, totalBytes: sizeOf(all), complete: false });
    post({ type: 'PIN', id, paths: all.map((c) => layerPath(c)) });
  };
  const running = job && !job.complete && !job.cancelled && !job.error && job.done < job.total;
  const catCodes = cats.find(([c]) => c === cat)?.[1] ?? [];

  if (!controlled) return <p className="msg warn" data-testid="storage-unavailable">Offline storage needs the service worker, which is not active in this browser or page (private mode, or the first load is still starting).</p>;
  return (
    <div className="storage" data-testid="storage-panel">
      <p className="small" data-testid="storage-summary">
        {status ? <>
          Kept offline: <b>{fmtBytes(status.pinnedBytes)}</b> · viewed and cached: <b>{fmtBytes(status.blockBytes)}</b> of a {fmtBytes(status.budgetBytes)} budget · app data files: {fmtBytes(status.filesBytes)}
          {status.quota !== undefined && <> · this site uses {fmtBytes(status.usage)} of {fmtBytes(status.quota)} the browser allows</>}
          {persisted !== null && <> · {persisted ? 'protected from automatic clearing' : 'the browser may clear it when space runs low'}</>}
        </> : 'Reading storage…'}
      </p>
      {(full || status?.quotaError) && <p className="msg error" role="alert">{full ?? status?.quotaError}</p>}

      <h3>Keep offline</h3>
      <div className="row">
        <button type="button" className="primary" disabled={!cats.length || !!running} data-testid="keep-everything"
          onClick={() => { localStorage.setItem(KEEP_ALL_PREF, '1'); void keep(cats.flatMap(([, c]) => c)); }}>
          Keep everything offline ({fmtBytes(sizeOf(cats.flatMap(([, c]) => c)))})
        </button>
      </div>
      <p className="small muted">Indicators you view are cached as you go (least recently used are dropped past the budget). Kept indicators are downloaded whole, checked, and never dropped; the layers their summaries read (country and province keys, formula weights) are kept with them and counted in the sizes shown.</p>
      <div className="row">
        <label className="field inline"><span>Category</span>
          <select value={cat} onChange={(e) => setCat(e.target.value)} data-testid="keep-category">
            <option value="">Choose…</option>
            {cats.map(([c, codes]) => <option key={c} value={c}>{c} — {codes.length} indicators, {fmtBytes(sizeWithNeeded(codes))}</option>)}
          </select>
        </label>
        <button type="button" disabled={!catCodes.length || !!running} onClick={() => void keep(catCodes)}>Keep category offline{catCodes.length ? ` (${fmtBytes(sizeWithNeeded(catCodes))})` : ''}</button>
      </div>
      <div className="row">
        <label className="field inline"><span>Indicator</span>
          <select value={code} onChange={(e) => setCode(e.target.value)} data-testid="keep-indicator">
            <option value="">Choose…</option>
            {catalog.filter((r) => sizes?.has(layerPath(r.varCode))).map((r) => <option key={r.varCode} value={r.varCode}>{r.varLabel} ({r.varCode}) — {fmtBytes(sizeWithNeeded([r.varCode]))}</option>)}
          </select>
        </label>
        <button type="button" disabled={!code || !!running} onClick={() => void keep([code])}>Keep offline</button>
      </div>
      {job && (
        <div className="progress" role="status" data-testid="pin-progress" data-complete={job.complete ? '1' : '0'}>
          <progress max={job.totalBytes || 1} value={job.bytes} />
          <span>{job.done} / {job.total} files, {fmtBytes(job.bytes)} of {fmtBytes(job.totalBytes)}{job.complete ? ' — kept offline' : job.cancelled ? ' — cancelled' : ''}</span>
          {running && <button type="button" className="ghost small" onClick={() => post({ type: 'CANCEL_PIN', id: job.id })}>Cancel</button>}
        </div>
      )}
      {job?.error && <p className="msg error" role="alert" data-testid="pin-error">Could not keep everything offline: {job.error}</p>}

      <h3>Kept offline</h3>
      {status?.pins.length ? (
        <table className="small" data-testid="pinned-list"><tbody>
          {status.pins.map((p) => <tr key={p.path}><td>{labels.get(codeOf(p.path)) ?? codeOf(p.path)} <code>{codeOf(p.path)}</code></td><td>{fmtBytes(p.bytes)}</td>
            <td><button type="button" className="ghost small" onClick={() => post({ type: 'FREE', paths: [p.path] })} aria-label={`Free ${codeOf(p.path)}`}>Free</button></td></tr>)}
        </tbody></table>
      ) : <p className="small muted">Nothing yet.</p>}

      <h3>Recently viewed (cached)</h3>
      {status?.recent.length ? (
        <table className="small" data-testid="recent-list"><tbody>
          {status.recent.slice(0, 100).map((r) => <tr key={r.sha256}><td>{labels.get(codeOf(r.path)) ?? codeOf(r.path)} <code>{codeOf(r.path)}</code></td><td>{fmtBytes(r.bytes)}</td><td className="muted">{new Date(r.used).toLocaleString()}</td>
            <td><button type="button" className="ghost small" onClick={() => post({ type: 'FREE', paths: [r.path] })} aria-label={`Free ${codeOf(r.path)}`}>Free</button></td></tr>)}
        </tbody></table>
      ) : <p className="small muted">Nothing yet.</p>}

      <div className="row">
        <button type="button" onClick={() => { localStorage.setItem(KEEP_ALL_PREF, '0'); post({ type: 'CLEAR_STORAGE' }); }} data-testid="storage-clear">Free all</button>
        <label className="field inline"><span>Cache budget (MB)</span>
          <input type="number" min={10} step={10} style={{ width: 90 }} key={status?.budgetBytes} defaultValue={status ? Math.round(status.budgetBytes / 1e6) : ''}
            onBlur={(e) => { const mb = Number(e.target.value); if (mb >= 10) post({ type: 'SET_BUDGET', bytes: Math.round(mb * 1e6) }); }} />
        </label>
      </div>
    </div>
  );
}
