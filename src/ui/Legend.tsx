/** Map legend and opacity control. */
import type { ReactNode } from 'react';
import { legendOf, type Palette } from '../core/map/palette';

/** Props of {@link Legend}. */
export interface LegendProps {
  title: string;
  unit: string;
  palette: Palette | null;
  opacity: number;
  onOpacity: (v: number) => void;
  /** Max entries listed (class layers with hundreds of classes are cut). */
  max?: number;
  /** Extra controls under the legend. */
  children?: ReactNode;
  /** Starts closed (e.g. while a choropleth covers the layer); the user can open it. */
  collapsed?: boolean;
  /** Label of the swatch for cells without a value (default "No data"; a catchment: beyond its last band). */
  noDataLabel?: string;
}

/** Legend box with swatches (and a "No data" swatch: the basemap's land colour, which shows where a layer has no value) and an opacity slider. */
export function Legend({ title, unit, palette, opacity, onOpacity, max = 14, children, collapsed = false, noDataLabel = 'No data' }: LegendProps) {
  const entries = palette ? legendOf(palette) : [];
  return (
    <details className="legend" open={!collapsed} aria-label="Legend">
      <summary><h3>{title}{unit ? <span className="muted"> ({unit})</span> : null}</h3></summary>
      {!palette && <p className="muted small">Loading layer…</p>}
      <ul role="list">
        {entries.slice(0, max).map((e, i) => (
          <li key={i}><span className="sw" style={{ background: e.color }} aria-hidden="true" />{e.label}</li>
        ))}
        {palette && <li className="nodata" title="Cells without a value: the basemap shows through"><span className="sw sw-nodata" aria-hidden="true" />{noDataLabel}</li>}
      </ul>
      {entries.length > max && <p className="muted small">+ {entries.length - max} more classes</p>}
      <label className="field inline small">
        <span>Opacity</span>
        <input type="range" min={0} max={1} step={0.05} value={opacity} onChange={(e) => onOpacity(Number(e.target.value))} aria-valuetext={`${Math.round(opacity * 100)}%`} />
      </label>
      {children}
    </details>
  );
}
