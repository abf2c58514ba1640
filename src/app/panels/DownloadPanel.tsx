/** Downloads: every file format of the API for the current query, built in a worker, saved as the spec's ZIP. */
import { useEffect, useRef, useState } from 'react';
import { proxy, wrap, type Remote } from 'comlink';
import type { FilesWorkerApi, BuildResult, EngineQuery } from '../../../workers/protocol/files';
import { ENGINE_CALLS, type EngineMethod } from '../../../workers/protocol/engine';
import { toWireError } from '../../../workers/protocol/outcome';
import { getEngine } from '../services';
import { DATA_BASE } from '../bundle';
import { svgToPng } from '../svg-to-png';
import { Progress } from '../../ui/Progress';
import { endpoint } from './api-snippets';
import { API_BASE } from './ApiPanel';
import { errText, type QuerySpec } from './common';
import { downloadFormats } from '../../contract/methods';
import { hasYearColumn, type TableLayout } from '../../core/package/wide';
import { cellFormatsBlocked, mapsCells } from './download-years';
import type { TableResult } from '../../core/types';

/** True when the query's table is long by year: its result has a `year` column, or it asks for years without `change`. */
export function longByYear(q: Pick<QuerySpec, 'args' | 'result'> | null): boolean {
  if (!q) return false;
  const res = q.result as Partial<TableResult> | undefined;
  if (res && Array.isArray(res.columns)) return hasYearColumn(res as TableResult);
  return Array.isArray(q.args.year) && q.args.year.length > 0 && q.args.change === undefined;
}

let files: Remote<FilesWorkerApi> | null = null;
/** The files worker (started once): builds download packages off the main thread. */
export function filesWorker() {
  if (!files) {
    files = wrap<FilesWorkerApi>(new Worker(new URL('../../../workers/files.worker.ts', import.meta.url), { type: 'module', name: 'files' }));
    void files.init(DATA_BASE);
  }
  return files;
}
let nextId = 1;

/**
 * The page's engine as the files worker queries it ({@link EngineQuery}): calls of the engine
 * worker's client under `signal` (Cancel aborts it), so a tab runs one engine.
 */
export function engineQuery(signal: AbortSignal): EngineQuery {
  return proxy(async (method: EngineMethod, args: unknown, onProgress?: (done: number, total: number) => void) => {
    try {
      return { ok: true as const, value: await ENGINE_CALLS[method](getEngine(), args as never, { signal, onProgress }) };
    } catch (e) {
      return { ok: false as const, error: toWireError(e, signal.aborted) };
    }
  });
}

