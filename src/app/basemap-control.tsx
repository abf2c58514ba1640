/**
 * Basemap choice (issue 17, defect 4): the bundled basemap (offline: Natural Earth land, GSHHG
 * lakes and rivers) or one of the online raster basemaps of config.json (`basemaps`, see
 * config.ts). The choice is kept in localStorage. Offline (navigator.onLine false, the
 * `offline` event) or when the online tiles fail, the map falls back to the bundled basemap
 * and says so.
 */
import { useEffect, useState, type ReactElement } from 'react';
import type { OnlineBasemap } from './config';

const KEY = 'indapi3.basemap';

/** The chosen basemap and the basemap select. */
export interface BasemapChoice {
  /** The online basemap to draw, or null for the bundled one. */
  basemap: OnlineBasemap | null;
  /** Call when the online tiles fail (falls back to the bundled basemap with a message). */
  onError: (message: string) => void;
  /** The select (null when config.json offers no online basemap), and the fallback message. */
  control: ReactElement | null;
}

/** Basemap state: `options` are config.json's online basemaps. */
export function useBasemap(options: OnlineBasemap[]): BasemapChoice {
  const [id, setId] = useState<string>(() => { try { return localStorage.getItem(KEY) ?? 'bundled'; } catch { return 'bundled'; } });
  const [msg, setMsg] = useState('');
  const choose = (v: string) => {
    setMsg('');
    if (v !== 'bundled' && !navigator.onLine) { setId('bundled'); setMsg('Offline: the bundled basemap is shown.'); return; }
    setId(v);
    try { localStorage.setItem(KEY, v); } catch { /* private mode: the choice lasts for this page */ }
  };
  useEffect(() => {
    const off = () => setId((cur) => { if (cur !== 'bundled') setMsg('Offline: the bundled basemap is shown.'); return 'bundled'; });
    window.addEventListener('offline', off);
    if (!navigator.onLine) off();
    return () => window.removeEventListener('offline', off);
  }, []);
  const basemap = options.find((b) => b.id === id) ?? null;
  const onError = (message: string) => {
    setId('bundled');
    setMsg(`The online basemap could not be loaded (${message}); the bundled basemap is shown.`);
  };
  const control = options.length ? (
    <span className="basemap-control">
      <select className="small" aria-label="Basemap" value={basemap ? basemap.id : 'bundled'} onChange={(e) => choose(e.target.value)}
        title="Basemap: the bundled one works offline; online basemaps need a connection">
        <option value="bundled">Bundled basemap (offline)</option>
        {options.map((b) => <option key={b.id} value={b.id}>{b.label} (online)</option>)}
      </select>
      {msg && <span className="msg warn small" role="status">{msg}</span>}
    </span>
  ) : null;
  return { basemap, onError, control };
}
