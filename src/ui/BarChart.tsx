/**
 * Bar chart of a result column with Vega-Lite (compiled to Vega, rendered as SVG; both
 * loaded on demand so they stay out of the initial JavaScript).
 */
import { useEffect, useRef, useState } from 'react';
import type { Row } from '../core/types';

/** Props of {@link BarChart}. */
export interface BarChartProps {
  rows: Row[];
  /** Category field (x). */
  x: string;
  /** Value field (y). */
  y: string;
  /** Optional colour field (e.g. ISO3). */
  color?: string;
  title: string;
}

/** The chart component. */
export function BarChart({ rows, x, y, color, title }: BarChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const [err, setErr] = useState<string | null>(null);
  useEffect(() => {
    let view: { finalize(): void } | null = null;
    let cancelled = false;
    (async () => {
      const [vega, vl] = await Promise.all([import('vega'), import('vega-lite')]);
      const data = rows.filter((r) => typeof r[y] === 'number').slice(0, 60).map((r) => ({ x: String(r[x] ?? 'all'), y: r[y], c: color ? String(r[color] ?? '') : '' }));
      const horizontal = data.length > 12;
      const cat = { field: 'x', type: 'nominal', sort: '-' + (horizontal ? 'x' : 'y'), title: x, axis: { labelLimit: 120, ...(horizontal ? {} : { labelAngle: -45 }) } };
      const maxAbs = Math.max(0, ...data.map((d) => Math.abs(Number(d.y))));
      const val = { field: 'y', type: 'quantitative', title: y, axis: { format: maxAbs >= 1e5 ? '~s' : ',~r' } };
      const spec: any = {
        $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
        width: 'container', height: horizontal ? Math.min(900, data.length * 14) : 220, autosize: { type: 'fit', contains: 'padding' },
        data: { values: data },
        mark: { type: 'bar', tooltip: true },
        encoding: {
          ...(horizontal ? { y: cat, x: val } : { x: cat, y: val }),
          ...(color ? { color: { field: 'c', type: 'nominal', title: color, scale: { scheme: 'tableau10' } } } : { color: { value: '#2f6f9f' } }),
        },
        config: { font: 'system-ui, sans-serif', axis: { labelFontSize: 10, titleFontSize: 11 } },
      };
      const compiled = vl.compile(spec).spec;
      const v = new vega.View(vega.parse(compiled), { renderer: 'svg', container: el.current!, hover: true });
      view = v;
      await v.runAsync();
      if (cancelled) v.finalize();
    })().catch((e) => setErr(String(e?.message ?? e)));
    return () => { cancelled = true; view?.finalize(); };
  }, [rows, x, y, color]);
  return (
    <figure className="chart">
      <div ref={el} role="img" aria-label={title} />
      <figcaption className="muted small">{title}</figcaption>
      {err && <p className="msg error">Chart failed: {err}</p>}
    </figure>
  );
}
