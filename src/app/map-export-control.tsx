/**
 * The map export control: a format select (PNG, SVG, PDF), a size select (the screen, A4 at 150
 * or 300 dpi, or a width in pixels; a PDF is always an A4 page) and a "Save map" button that is
 * disabled while the file builds; meanwhile the export's step shows ("Drawing map 1/4") beside a
 * Cancel button that aborts it (nothing is downloaded then).
 */
import { useRef, useState } from 'react';
import { MAX_EXPORT_PX, type ExportSize, type MapExportFormat } from './map-export-size';
import { isAbort, progressText, type OnExportProgress } from './map-export-steps';

/** Props of {@link MapExportControl}. */
export interface MapExportControlProps {
  /** True while the map is not ready. */
  disabled: boolean;
  /**
   * Builds and downloads the view in the format and size, reporting its steps to `onProgress`;
   * rejects with an Error to show, or with an AbortError once `signal` is aborted (Cancel).
   */
  onSave: (format: MapExportFormat, size: ExportSize, signal: AbortSignal, onProgress: OnExportProgress) => Promise<void>;
}

const FORMATS: Array<{ value: MapExportFormat; label: string; title: string }> = [
  { value: 'png', label: 'PNG', title: 'PNG image of the map view' },
  { value: 'svg', label: 'SVG', title: 'SVG: map image with vector legend, outlines and text' },
  { value: 'pdf', label: 'PDF', title: 'PDF page (A4): map image with vector legend and text' },
];

type SizeId = 'screen' | 'a4-150' | 'a4-300' | 'width';
const SIZES: Array<{ value: SizeId; label: string }> = [
  { value: 'screen', label: 'Screen size' },
  { value: 'a4-150', label: 'A4, 150 dpi' },
  { value: 'a4-300', label: 'A4, 300 dpi' },
  { value: 'width', label: 'Width in px…' },
];

/** The export size of a size choice (a PDF's screen or width choice: A4 at 150 dpi). */
function sizeOf(id: SizeId, widthPx: number): ExportSize {
  if (id === 'a4-150') return { kind: 'a4', dpi: 150 };
  if (id === 'a4-300') return { kind: 'a4', dpi: 300 };
  if (id === 'width') return { kind: 'width', px: widthPx };
  return { kind: 'screen' };
}

/** Format and size selects and Save button; shows "Saving…", the step and Cancel, and disables the selects while a file builds. */
export function MapExportControl({ disabled, onSave }: MapExportControlProps) {
  const [format, setFormat] = useState<MapExportFormat>('png');
  const [size, setSize] = useState<SizeId>('screen');
  const [widthPx, setWidthPx] = useState(2000);
  const [busy, setBusy] = useState(false);
  const [step, setStep] = useState('');
  const [error, setError] = useState('');
  const job = useRef<AbortController | null>(null);
  const pdf = format === 'pdf';
  const save = () => {
    const ac = new AbortController();
    job.current = ac;
    setBusy(true); setError(''); setStep('Starting');
    const mine = () => job.current === ac;
    onSave(format, sizeOf(pdf && (size === 'screen' || size === 'width') ? 'a4-150' : size, widthPx), ac.signal, (p) => { if (mine()) setStep(progressText(p)); })
      .catch((e: unknown) => { if (mine() && !isAbort(e)) setError(`Could not save the map: ${e instanceof Error ? e.message : String(e)}`); })
      .finally(() => { if (mine()) { job.current = null; setBusy(false); setStep(''); } });
  };
  const cancel = () => { job.current?.abort(); job.current = null; setBusy(false); setStep(''); setError(''); };
  const sel = { className: 'small', style: { width: 'auto', padding: '3px 4px' } };
  return (
    <span className="map-export" data-testid="map-export" style={{ display: 'inline-flex', gap: 4, alignItems: 'center', flex: 'none', flexWrap: 'wrap' }}>
      <select {...sel} aria-label="Map export format" value={format} disabled={busy} onChange={(e) => setFormat(e.target.value as MapExportFormat)}
        title={FORMATS.find((f) => f.value === format)?.title}>
        {FORMATS.map((f) => <option key={f.value} value={f.value}>{f.label}</option>)}
      </select>
      <select {...sel} aria-label="Map export size" value={pdf && (size === 'screen' || size === 'width') ? 'a4-150' : size} disabled={busy} onChange={(e) => setSize(e.target.value as SizeId)}
        title="Image size: the map as on screen, an A4 page at 150 or 300 dpi, or a width in pixels">
        {SIZES.filter((s) => !pdf || s.value.startsWith('a4')).map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
      </select>
      {size === 'width' && !pdf && (
        <input type="number" className="small" style={{ width: '6em', padding: '3px 4px' }} aria-label="Map export width in pixels" min={200} max={MAX_EXPORT_PX} step={100}
          value={widthPx} disabled={busy} onChange={(e) => setWidthPx(Number(e.target.value) || 2000)} />
      )}
      <button type="button" className="small" title="Save the map view with legends, scale bar and attribution in the chosen format and size"
        disabled={disabled || busy} aria-busy={busy} onClick={save}>{busy ? 'Saving…' : 'Save map'}</button>
      {busy && <span className="small" role="status" data-testid="map-export-progress">{step}</span>}
      {busy && <button type="button" className="small" onClick={cancel} title="Stop building the map file (nothing is saved)">Cancel</button>}
      {error && <span className="msg error small" role="alert">{error}</span>}
    </span>
  );
}
