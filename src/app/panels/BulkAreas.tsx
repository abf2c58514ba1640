/**
 * Areas: many polygons. A GeoPackage, zipped shapefile or GeoJSON of up to 10,000 features
 * (50 MB) summarised as one job in the engine worker (`classify`, one row per shape) with a
 * progress bar and Cancel; the rows in a virtualised table; the shapes on the map coloured
 * by a chosen column, with a legend; the table saved in every table format and GeoPackage
 * through the download package builder (the files worker), from the rows already computed.
 * The shapes stay in the page (never in its link).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { proxy } from 'comlink';
import type { TableResult } from '../../core/api';
import { FORMATS } from '../../core/formats/registry';
import type { Row } from '../../core/types';
import { Progress } from '../../ui/Progress';
import { VirtualTable } from '../../ui/VirtualTable';
import { BULK_MAX_BYTES, BULK_MAX_FEATURES, bulkDomains, readBulkUpload, shapesBounds, type BulkShapes } from '../bulk-upload';
import { getEngine } from '../services';
import { svgToPng } from '../svg-to-png';
import { setUploadChoro, uploadChoropleth } from '../upload-layer';
import { nameKey, shapeNames } from '../upload';
import { colLabel, errText, summaryVars, type PanelCtx } from './common';
import { endpoint } from './api-snippets';
import { API_BASE } from './ApiPanel';
import { statLabel, zonalRequest, type ZonalRequest } from './zonal-choice';

/** Formats an upload's results are saved in: the table formats of the registry (csv, dta, rds, rda, gpkg). */
export const BULK_FORMATS = FORMATS.filter((f) => f.input === 'table');

/** A finished job: its table and what it was computed from. */
interface BulkResult { table: TableResult; vars: string[]; shapes: BulkShapes; exact: boolean; names: string[]; zonal: ZonalRequest }

const aborted = (e: unknown) => (e as { code?: string } | null)?.code === 'ABORTED' || (e as Error | null)?.name === 'AbortError';

/** Saving a result: the format, the build's progress, what was saved. */
function useBulkDownload(result: BulkResult | null) {
  const [format, setFormat] = useState('csv');
  const [busy, setBusy] = useState<{ id: number; pct: number } | null>(null);
  const [saved, setSaved] = useState<{ name: string; files: string[] } | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const nextId = useRef(1_000_000);
  const save = async () => {
    if (!result) return;
    const id = nextId.current++;
    setBusy({ id, pct: 0 }); setErr(null); setSaved(null);
    try {
      // the Download panel's module (its files worker and saver) loads on first use: it stays its own chunk
      const { filesWorker, saveBytes } = await import('./DownloadPanel');
      const n = result.shapes.geometries.length;
      const args = { var: result.vars, domains: `<${n} shapes of ${result.shapes.fileName}, numbered 1..${n} as 'feature'>`, ...(result.exact ? { exact: true } : {}), ...result.zonal };
      const out = await filesWorker().build(id, { method: 'classify', args, format, requestUrl: endpoint(API_BASE, 'classify', false), result: result.table, shapes: result.shapes.geometries },
        proxy(svgToPng), proxy((d: number) => setBusy((b) => (b && b.id === id ? { id, pct: d } : b))));
      if (!out.ok) { setErr(out.error.code === 'ABORTED' ? 'Cancelled.' : out.error.message); return; }
      saveBytes(out.value.zip, out.value.zipName, 'application/zip');
      setSaved({ name: out.value.zipName, files: out.value.files.map((f) => f.name) });
    } catch (e) {
      setErr(errText(e));
    } finally {
      setBusy(null);
    }
  };
  return { format, setFormat, busy, saved, err, save, cancel: () => { if (busy) void import('./DownloadPanel').then((m) => m.filesWorker().cancel(busy.id)); } };
}

