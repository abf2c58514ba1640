/**
 * Upload shapes into the Areas panel: a file input, and files dropped on the map (App sends
 * them as an `indapi-upload` window event). The shapes are added to the panel's WKT and
 * summarised like drawn shapes.
 */
import { useEffect, useRef, useState } from 'react';
import { parseWktGeometries } from '../../ui/wkt';
import { nameKey, readUpload, shapeNames, shapesWkt, UPLOAD_MAX_BYTES, WKT_MAX_CHARS } from '../upload';
import { errText } from './common';
import { takeDroppedFile, UPLOAD_EVENT } from './upload-drop';

/**
 * Props: the current WKT and shape names (by shape number 1..n), a setter for the WKT with the
 * uploaded shapes added and the names of all shapes, and a setter for the names alone.
 */
export interface UploadShapesProps { wkt: string; names: string[]; onWkt: (wkt: string, names: string[]) => void; onNames: (names: string[]) => void }

/** The last upload: its shapes' feature properties, where they start among the shapes (0-based) and the property naming them. */
interface LastUpload { props: Array<Record<string, unknown>>; keys: string[]; first: number; key: string }

/** The control. */
export function UploadShapes({ wkt, names, onWkt, onNames }: UploadShapesProps) {
  const [up, setUp] = useState<LastUpload | null>(null);
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ ok: boolean; text: string; notes: string[] } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const latest = useRef({ wkt, names, onWkt });
  latest.current = { wkt, names, onWkt };
  // shapes cleared or replaced: the name choice of the last upload no longer applies
  useEffect(() => { if (!wkt.trim()) setUp(null); }, [wkt]);

  const read = async (file: File) => {
    setBusy(true); setMsg(null);
    try {
      const r = await readUpload(file);
      const cur = latest.current.wkt.trim() ? parseWktGeometries(latest.current.wkt) : [];
      const all = shapesWkt([...cur, ...r.geometries]);
      if (all.length > WKT_MAX_CHARS) throw new Error(`With the shapes already there the WKT would be ${all.length.toLocaleString('en')} characters (at most ${WKT_MAX_CHARS.toLocaleString('en')}); clear the shapes first.`);
      const before = Array.from({ length: cur.length }, (_, i) => latest.current.names[i] ?? '');
      latest.current.onWkt(all, [...before, ...r.names]);
      const auto = r.props.map(nameKey).find((k) => k !== undefined) ?? '';
      setUp({ props: r.props, keys: r.keys, first: cur.length, key: auto });
      const first = cur.length + 1, last = cur.length + r.geometries.length;
      const shown = r.names.slice(0, 5).join(', ') + (r.names.length > 5 ? `, and ${r.names.length - 5} more` : '');
      setMsg({ ok: true, text: `Added ${r.geometries.length} shape${r.geometries.length > 1 ? 's' : ''} from ${file.name} (shape${first === last ? ` ${first}` : `s ${first}–${last}`} on the map): ${shown}. Summarise areas to compute them.`, notes: r.notes });
    } catch (e) {
      setMsg({ ok: false, text: errText(e), notes: [] });
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  const readRef = useRef(read);
  readRef.current = read;
  useEffect(() => {
    // a file dropped on the map: announced while mounted, or kept from before this code had loaded
    const on = () => { const f = takeDroppedFile(); if (f) void readRef.current(f); };
    window.addEventListener(UPLOAD_EVENT, on);
    on();
    return () => window.removeEventListener(UPLOAD_EVENT, on);
  }, []);

  return (
    <div className="upload" data-testid="upload">
      <label className="field">
        <span>Upload shapes: GeoJSON, zipped shapefile (.zip with .shp, .dbf, .prj), KML or KMZ, up to {UPLOAD_MAX_BYTES / 1048576} MB; or drop a file on the map</span>
        <input ref={input} type="file" accept=".geojson,.json,.zip,.kml,.kmz,application/geo+json,application/json,application/zip,application/vnd.google-earth.kml+xml,application/vnd.google-earth.kmz" disabled={busy}
          onChange={(e) => { const f = e.target.files?.[0]; if (f) void read(f); }} />
      </label>
      {up && up.keys.length > 0 && (
        <label className="field inline small"><span>Name the uploaded shapes by</span>
          <select data-testid="upload-name-key" value={up.key} onChange={(e) => {
            const key = e.target.value;
            setUp({ ...up, key });
            const n = [...latest.current.names];
            const fresh = key ? shapeNames(up.props, key) : up.props.map((_, i) => String(i + 1));
            fresh.forEach((x, i) => { n[up.first + i] = x; });
            onNames(n);
          }}>
            {!up.key && <option value="">(number)</option>}
            {up.keys.map((k) => <option key={k} value={k}>{k}</option>)}
            {up.key && <option value="">(number)</option>}
          </select>
        </label>
      )}
      <div role="status" aria-live="polite">
        {busy && <p className="muted small">Reading the file…</p>}
        {msg?.ok && <p className="msg info small" data-testid="upload-msg">{msg.text}{msg.notes.map((n) => ` ${n}`).join('')}</p>}
      </div>
      {msg && !msg.ok && <p className="msg error" role="alert" data-testid="upload-error">{msg.text}</p>}
    </div>
  );
}
