/**
 * The upload's choropleth ({@link useUploadChoro}) on the MapLibre map: a GeoJSON source of
 * the shapes, a fill coloured by each shape's `color` and a thin outline, under the place
 * labels; and its legend.
 */
import { useEffect } from 'react';
import type { GeoJSONSource, Map as MlMap } from 'maplibre-gl';
import { setUploadChoro, useUploadChoro } from './upload-layer';

const SRC = 'upload-choro';

/** Puts the upload's choropleth on `map` (nothing while the map is not there). */
export function UploadMapLayer({ map }: { map: MlMap | null }) {
  const c = useUploadChoro();
  useEffect(() => {
    if (!map) return;
    let live = true;
    const apply = () => {
      if (!live) return;
      try {
        if (!c) {
          if (map.getLayer(`${SRC}-fill`)) map.removeLayer(`${SRC}-fill`);
          if (map.getLayer(`${SRC}-line`)) map.removeLayer(`${SRC}-line`);
          if (map.getSource(SRC)) map.removeSource(SRC);
          return;
        }
        const src = map.getSource(SRC) as GeoJSONSource | undefined;
        if (src) src.setData(c.fc);
        else map.addSource(SRC, { type: 'geojson', data: c.fc });
        if (!map.getLayer(`${SRC}-fill`)) map.addLayer({ id: `${SRC}-fill`, type: 'fill', source: SRC, paint: { 'fill-color': ['coalesce', ['get', 'color'], 'rgba(0,0,0,0)'], 'fill-opacity': 0.85 } });
        if (!map.getLayer(`${SRC}-line`)) map.addLayer({ id: `${SRC}-line`, type: 'line', source: SRC, paint: { 'line-color': '#333333', 'line-width': 0.6 } });
        map.triggerRepaint();
      } catch {
        map.once('idle', apply); // the style is still loading: once the map is idle
      }
    };
    apply();
    map.on('style.load', apply); // a basemap switch replaces the style: put the layer back
    return () => { live = false; map.off('style.load', apply); };
  }, [map, c]);
  return null;
}

/** The legend of the upload's choropleth (in the map's legend corner). */
export function UploadLegend({ phone }: { phone: boolean }) {
  const c = useUploadChoro();
  if (!c) return null;
  return (
    <details className="legend" open={!phone} aria-label="Upload choropleth legend" data-testid="upload-legend">
      <summary><h3 title={c.column}>{c.title}</h3><code className="legend-code">{c.column}</code></summary>
      <ul role="list">{c.legend.map((e, i) => <li key={i}><span className="sw" style={{ background: e.color }} aria-hidden="true" />{e.label}</li>)}</ul>
      {c.missing > 0 && <p className="muted small">{c.missing} shape{c.missing > 1 ? 's' : ''} without a value (outline only)</p>}
      <button type="button" className="ghost small" onClick={() => setUploadChoro(null)}>Hide</button>
    </details>
  );
}
