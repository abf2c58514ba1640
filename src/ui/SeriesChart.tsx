/**
 * The series chart per unit (loaded on first use): a small SVG line chart of a national series
 * over the years for the selected countries, a line per country (gaps where the source has no
 * value: nothing interpolated), each point's value on hover (its `<title>`), the source under it.
 */
import { useEffect, useState } from 'react';
import type { NationalSeries } from '../core/bundle';
import type { VarRecord } from '../core/types';
import { seriesLines } from './series-map';

/** Colours of the lines (ColorBrewer Dark2, 8 classes), cycled. */
const LINE_COLORS = ['#1b9e77', '#d95f02', '#7570b3', '#e7298a', '#66a61e', '#e6ab02', '#a6761d', '#666666'];
const W = 380, H = 200, L = 46, R = 12, T = 10, B = 26;

/** Props of {@link SeriesChart}. */
export interface SeriesChartProps {
  /** The series' record (label, unit, decimals, source, licence). */
  rec: VarRecord;
  /** Countries (ISO3) to draw. */
  iso3s: string[];
  /** Loads the bundle's national series (the page's bundle reader). */
  load: (signal: AbortSignal) => Promise<NationalSeries | null>;
  /** Country names by ISO3, for the legend. */
  names?: Map<string, string>;
}

/** The chart. */
export function SeriesChart({ rec, iso3s, load, names }: SeriesChartProps) {
  const [table, setTable] = useState<NationalSeries | null>(null);
  const [err, setErr] = useState<string | null>(null);
  useEffect(() => {
    const ac = new AbortController();
    load(ac.signal).then((t) => { if (t) setTable(t); else setErr('This bundle has no national series values.'); }, (e: unknown) => { if (!ac.signal.aborted) setErr((e as Error).message); });
    return () => ac.abort();
  }, [load]);
  if (err) return <p className="msg error" role="alert">Cannot draw the series: {err}</p>;
  if (!table) return <p className="muted small">Loading the series…</p>;
  if (!iso3s.length) return <p className="muted small" data-testid="series-chart-hint">Choose countries above to chart {rec.varLabel} over the years, a line per country.</p>;
  const lines = seriesLines(table, rec.varCode, iso3s);
  const pts = lines.flatMap((l) => l.runs.flat());
  const years = table.years.get(rec.varCode) ?? [];
  if (!pts.length || !years.length) return <p className="muted small">No value of {rec.varLabel} for {iso3s.join(', ')}.</p>;
  const [y0, y1] = [years[0], years[years.length - 1]];
  const vmin = Math.min(0, ...pts.map((p) => p[1])), vmax = Math.max(...pts.map((p) => p[1]));
  const x = (yr: number) => L + ((yr - y0) / Math.max(1, y1 - y0)) * (W - L - R);
  const y = (v: number) => T + (1 - (v - vmin) / Math.max(1e-12, vmax - vmin)) * (H - T - B);
  const dec = Number(rec.dec) || 0;
  const fmt = (v: number) => v.toLocaleString('en', { maximumFractionDigits: dec });
  return (
    <figure className="series-chart" data-testid="series-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${rec.varLabel} (${rec.unit}), ${y0}–${y1}, a line per country: ${iso3s.join(', ')}`}>
        <line x1={L} x2={W - R} y1={H - B} y2={H - B} stroke="#888" />
        <line x1={L} x2={L} y1={T} y2={H - B} stroke="#888" />
        {[vmin, (vmin + vmax) / 2, vmax].map((v) => <text key={v} x={L - 4} y={y(v) + 4} textAnchor="end" fontSize="10">{fmt(v)}</text>)}
        {[y0, Math.round((y0 + y1) / 2), y1].map((yr) => <text key={yr} x={x(yr)} y={H - B + 14} textAnchor="middle" fontSize="10">{yr}</text>)}
        {lines.map((l, i) => (
          <g key={l.iso3} stroke={LINE_COLORS[i % LINE_COLORS.length]} fill={LINE_COLORS[i % LINE_COLORS.length]} data-iso3={l.iso3}>
            {l.runs.map((run, k) => <polyline key={k} fill="none" strokeWidth="1.8" points={run.map(([yr, v]) => `${x(yr).toFixed(1)},${y(v).toFixed(1)}`).join(' ')} />)}
            {l.runs.flat().map(([yr, v]) => <circle key={yr} cx={x(yr)} cy={y(v)} r="2.2"><title>{`${names?.get(l.iso3) ?? l.iso3} ${yr}: ${fmt(v)} ${rec.unit}`}</title></circle>)}
          </g>
        ))}
      </svg>
      <figcaption className="small">
        {lines.map((l, i) => <span key={l.iso3} className="series-key"><span className="sw" style={{ background: LINE_COLORS[i % LINE_COLORS.length] }} aria-hidden="true" />{names?.get(l.iso3) ?? l.iso3}{l.runs.length ? '' : ' (no value)'} </span>)}
        <br /><span className="muted">{rec.varLabel} ({rec.unit}); national value, no variation within the country. Source: {rec.sources || rec.sourceMini}, {rec.license}.</span>
      </figcaption>
    </figure>
  );
}