/** Saves bytes as a file download. */
export function saveBytes(bytes: Uint8Array, name: string, type: string) {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
  const a = document.createElement('a');
  a.href = url; a.download = name; a.rel = 'noopener';
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The panel. */
export function DownloadPanel({ query }: { query: QuerySpec | null }) {
  const [format, setFormat] = useState('csv');
  const [layout, setLayout] = useState<TableLayout>('long');
  const [busy, setBusy] = useState<{ id: number; pct: number } | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const [done, setDone] = useState<(Omit<BuildResult, 'zip'> & { format: string; size: number; url: string }) | null>(null);
  const imgs = useRef<string[]>([]);
  const active = useRef(0);
  // each build's page-side engine calls, aborted by Cancel
  const stops = useRef(new Map<number, AbortController>());
  const q = query;
  // the method's formats, from its spec in the method registry (its package kind); with no query yet the main query's
  const offered = downloadFormats(q?.method ?? 'indapi');
  const byYear = longByYear(q);
  // the formats that map cells read one year: over several years or a change they are shown disabled, saying why
  const blocked = q ? cellFormatsBlocked(q.args) : null;
  const usable = offered.filter((f) => !blocked || !mapsCells(f));
  // a format this query does not offer (e.g. tif after switching to a comparison) falls back to the first one offered
  useEffect(() => { if (!usable.some((f) => f.name === format)) setFormat(usable[0].name); }, [usable.map((f) => f.name).join(), format]);
  useEffect(() => () => imgs.current.forEach((u) => URL.revokeObjectURL(u)), []);
  // the files worker starts when the panel first opens, while a format is chosen, not at the first
  // build (its script and the bundle's small files took ~1 s of the first download)
  useEffect(() => { filesWorker(); }, []);

  const build = async () => {
    if (!q) { setErr('Choose an indicator first.'); return; }
    setErr(null);
    const id = nextId++;
    active.current = id;
    const ac = new AbortController();
    stops.current.set(id, ac);
    setBusy({ id, pct: 0 });
    try {
      const out = await filesWorker().build(id, { method: q.method, args: q.args, result: q.result, format, requestUrl: endpoint(API_BASE, q.method, false), layout: byYear ? layout : 'long' }, proxy(svgToPng), proxy((d: number) => { if (active.current === id) setBusy({ id, pct: d }); }), engineQuery(ac.signal));
      if (!out.ok) { if (out.error.code !== 'ABORTED') setErr(out.error.message); else setErr('Cancelled.'); return; }
      const v = out.value;
      saveBytes(v.zip, v.zipName, 'application/zip');
      if (done) URL.revokeObjectURL(done.url);
      const url = URL.createObjectURL(new Blob([v.zip as BlobPart], { type: 'application/zip' }));
      imgs.current.forEach((u) => URL.revokeObjectURL(u));
      imgs.current = v.graphics.map((g) => URL.createObjectURL(new Blob([g.svg], { type: 'image/svg+xml' })));
      setDone({ zipName: v.zipName, files: v.files, graphics: v.graphics, timings: v.timings, format, size: v.zip.byteLength, url });
    } catch (e) {
      setErr(errText(e));
    } finally {
      active.current = 0;
      stops.current.delete(id);
      setBusy(null);
    }
  };
  return (
    <section aria-labelledby="dl-h">
      <h2 id="dl-h">Download</h2>
      <p className="small">{q ? <>For: <strong>{q.label}</strong></> : <span className="muted">Map an indicator or run a query first.</span>}</p>
      <fieldset className="radios formats">
        <legend>Format</legend>
        {offered.map((f) => (
          <label key={f.name}><input type="radio" name="dl-format" value={f.name} checked={format === f.name} disabled={!usable.includes(f)} onChange={() => setFormat(f.name)} /> <code>{f.name}</code> {f.label}</label>
        ))}
        {blocked && usable.length < offered.length && <p className="small muted" data-testid="dl-one-year">The map formats ({offered.filter(mapsCells).map((f) => f.name).join(', ')}) map one year&apos;s cells; this result holds {blocked}. Choose one year under Years in Summaries for them.</p>}
      </fieldset>
      {byYear && (
        <fieldset className="radios" data-testid="dl-layout">
          <legend>Years</legend>
          <label><input type="radio" name="dl-layout" value="long" checked={layout === 'long'} onChange={() => setLayout('long')} /> long: one row per unit and year (as the API)</label>
          <label><input type="radio" name="dl-layout" value="wide" checked={layout === 'wide'} onChange={() => setLayout('wide')} /> wide: one column per year (Stata's <code>reshape wide</code>)</label>
        </fieldset>
      )}
      <div className="row">
        <button type="button" className="primary" onClick={build} disabled={!!busy || !q}>Build and save ZIP</button>
        {busy && <Progress label="Building files" done={busy.pct} total={100} onCancel={() => { stops.current.get(busy.id)?.abort(); void filesWorker().cancel(busy.id); }} />}
      </div>
      {err && <p className="msg error" role="alert">{err}</p>}
      {done && (
        <div className="result-block" data-testid="download-result" data-format={done.format}
          data-package-ms={Math.round(done.timings.packageMs)} data-zip-ms={Math.round(done.timings.zipMs)}>
          <p className="small">Saved <code>{done.zipName}</code> ({(done.size / 1024).toFixed(1)} KiB). <a href={done.url} download={done.zipName}>Save again</a></p>
          <ul className="files small">{done.files.map((f) => <li key={f.name}><code>{f.name}</code> <span className="muted">{f.bytes.toLocaleString()} bytes</span></li>)}</ul>
          {done.graphics.map((g, i) => (
            <figure key={i} className="graphic">
              <img src={imgs.current[i]} alt={`${done.format} image ${i + 1} of ${done.zipName}`} />
              <figcaption><button type="button" className="ghost small" onClick={() => saveBytes(g.png, `${done.zipName.replace(/\.zip$/, '')}-${i + 1}.png`, 'image/png')}>Save PNG</button></figcaption>
            </figure>
          ))}
        </div>
      )}
    </section>
  );
}