/** The section. */
export function BulkAreas({ ctx }: { ctx: PanelCtx }) {
  const { state, byCode } = ctx;
  const vars = summaryVars(state);
  const [shapes, setShapes] = useState<BulkShapes | null>(null);
  const [reading, setReading] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const [job, setJob] = useState<{ ac: AbortController; progress: [number, number] | null } | null>(null);
  const [result, setResult] = useState<BulkResult | null>(null);
  const [column, setColumn] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const dl = useBulkDownload(result);
  useEffect(() => () => setUploadChoro(null), []);

  const read = async (file: File) => {
    setReading(true); setErr(null);
    try {
      setShapes(await readBulkUpload(file));
    } catch (e) {
      setShapes(null);
      setErr(errText(e));
    } finally {
      setReading(false);
      if (input.current) input.current.value = '';
    }
  };
  const run = async () => {
    if (!shapes || job) return;
    if (!vars.length) { setErr('Choose at least one indicator (map one from the catalog or add it under Summaries).'); return; }
    const ac = new AbortController();
    const zonal = zonalRequest(state);
    let pct = -1;
    setErr(null); setJob({ ac, progress: null });
    try {
      const table = await getEngine().classify({ var: vars, domains: bulkDomains(shapes.geometries), key: 'feature', exact: state.exact, ...zonal }, {
        signal: ac.signal,
        onProgress: (d, t) => {
          const p = Math.floor((d / t) * 100);
          if (p !== pct) { pct = p; setJob((j) => (j && j.ac === ac ? { ac, progress: [d, t] } : j)); }
        },
      });
      const key = shapes.props.map(nameKey).find((k) => k !== undefined) ?? null;
      setResult({ table, vars, shapes, exact: state.exact, names: shapeNames(shapes.props, key), zonal });
      const b = shapesBounds(shapes.geometries);
      if (b) ctx.fitTo(b);
      setColumn(table.columns.find((c) => c.role === 'value')?.name ?? null);
    } catch (e) {
      setErr(aborted(e) ? 'Cancelled: nothing was kept.' : errText(e));
    } finally {
      setJob(null);
    }
  };
  const valueCols = useMemo(() => result?.table.columns.filter((c) => c.role === 'value').map((c) => c.name) ?? [], [result]);
  useEffect(() => {
    if (!result || !column) { setUploadChoro(null); return; }
    const code = column.split('_')[0];
    setUploadChoro(uploadChoropleth(result.shapes.geometries, result.table.rows, column, byCode.get(column)?.dec ?? byCode.get(code)?.dec ?? 2, `${colLabel(byCode, column)} by uploaded shape`));
  }, [result, column, byCode]);
  const cols = useMemo(() => (result ? ['feature', 'name', ...result.table.columns.map((c) => c.name).filter((c) => c !== 'feature')] : []), [result]);
  const cellText = (row: Row, c: string) => (c === 'name' ? result?.names[Number(row.feature) - 1] : undefined);
  const label = (c: string) => (c === 'feature' ? 'Shape' : c === 'name' ? 'Name' : statLabel(result?.table.columns, c) ?? colLabel(byCode, c));

  return (
    <section className="bulk" aria-labelledby="bulk-h" data-testid="bulk">
      <h3 id="bulk-h">Many polygons</h3>
      <label className="field">
        <span>Summarise a file of polygons as one job: GeoPackage (.gpkg), zipped shapefile or GeoJSON, up to {BULK_MAX_FEATURES.toLocaleString('en')} features and {BULK_MAX_BYTES / 1048576} MB (EPSG:4326)</span>
        <input ref={input} type="file" data-testid="bulk-file" accept=".gpkg,.zip,.geojson,.json,application/geopackage+sqlite3,application/zip,application/geo+json" disabled={reading || !!job}
          onChange={(e) => { const f = e.target.files?.[0]; if (f) void read(f); }} />
      </label>
      {reading && <p className="muted small" role="status">Reading the file…</p>}
      {shapes && <p className="msg info small" data-testid="bulk-read">{shapes.geometries.length.toLocaleString('en')} shapes in {shapes.fileName}.{shapes.notes.map((n) => ` ${n}`).join('')}</p>}
      <div className="row">
        <button type="button" className="primary" onClick={() => void run()} disabled={!shapes || !!job}>Summarise {shapes ? `${shapes.geometries.length.toLocaleString('en')} shapes` : 'the file'}</button>
        {job && <Progress label="Summarising shapes" done={job.progress?.[0]} total={job.progress?.[1]} onCancel={() => job.ac.abort()} />}
      </div>
      {err && <p className="msg error" role="alert" data-testid="bulk-error">{err}</p>}
      {result && (
        <div className="result-block" data-testid="bulk-result">
          <p className="muted small">{result.table.rows.length.toLocaleString('en')} rows · {result.vars.join(', ')}{result.exact ? ' · exact coverage' : ''}</p>
          {valueCols.length > 0 && (
            <label className="field inline small"><span>Map</span>
              <select data-testid="bulk-column" value={column ?? ''} onChange={(e) => setColumn(e.target.value)}>{valueCols.map((c) => <option key={c} value={c}>{label(c)} ({c})</option>)}</select>
            </label>
          )}
          <VirtualTable rows={result.table.rows} columns={cols} label={label} cellText={cellText} caption="Summary by uploaded shape" testId="bulk-table" decimals={(c) => byCode.get(c)?.dec ?? result.table.columns.find((x) => x.name === c)?.dec ?? 2} />
          <fieldset className="radios formats">
            <legend>Save the table as</legend>
            {BULK_FORMATS.map(({ name, label: l }) => <label key={name}><input type="radio" name="bulk-format" value={name} checked={dl.format === name} onChange={() => dl.setFormat(name)} /> <code>{name}</code> {l}</label>)}
          </fieldset>
          <div className="row">
            <button type="button" onClick={() => void dl.save()} disabled={!!dl.busy} data-testid="bulk-save">Build and save ZIP</button>
            {dl.busy && <Progress label="Building files" done={dl.busy.pct} total={100} onCancel={dl.cancel} />}
          </div>
          {dl.err && <p className="msg error" role="alert">{dl.err}</p>}
          {dl.saved && <p className="small" data-testid="bulk-saved">Saved <code>{dl.saved.name}</code>: {dl.saved.files.map((f) => <code key={f}>{f} </code>)}</p>}
        </div>
      )}
    </section>
  );
}
