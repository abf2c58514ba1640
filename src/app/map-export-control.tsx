/** The map export control: a format select (PNG, SVG, PDF) and a "Save map" button that is disabled while the file builds. */
import { useState } from 'react';
import type { MapExportFormat } from './map-export-svg';

/** Props of {@link MapExportControl}. */
export interface MapExportControlProps {
  /** True while the map is not ready. */
  disabled: boolean;
  /** Builds and downloads the view in the format; rejects with an Error to show. */
  onSave: (format: MapExportFormat) => Promise<void>;
}

const FORMATS: Array<{ value: MapExportFormat; label: string; title: string }> = [
  { value: 'png', label: 'PNG', title: 'PNG image of the map view' },
  { value: 'svg', label: 'SVG', title: 'SVG: map image with vector legend, outlines and text' },
  { value: 'pdf', label: 'PDF', title: 'PDF page (A4): map image with vector legend and text' },
];

/** Format select and Save button; shows "Saving…" and disables both while a file builds. */
export function MapExportControl({ disabled, onSave }: MapExportControlProps) {
  const [format, setFormat] = useState<MapExportFormat>('png');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const save = () => {
    setBusy(true); setError('');
    onSave(format).catch((e: unknown) => setError(`Could not save the map: ${e instanceof Error ? e.message : String(e)}`)).finally(() => setBusy(false));
  };
  return (
    <span className="map-export" data-testid="map-export" style={{ display: 'inline-flex', gap: 4, alignItems: 'center', flex: 'none' }}>
      <select className="small" style={{ width: 'auto', padding: '3px 4px' }} aria-label="Map export format" value={format} disabled={busy} onChange={(e) => setFormat(e.target.value as MapExportFormat)}
        title={FORMATS.find((f) => f.value === format)?.title}>
        {FORMATS.map((f) => <option key={f.value} value={f.value}>{f.label}</option>)}
      </select>
      <button type="button" className="small" title="Save the map view with legend, scale bar and attribution in the chosen format"
        disabled={disabled || busy} aria-busy={busy} onClick={save}>{busy ? 'Saving…' : 'Save map'}</button>
      {error && <span className="msg error small" role="alert">{error}</span>}
    </span>
  );
}
